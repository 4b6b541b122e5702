/**
 * The few distribution functions the paired statistics need, from stdlib-js (accurate ports of
 * Cephes/Boost with tests against R and Julia): Student's t quantile and CDF, the binomial CDF and
 * the hypergeometric CDF. Typed wrappers so the rest of `lib/bench/stats` reads in the field's words.
 */
import binomialCdf from "@stdlib/stats-base-dists-binomial-cdf";
import hypergeometricCdf from "@stdlib/stats-base-dists-hypergeometric-cdf";
import tCdf from "@stdlib/stats-base-dists-t-cdf";
import tQuantileFn from "@stdlib/stats-base-dists-t-quantile";

/** Standard normal quantiles used throughout: z(0.975) for 95 % two-sided, z(0.80) for 80 % power. */
export const Z_975 = 1.959963984540054;
export const Z_80 = 0.8416212335729143;

/**
 * The p-quantile of Student's t with `df` degrees of freedom.
 * @param p probability in (0, 1)
 * @param df degrees of freedom, > 0
 * @returns NaN when `p` or `df` is out of range
 */
export function tQuantile(p: number, df: number): number {
  return tQuantileFn(p, df);
}

/**
 * Two-sided p-value of a t statistic: P(|T| ≥ |t|) with `df` degrees of freedom.
 * @returns a probability in [0, 1]; 0 for an infinite statistic
 */
export function tTwoSidedP(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  return Math.min(1, 2 * tCdf(-Math.abs(t), df));
}

/**
 * Two-sided exact binomial test at success probability ½ (the test under exact McNemar and the
 * sign test): P of a split at least as uneven as `k` of `n`, i.e. 2·P(X ≤ min(k, n − k)), capped at 1.
 * @param k successes (0 ≤ k ≤ n, whole)
 * @param n trials (whole, ≥ 0); n = 0 gives 1
 */
export function binomialHalfTwoSided(k: number, n: number): number {
  if (n === 0) return 1;
  return Math.min(1, 2 * binomialCdf(Math.min(k, n - k), n, 0.5));
}

/**
 * One-sided Fisher exact test that group B fails more often than group A (a 2×2 table of
 * pass/fail counts): P(B passes ≤ `passedB` | both margins), the hypergeometric lower tail.
 * @param passedA passes of group A out of `trialsA`
 * @param passedB passes of group B out of `trialsB`
 * @returns a probability in [0, 1]; 1 when either group has no trials
 */
export function fisherOneSidedFewerPasses(passedA: number, trialsA: number, passedB: number, trialsB: number): number {
  if (trialsA === 0 || trialsB === 0) return 1;
  return Math.min(1, hypergeometricCdf(passedB, trialsA + trialsB, passedA + passedB, trialsB));
}
