/**
 * A candidate's case-level pass rates with their evidence: over its cases, the 95 % interval of
 * the share of passing trials (Wilson's; with repeats Wilson's on the effective number of cases) (a trial passes when every scored check passes), and
 * with repeats pass@k and pass^k for k = 1 … the fewest trials a scored case has (at most 10).
 */
import { passAtK, passHatK } from "./pass-at-k";
import type { CaseTally } from "./paired";
import { tQuantile, Z_975 } from "./distributions";
import { wilsonInterval, type RateInterval } from "./wilson";

/** Case-level rates of one candidate. */
export interface CandidateRates {
  /** Cases with at least one scored trial. */
  cases: number;
  /**
   * Passing trials of scored trials with a 95 % interval over cases: Wilson's without repeats; with
   * repeats Wilson's on the effective number of cases from the cluster-robust variance (a case's
   * trials are not independent, so repeats do not narrow it the way more cases would).
   */
  trialPassRate: RateInterval;
  /** pass@k per k (as a string key "1", "2", …); present only with repeats (some case scored > 1 trial). */
  passAt: Record<string, number> | null;
  /** pass^k per k; present only with repeats. */
  passHat: Record<string, number> | null;
  /**
   * pass@K and pass^K at the bench's repeats K when some scored case has fewer than K scored trials
   * (a trial errored, so `passAt` stops below K): over the `cases` with at least K scored trials
   * (the unbiased estimators need K), the `leftOut` others counted apart, `fewestTrials` the fewest
   * scored trials a case has. Absent when every case has K (pass@K is in `passAt`), without
   * repeats, or in evidence stored before.
   */
  atRepeats?: { k: number; passAt: number | null; passHat: number | null; cases: number; leftOut: number; fewestTrials: number };
}

/**
 * The rates of one candidate from its case tallies.
 * @param cases per case key, passing trials of scored trials
 * @param repeats the bench's trials per case (K): pass@K is given even when a case has fewer scored trials (`atRepeats`)
 */
export function candidateRates(cases: Iterable<CaseTally>, repeats = 1): CandidateRates {
  const scored = [...cases].filter((c) => c.scored > 0);
  const passed = scored.reduce((s, c) => s + c.passed, 0);
  const trials = scored.reduce((s, c) => s + c.scored, 0);
  // A loop, not Math.min(...list): a 100,000-case bench would overflow the call's arguments.
  let kMax = scored.length ? 10 : 0;
  for (const c of scored) kMax = Math.min(kMax, c.scored);
  const repeated = scored.some((c) => c.scored > 1);
  const at: Record<string, number> = {};
  const hat: Record<string, number> = {};
  const asTrials = scored.map((c) => ({ passed: c.passed, trials: c.scored }));
  for (let k = 1; repeated && k <= kMax; k++) {
    at[k] = passAtK(asTrials, k).value!;
    hat[k] = passHatK(asTrials, k).value!;
  }
  const trialPassRate = repeated ? clusteredInterval(scored, passed, trials) : wilsonInterval(passed, trials);
  const rates: CandidateRates = { cases: scored.length, trialPassRate, passAt: repeated ? at : null, passHat: repeated ? hat : null };
  const k = Math.min(repeats, 10);
  if (k > 1 && scored.length && kMax < k) {
    const over = passAtK(asTrials, k);
    rates.atRepeats = {
      k,
      passAt: over.value,
      passHat: passHatK(asTrials, k).value,
      cases: over.cases,
      leftOut: scored.length - over.cases,
      fewestTrials: kMax,
    };
  }
  return rates;
}

/**
 * The pass rate's 95 % interval over cases when cases have repeats: Wilson's score interval on the
 * effective number of cases (Korn & Graubard 1998, "Confidence intervals for proportions with small
 * expected number of positive counts estimated from survey data", Survey Methodology 24(2):193–201,
 * with Wilson's interval in place of Clopper–Pearson's):
 * p̂ = Σyᵢ/Σmᵢ; the ratio estimator's cluster-robust variance (Cochran, *Sampling Techniques*, §6.4)
 * SE² = n/(n−1) · Σ(yᵢ − p̂·mᵢ)² / (Σmᵢ)²; effective size n* = p̂(1−p̂)/SE² (at most Σmᵢ), scaled by
 * (z/t(0.975, n−1))² for the n − 1 degrees of freedom; Wilson(p̂, n*).
 * When p̂ is 0 or 1 (or every case has the same rate) the spread says nothing about how alike a
 * case's repeats are, so n* = n: each case counts once, never fewer (a Wald interval there has zero
 * width: "0 % (95 % CI 0.0–0.0)" from 600 failing trials claimed a certainty 200 cases cannot give).
 * Null with fewer than two cases (no spread to measure).
 */
function clusteredInterval(cases: readonly CaseTally[], passed: number, trials: number): RateInterval {
  const n = cases.length;
  const p = passed / trials;
  if (n < 2) return { passed, scored: trials, rate: p, ci95: null };
  let ss = 0;
  for (const c of cases) ss += (c.passed - p * c.scored) ** 2;
  const se2 = ((n / (n - 1)) * ss) / (trials * trials);
  const df = Z_975 / tQuantile(0.975, n - 1);
  const size = p > 0 && p < 1 && se2 > 0 ? Math.min(trials, (p * (1 - p)) / se2) * df * df : n;
  return { passed, scored: trials, rate: p, ci95: wilsonBounds(p, size) };
}

/** Wilson's score interval (z = 1.96) of a rate `p` over a size `n` > 0 that need not be whole. */
function wilsonBounds(p: number, n: number): [number, number] {
  const z2 = Z_975 * Z_975;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (Z_975 / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
