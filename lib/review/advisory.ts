/**
 * The advisory rule (issue 18): a judged criterion gates a recommendation only once its judge is
 * calibrated against human verdicts — at least `minReviewed` reviewed trials and Cohen's κ at or
 * above `kappaThreshold` (defaults 20 and 0.6, set per prompt). Until then it is advisory: its
 * verdicts are shown, but a regression on it does not block. A bench pins each criterion's state at
 * launch (`RubricCriterion.calibration`), so History shows what gated.
 */
import type { Calibration } from "./calibration";

/** When a prompt's judged criteria count as calibrated. */
export interface CalibrationPolicy {
  /** Least κ (inclusive), in [−1, 1]. */
  kappaThreshold: number;
  /** Fewest reviewed trials (whole number ≥ 1). */
  minReviewed: number;
}

/** The defaults when a prompt sets none. */
export const DEFAULT_CALIBRATION_POLICY: CalibrationPolicy = { kappaThreshold: 0.6, minReviewed: 20 };

/** A criterion's calibration state as a bench pins it at launch. */
export interface CriterionCalibrationState {
  state: "calibrated" | "advisory";
  /** Why, in words the page shows ("12 of 20 reviewed trials", "κ 0.41 is below 0.6", "κ 0.82 over 25 reviewed trials"). */
  reason: string;
  reviewed: number;
  kappa: number | null;
  kappaThreshold: number;
  minReviewed: number;
  /** The judge model measured (`provider:modelId`), or null when the bench has no judge. */
  judge: string | null;
}

/**
 * The state of one criterion's judge under `policy`.
 * @param cal the criterion's calibration for the judge model the bench uses (null: never reviewed)
 * @param judge that judge model (`provider:modelId`), null when the bench has no judge
 */
export function calibrationState(
  cal: Pick<Calibration, "reviewed" | "kappa"> | null,
  policy: CalibrationPolicy,
  judge: string | null,
): CriterionCalibrationState {
  const reviewed = cal?.reviewed ?? 0;
  const kappa = cal?.kappa?.value ?? null;
  const base = { reviewed, kappa, kappaThreshold: policy.kappaThreshold, minReviewed: policy.minReviewed, judge };
  if (judge === null) return { ...base, state: "advisory", reason: "no judge model: the criterion is not scored" };
  if (reviewed < policy.minReviewed)
    return { ...base, state: "advisory", reason: `judge not calibrated: ${reviewed} of ${policy.minReviewed} reviewed trials needed` };
  if (kappa === null)
    return { ...base, state: "advisory", reason: `judge not calibrated: κ is undefined over ${reviewed} reviewed trials (every verdict the same)` };
  if (kappa < policy.kappaThreshold)
    return {
      ...base,
      state: "advisory",
      reason: `judge not calibrated: κ ${kappa.toFixed(2)} is below ${policy.kappaThreshold} over ${reviewed} reviewed trials`,
    };
  return { ...base, state: "calibrated", reason: `judge calibrated: κ ${kappa.toFixed(2)} over ${reviewed} reviewed trials` };
}

/** The check key of a criterion in a trial (see `checkSlots`). */
export const criterionCheckKey = (criterionId: number) => `c${criterionId}`;

/**
 * The check keys whose regressions do not block: the criteria the bench pinned as advisory.
 * Criteria pinned before calibration existed (no `calibration`) gate as they always did.
 */
export function advisoryCheckKeys(rubric: readonly { criterionId: number; calibration?: Pick<CriterionCalibrationState, "state"> }[]): Set<string> {
  return new Set(rubric.filter((c) => c.calibration?.state === "advisory").map((c) => criterionCheckKey(c.criterionId)));
}

/**
 * Splits regressions into those that block and those on advisory criteria, marking the latter.
 * @returns `all`: every regression in order, advisory ones with `advisory: true`; `blocking`: the rest
 */
export function markAdvisory<T extends { key: string }>(
  regressions: readonly T[],
  advisory: ReadonlySet<string>,
): { all: (T & { advisory?: true })[]; blocking: T[] } {
  const all = regressions.map((r) => (advisory.has(r.key) ? { ...r, advisory: true as const } : r));
  return { all, blocking: regressions.filter((r) => !advisory.has(r.key)) };
}

/**
 * What the headline adds when the recommended candidate broke checks of advisory criteria:
 * " It breaks 5 checks of advisory criteria (their judge is not calibrated), which do not block."
 * @returns "" when it broke none
 */
export function advisoryNote(regressions: readonly { advisory?: true }[]): string {
  const n = regressions.filter((r) => r.advisory).length;
  if (n === 0) return "";
  return ` It breaks ${n} check${n > 1 ? "s" : ""} of advisory criteria (their judge is not calibrated), which do${n > 1 ? "" : "es"} not block.`;
}
