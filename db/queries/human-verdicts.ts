/**
 * Human verdicts (issue 18): reviewers' pass / fail / can't-tell on the checks of a trial, stored
 * beside the judge's record (never in it), and the per-prompt calibration settings. Typed reads and
 * writes only; the overlay and the figures are in `lib/review`.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import type { Tx } from "../write-transaction";
import { humanVerdicts, promptCalibrationSettings, trials } from "../schema";
import type { HumanCheckVerdict, HumanVerdictValue } from "@/lib/review/overlay";
import { DEFAULT_CALIBRATION_POLICY, type CalibrationPolicy } from "@/lib/review/advisory";

/** A stored human verdict. `createdAt` in ms since the epoch. */
export interface HumanVerdictRow {
  id: number;
  trialId: number;
  checkKey: string;
  verdict: HumanVerdictValue;
  note: string;
  reviewer: string;
  createdAt: number;
}

/**
 * A SQL expression, for a query over `trials t`, that is the trial's human verdicts as JSON text
 * (`[{ "checkKey", "verdict", "at" }]`, in no set order: {@link parseHumanOverlay} orders them), or
 * null when it has none. Scoring reads it beside `t.checks`.
 */
export const HUMAN_OVERLAY_SQL = `(SELECT json_group_array(json_object('checkKey', hv.check_key, 'verdict', hv.verdict, 'at', hv.created_at, 'id', hv.id))
  FROM human_verdicts hv WHERE hv.trial_id = t.id)`;

/** The verdicts of {@link HUMAN_OVERLAY_SQL}'s text, oldest first (so the last one given wins). */
export function parseHumanOverlay(text: string | null | undefined): HumanCheckVerdict[] {
  if (!text) return [];
  const list = JSON.parse(text) as { checkKey: string; verdict: HumanVerdictValue; at: number; id: number }[];
  return list.sort((a, b) => a.at - b.at || a.id - b.id).map((v) => ({ checkKey: v.checkKey, verdict: v.verdict }));
}

/**
 * Stores a reviewer's verdict on one check of one trial: replaces that reviewer's earlier verdict on
 * the same check, leaves other reviewers' and the trial's checks alone. Call inside the transaction
 * that also rewrites the trial's counts.
 */
export function upsertHumanVerdict(tx: Tx, v: Omit<HumanVerdictRow, "id">): void {
  tx.insert(humanVerdicts)
    .values(v)
    .onConflictDoUpdate({
      target: [humanVerdicts.trialId, humanVerdicts.checkKey, humanVerdicts.reviewer],
      set: { verdict: v.verdict, note: v.note, createdAt: v.createdAt },
    })
    .run();
}

/** The human verdicts of one trial, oldest first. */
export function trialHumanVerdicts(db: Db | Tx, trialId: number): HumanVerdictRow[] {
  return db.select().from(humanVerdicts).where(eq(humanVerdicts.trialId, trialId)).orderBy(humanVerdicts.createdAt, humanVerdicts.id).all();
}

/** The human verdicts of a bench's trials, per trial id, oldest first. */
export function benchHumanVerdicts(db: Db, benchId: number): Map<number, HumanVerdictRow[]> {
  const rows = db
    .select({ v: humanVerdicts })
    .from(humanVerdicts)
    .innerJoin(trials, eq(trials.id, humanVerdicts.trialId))
    .where(eq(trials.benchId, benchId))
    .orderBy(humanVerdicts.createdAt, humanVerdicts.id)
    .all();
  const out = new Map<number, HumanVerdictRow[]>();
  for (const { v } of rows) out.set(v.trialId, [...(out.get(v.trialId) ?? []), v]);
  return out;
}

/** What a review needs of a trial to check and score a verdict: its bench, status and recorded checks (JSON text). */
export function trialForVerdict(db: Db | Tx, trialId: number): { id: number; benchId: number; status: string; checks: string | null } | null {
  return (
    db.select({ id: trials.id, benchId: trials.benchId, status: trials.status, checks: trials.checks }).from(trials).where(eq(trials.id, trialId)).get() ?? null
  );
}

/**
 * Writes a trial's verdict counts (the columns the matrix, live figures and case tallies read) as
 * scored with human verdicts. `checks` — the judge's record — is not touched.
 */
