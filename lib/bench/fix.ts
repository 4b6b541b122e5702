/**
 * What a **fix** is, the one definition behind every count of fixes (the recommendation's `fixes`,
 * the flip table's `fixed`, the comparisons' `fixes`, the candidate line's "N fixes"; issue #16):
 * the reference failed on every one of its scored trials and the candidate passed on every one of
 * its own. A reference whose trials disagree is flaky there, and a candidate that still fails a
 * trial did not fix it: neither is a fix. For a check the trials are that check's scored repeats;
 * for a case (the paired statistics, the flip table) a trial passes when all its scored checks pass.
 *
 * A **regression** is stricter on the reference and looser on the candidate, as the check-level rule
 * (`findRegressions` in recommend.ts) has it: the reference passed on every scored trial and the
 * candidate failed at least one. A drop from a flaky reference (2/3 → 1/3) is no regression.
 */

/** Passing of scored trials (or repeats of one check) of one side. */
export interface PassTally {
  passed: number;
  scored: number;
}

/** Whether `candidate` fixes what `reference` failed (see the file's comment); false when a side scored nothing. */
export function isFix(reference: PassTally, candidate: PassTally): boolean {
  return reference.scored > 0 && reference.passed === 0 && candidate.scored > 0 && candidate.passed === candidate.scored;
}

/** Whether `candidate` regressed where `reference` passed (see the file's comment); false when a side scored nothing. */
export function isRegression(reference: PassTally, candidate: PassTally): boolean {
  return reference.scored > 0 && reference.passed === reference.scored && candidate.scored > 0 && candidate.passed < candidate.scored;
}
