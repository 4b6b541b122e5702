/**
 * pass@k and pass^k with repeats: per case, from n trials of which c passed, the unbiased
 * estimators of "at least one of k trials passes" (Chen et al. 2021, HumanEval:
 * 1 − C(n−c, k)/C(n, k)) and "all k trials pass" (Yao et al. 2024, τ-bench: C(c, k)/C(n, k)),
 * averaged over cases.
 */

/** Trials of one case: `passed` of `trials` (scored trials only). */
export interface CaseTrials {
  passed: number;
  trials: number;
}

/** C(a, k)/C(n, k) for 0 ≤ k ≤ n, as a product (no factorial overflow); 0 when a < k. */
function chooseRatio(a: number, n: number, k: number): number {
  if (a < k) return 0;
  let r = 1;
  for (let i = 0; i < k; i++) r *= (a - i) / (n - i);
  return r;
}

/**
 * Mean pass@k over the cases that have at least `k` trials (others are left out: the estimator
 * needs n ≥ k).
 * @param k whole number ≥ 1
 * @returns the mean in [0, 1] and the number of cases it is over; `value` null when none qualifies
 * @throws RangeError when k is not a whole number ≥ 1
 */
export function passAtK(cases: Iterable<CaseTrials>, k: number): { value: number | null; cases: number } {
  return meanOver(cases, k, (c) => 1 - chooseRatio(c.trials - c.passed, c.trials, k));
}

/**
 * Mean pass^k (every one of k trials passes) over the cases with at least `k` trials.
 * @see passAtK for the arguments and result
 */
export function passHatK(cases: Iterable<CaseTrials>, k: number): { value: number | null; cases: number } {
  return meanOver(cases, k, (c) => chooseRatio(c.passed, c.trials, k));
}

function meanOver(cases: Iterable<CaseTrials>, k: number, f: (c: CaseTrials) => number): { value: number | null; cases: number } {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a whole number ≥ 1 (got ${k})`);
  let sum = 0;
  let n = 0;
  for (const c of cases) {
    if (c.trials < k) continue;
    sum += f(c);
    n++;
  }
  return { value: n ? sum / n : null, cases: n };
}
