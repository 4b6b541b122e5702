/**
 * A candidate's case-level pass rates with their evidence: over its cases, the 95 % interval of
 * the share of passing trials (Wilson's; with repeats a cluster-robust one over cases) (a trial passes when every scored check passes), and
 * with repeats pass@k and pass^k for k = 1 … the fewest trials a scored case has (at most 10).
 */
import { passAtK, passHatK } from "./pass-at-k";
import type { CaseTally } from "./paired";
import { tQuantile } from "./distributions";
import { wilsonInterval, type RateInterval } from "./wilson";

/** Case-level rates of one candidate. */
export interface CandidateRates {
  /** Cases with at least one scored trial. */
  cases: number;
  /**
   * Passing trials of scored trials with a 95 % interval over cases: Wilson's without repeats; with
   * repeats the cluster-robust interval of the ratio (a case's trials are not independent, so
   * repeats do not narrow it the way more cases would).
   */
  trialPassRate: RateInterval;
  /** pass@k per k (as a string key "1", "2", …); present only with repeats (some case scored > 1 trial). */
  passAt: Record<string, number> | null;
  /** pass^k per k; present only with repeats. */
  passHat: Record<string, number> | null;
}

/**
 * The rates of one candidate from its case tallies.
 * @param cases per case key, passing trials of scored trials
 */
export function candidateRates(cases: Iterable<CaseTally>): CandidateRates {
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
  return { cases: scored.length, trialPassRate, passAt: repeated ? at : null, passHat: repeated ? hat : null };
}

/**
 * The ratio estimator's cluster-robust 95 % interval over cases (Cochran, *Sampling Techniques*, §6.4):
 * p̂ = Σyᵢ/Σmᵢ, SE² = n/(n−1) · Σ(yᵢ − p̂·mᵢ)² / (Σmᵢ)², p̂ ± t(0.975, n−1)·SE clipped to [0, 1].
 * Null with fewer than two cases (no spread to measure).
 */
function clusteredInterval(cases: readonly CaseTally[], passed: number, trials: number): RateInterval {
  const n = cases.length;
  const p = passed / trials;
  if (n < 2) return { passed, scored: trials, rate: p, ci95: null };
  let ss = 0;
  for (const c of cases) ss += (c.passed - p * c.scored) ** 2;
  const se = Math.sqrt((n / (n - 1)) * ss) / trials;
  const half = tQuantile(0.975, n - 1) * se;
  return { passed, scored: trials, rate: p, ci95: [Math.max(0, p - half), Math.min(1, p + half)] };
}
