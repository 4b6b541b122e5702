/**
 * Repeats that tell a flaky check from a regression (issue #16 §2). With K trials per case, a
 * check's outcome for a candidate is k of K passes. Against the baseline (or the last bench):
 * - `flaky on baseline`: the baseline's own trials of the check disagree (some pass, some fail),
 *   so a failure of the candidate is no evidence of a regression;
 * - `confirmed`: the check passed on every baseline trial and the candidate's failures are
 *   unlikely by chance — one-sided Fisher exact test p ≤ 0.05 (3/3 → 0/3 gives exactly 0.05);
 * - `suspected`: it passed on every baseline trial and failed on some candidate trial, but chance
 *   can explain it (with one trial each, 1/1 → 0/1 has p = 0.5): it still blocks until a rerun;
 * - `cleared`: it was suspected, the candidate was rerun on it (trials added to the same bench),
 *   and none of the rerun trials failed: the failure did not reproduce;
 * - `none`: nothing to report (the candidate did not fail it, or nothing was scored on a side).
 */
import { fisherOneSidedFewerPasses } from "./distributions";

/** Scored trials of one check for one side: passes of trials (unscored and error trials left out). */
export interface CheckTally {
  passed: number;
  scored: number;
}

export type RegressionStatus = "confirmed" | "suspected" | "cleared" | "flaky on baseline" | "none";

/** Why a regression has its status without the repeat rule: a recorded replay scored by code (see deterministic.ts). */
export type RegressionReason = "deterministic replay";

/** A check's classification with the evidence behind it. */
export interface RegressionClassification {
  status: RegressionStatus;
  /** One-sided Fisher exact p that the candidate fails more often than the reference; null when not computed. */
  pValue: number | null;
  /** Set when the status does not come from the repeat rule (see deterministic.ts). */
  reason?: RegressionReason;
}

/** The significance level below or at which a regression is confirmed. */
export const CONFIRM_ALPHA = 0.05;

/**
 * Classifies one check of one case for a candidate against its reference.
 * @param reference the baseline's (or last bench's) trials of the check
 * @param candidate the candidate's trials of the check, reruns included
 * @param rerun the candidate's trials added by a confirming rerun (a subset of `candidate`), when one ran
 * @throws RangeError when a tally is not whole numbers with 0 ≤ passed ≤ scored
 */
export function classifyCheck(reference: CheckTally, candidate: CheckTally, rerun?: CheckTally): RegressionClassification {
  for (const [name, t] of [
    ["reference", reference],
    ["candidate", candidate],
    ["rerun", rerun],
  ] as const) {
    if (t && (!Number.isInteger(t.passed) || !Number.isInteger(t.scored) || t.passed < 0 || t.passed > t.scored))
      throw new RangeError(`classifyCheck: ${name} needs whole 0 ≤ passed ≤ scored (got ${t.passed} of ${t.scored})`);
  }
  if (rerun && rerun.scored > candidate.scored)
    throw new RangeError(`classifyCheck: the rerun (${rerun.scored} trials) is part of the candidate's trials (${candidate.scored})`);
  if (reference.scored === 0 || candidate.scored === 0 || candidate.passed === candidate.scored) return { status: "none", pValue: null };
  if (reference.passed < reference.scored) return { status: reference.passed > 0 ? "flaky on baseline" : "none", pValue: null };
  const pValue = fisherOneSidedFewerPasses(reference.passed, reference.scored, candidate.passed, candidate.scored);
  if (pValue <= CONFIRM_ALPHA + 1e-12) return { status: "confirmed", pValue };
  if (rerun && rerun.scored > 0 && rerun.passed === rerun.scored) return { status: "cleared", pValue };
  return { status: "suspected", pValue };
}