export function setTrialCounts(tx: Tx, trialId: number, n: { passed: number; failed: number; unscored: number; error: number }): void {
  tx.update(trials)
    .set({ passedChecks: n.passed, failedChecks: n.failed, unscoredChecks: n.unscored, errorChecks: n.error })
    .where(eq(trials.id, trialId))
    .run();
}

/** One human verdict on a judged check, with what the judge recorded and what the review needs to show or export. */
export interface ReviewedCheckRow {
  benchId: number;
  trialId: number;
  caseKey: string;
  caseId: number;
  caseRevisionId: number;
  /** The revision's number within its case (1, 2, …), as the library shows it. */
  caseRevisionNumber: number;
  candidate: string;
  checkKey: string;
  criterionId: number | null;
  label: string;
  judgeVerdict: "passed" | "failed" | "unscored" | "error";
  judgeReason: string;
  /** `provider:modelId` of the bench's judge, null when it had none. */
  judgeModel: string | null;
  human: HumanVerdictValue;
  note: string;
  reviewer: string;
  reviewedAt: number;
  input: string;
  expected: string;
  output: string | null;
}

/**
 * Every human verdict on a judged check (a criterion) over the benches of prompt `promptId`, oldest
 * first, with the judge's recorded verdict and the judge model of its bench.
 * @param criterionId only this criterion's checks, when given
 */
export function reviewedJudgedChecks(db: Db, promptId: number, criterionId?: number): ReviewedCheckRow[] {
  return db.$client
    .prepare(
      `SELECT b.id AS benchId, t.id AS trialId, bc.case_key AS caseKey, bc.case_id AS caseId, bc.case_revision_id AS caseRevisionId, r.number AS caseRevisionNumber, c.label AS candidate,
              hv.check_key AS checkKey, json_extract(k.value, '$.criterionId') AS criterionId, json_extract(k.value, '$.label') AS label,
              json_extract(k.value, '$.verdict') AS judgeVerdict, coalesce(json_extract(k.value, '$.message'), '') AS judgeReason,
              CASE WHEN b.judge IS NULL THEN NULL ELSE json_extract(b.judge, '$.provider') || ':' || json_extract(b.judge, '$.modelId') END AS judgeModel,
              hv.verdict AS human, hv.note, hv.reviewer, hv.created_at AS reviewedAt, r.input, r.expected, t.output
       FROM human_verdicts hv JOIN trials t ON t.id = hv.trial_id JOIN benches b ON b.id = t.bench_id
       JOIN bench_cases bc ON bc.id = t.bench_case_id JOIN bench_candidates c ON c.id = t.candidate_id JOIN case_revisions r ON r.id = bc.case_revision_id,
       json_each(t.checks) k
       WHERE b.prompt_id = ? AND json_extract(k.value, '$.key') = hv.check_key AND json_extract(k.value, '$.kind') = 'judge'
         ${criterionId !== undefined ? "AND json_extract(k.value, '$.criterionId') = ?" : ""}
       ORDER BY hv.created_at, hv.id`,
    )
    .all(...(criterionId !== undefined ? [promptId, criterionId] : [promptId])) as ReviewedCheckRow[];
}

/** A prompt's calibration policy (the defaults when it set none). */
export function getCalibrationPolicy(db: Db | Tx, promptId: number): CalibrationPolicy {
  const r = db.select().from(promptCalibrationSettings).where(eq(promptCalibrationSettings.promptId, promptId)).get();
  return r ? { kappaThreshold: r.kappaThreshold, minReviewed: r.minReviewed } : { ...DEFAULT_CALIBRATION_POLICY };
}

/** Sets a prompt's calibration policy (validated by the caller). */
export function setCalibrationPolicy(db: Db, promptId: number, p: CalibrationPolicy, now: number): void {
  db.insert(promptCalibrationSettings)
    .values({ promptId, kappaThreshold: p.kappaThreshold, minReviewed: p.minReviewed, updatedAt: now })
    .onConflictDoUpdate({ target: promptCalibrationSettings.promptId, set: { kappaThreshold: p.kappaThreshold, minReviewed: p.minReviewed, updatedAt: now } })
    .run();
}

/** Stores a bench's recomputed results (after a human verdict changed a trial's score). */
export function updateBenchResults(db: Db, benchId: number, summary: unknown, recommendation: unknown): void {
  db.$client.prepare("UPDATE benches SET summary = ?, recommendation = ? WHERE id = ?").run(JSON.stringify(summary), JSON.stringify(recommendation), benchId);
}
