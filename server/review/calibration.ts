/**
 * Calibration of a prompt's judged criteria against human verdicts (issue 18): per criterion and
 * judge model, over every bench of the prompt, the figures of `lib/review/calibration`, and the
 * state each criterion gets at launch under the prompt's policy.
 */
import type { Db } from "@/db/client";
import { getCalibrationPolicy, reviewedJudgedChecks, type ReviewedCheckRow } from "@/db/queries/human-verdicts";
import { calibrate, type Calibration } from "@/lib/review/calibration";
import { calibrationState, type CalibrationPolicy, type CriterionCalibrationState } from "@/lib/review/advisory";

/** The calibration of one criterion's judge, for one judge model. */
export interface CriterionCalibration extends Calibration {
  criterionId: number;
  /** The criterion's rule as its latest reviewed check showed it. */
  label: string;
  /** `provider:modelId` of the judge measured. */
  judgeModel: string;
  /** The benches whose trials were reviewed. */
  benchIds: number[];
}

/** The judge model of a bench as calibration names it, or null when it has none. */
export const judgeModelName = (judge: { provider: string; modelId: string } | null | undefined) => (judge ? `${judge.provider}:${judge.modelId}` : null);

/**
 * The calibration of every reviewed criterion of prompt `promptId`, per judge model, ordered by
 * criterion then judge model. Each human verdict on a judged check is one pair (a reviewer's
 * "can't tell", and a judge check that was unscored or errored, are listed but not counted).
 */
export async function promptCalibrations(db: Db, promptId: number): Promise<CriterionCalibration[]> {
  const groups = new Map<string, ReviewedCheckRow[]>();
  for (const r of await reviewedJudgedChecks(db, promptId)) {
    if (r.criterionId === null || r.judgeModel === null) continue;
    const k = `${r.criterionId}|${r.judgeModel}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.values()]
    .map((rows) => ({
      criterionId: rows[0].criterionId!,
      label: rows[rows.length - 1].label,
      judgeModel: rows[0].judgeModel!,
      benchIds: [...new Set(rows.map((r) => r.benchId))].sort((a, b) => a - b),
      ...calibrate(rows.map((r) => ({ judge: r.judgeVerdict, human: r.human }))),
    }))
    .sort((a, b) => a.criterionId - b.criterionId || a.judgeModel.localeCompare(b.judgeModel));
}

/**
 * The state of each criterion at launch: calibrated or advisory, for the judge model the bench uses.
 * @param judge the bench's judge (null: none, every criterion advisory and unscored)
 * @returns criterion id → state
 */
export async function launchCalibrationStates(
  db: Db,
  promptId: number,
  criterionIds: readonly number[],
  judge: { provider: string; modelId: string } | null,
): Promise<{ policy: CalibrationPolicy; states: Map<number, CriterionCalibrationState> }> {
  const policy = await getCalibrationPolicy(db, promptId);
  const model = judgeModelName(judge);
  const cals = model ? (await promptCalibrations(db, promptId)).filter((c) => c.judgeModel === model) : [];
  const states = new Map(criterionIds.map((id) => [id, calibrationState(cals.find((c) => c.criterionId === id) ?? null, policy, model)]));
  return { policy, states };
}
