/**
 * A candidate's case-level pass rates with their evidence: over its cases, the Wilson 95 %
 * interval of the share of passing trials (a trial passes when every scored check passes), and
 * with repeats pass@k and pass^k for k = 1 … the fewest trials a scored case has (at most 10).
 */
import { passAtK, passHatK } from "./pass-at-k";
import type { CaseTally } from "./paired";
import { wilsonInterval, type RateInterval } from "./wilson";

/** Case-level rates of one candidate. */
export interface CandidateRates {
  /** Cases with at least one scored trial. */
  cases: number;
  /** Passing trials of scored trials, with the Wilson interval (trials, not cases: with repeats the interval is narrower than the cases justify; see passAt). */
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
  return { cases: scored.length, trialPassRate: wilsonInterval(passed, trials), passAt: repeated ? at : null, passHat: repeated ? hat : null };
}
