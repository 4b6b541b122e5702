/**
 * Paired comparison of two candidates over the cases both scored (issue #16 §1, DESIGN.md §4
 * step 7). A case's verdict is case-level: a trial passes when every one of its scored checks
 * passes; a trial with no scored check (unscored, error, skipped) is left out. Cases that only one
 * side scored are left out of both sides and counted in `unpaired`.
 *
 * - One trial per case on both sides: b = regressions (the other passes, the candidate fails),
 *   c = fixes, Δ = (c − b)/n, SE = √((b + c) − (c − b)²/n)/n, 95 % CI = Δ ± 1.96·SE, p = two-sided
 *   exact McNemar (binomial test of min(b, c) in b + c at ½).
 * - Several trials per case on either side: dᵢ = candidate's pass rate of case i minus the other's;
 *   Δ = mean(dᵢ), SE = sd(dᵢ)/√n, t interval with n − 1 degrees of freedom, p from the paired
 *   t-test; with n < 30 also the sign test over the cases that differ (`signTestPValue`).
 *
 * - No case differs (b + c = 0; with repeats every dᵢ = 0): both intervals above have zero width, which
 *   would claim certainty from 5 cases as from 5,000. |Δ| is at most the share of cases whose sides
 *   differ, and 0 of n differing bounds that share by the Wilson score interval's upper end
 *   z²/(n + z²) (Wilson 1927), so the interval is ±z²/(n + z²) — the same choice as the pass rate's
 *   interval at 0 % or 100 % (candidate-rates.ts).
 *
 * Verdict: `better` / `worse` only when the 95 % CI excludes 0 AND every reported test has
 * p < 0.05 — the Wald interval alone can exclude 0 where the exact test cannot (b = 0, c = 5:
 * CI above 0, p = 0.0625), and a verdict must not say more than its test. Otherwise `inconclusive`.
 * All differences are fractions in [−1, 1] (× 100 for points).
 */
import { binomialHalfTwoSided, tQuantile, tTwoSidedP, Z_975 } from "./distributions";
import { mcnemarMinDetectableEffect, pairedTMinDetectableEffect } from "./power";
import { isFix, isRegression } from "../fix";

/** One case of one candidate: trials that passed (every scored check passed) of trials with a scored check. */
export interface CaseTally {
  passed: number;
  scored: number;
}

/** The test behind `pValue`. */
export type PairedTest = "exact McNemar" | "paired t";

/** What the comparison concludes. */
export type ComparisonVerdict = "better" | "worse" | "inconclusive";

/** A paired comparison of a candidate against another (the baseline, or the last bench's candidate). */
export interface PairedComparison {
  /** Cases both sides scored. */
  n: number;
  /** Cases the candidate regressed: the other side passed every scored trial and the candidate failed at least one (lib/bench/fix.ts `isRegression`). */
  regressions: number;
  /**
   * Cases the candidate fixed: the other side failed every scored trial and the candidate passed every
   * one (lib/bench/fix.ts; with one trial a side, c). With repeats a case can do better without being a fix.
   */
  fixes: number;
  /** Mean pass-rate difference, candidate minus the other, a fraction; null when n = 0. */
  delta: number | null;
  /** 95 % interval of `delta`, clamped to [−1, 1]; null when n = 0 (and with repeats when n < 2). */
  ci95: [number, number] | null;
  /** Two-sided p of `test`; null when n = 0. */
  pValue: number | null;
  test: PairedTest;
  /** With repeats and n < 30: the two-sided sign test's p over the cases that differ; else null. */
  signTestPValue: number | null;
  verdict: ComparisonVerdict;
  /** Smallest true difference (fraction) this bench detects with 80 % power at α 0.05 (see power.ts); null when n is too small. */
  minDetectableEffect: number | null;
  /** Cases left out: scored by the candidate only, by the other only. */
  unpaired: { candidate: number; against: number };
}

const ALPHA = 0.05;
const clamp = (x: number) => Math.max(-1, Math.min(1, x));

/** The interval when no case of `n` differs: ± the Wilson upper bound of 0 of n (see the file's comment). */
function noDifferenceInterval(n: number): [number, number] {
  const bound = (Z_975 * Z_975) / (n + Z_975 * Z_975);
  return [-bound, bound];
}

function verdictOf(ci: [number, number] | null, ps: (number | null)[]): ComparisonVerdict {
  if (!ci || ps.some((p) => p === null || p >= ALPHA)) return "inconclusive";
  if (ci[0] > 0) return "better";
  if (ci[1] < 0) return "worse";
  return "inconclusive";
}

/**
 * Compares `candidate` with `against` over the case keys both scored (keys: case revision ids, or
 * any other id of the same question on both sides).
 * @param candidate per case key, the candidate's tally
 * @param against per case key, the other side's tally (the baseline, or the last bench's reference)
 * @throws RangeError when a tally is not whole numbers with 0 ≤ passed ≤ scored (naming the case)
 */
export function compareCandidates<K extends string | number>(candidate: ReadonlyMap<K, CaseTally>, against: ReadonlyMap<K, CaseTally>): PairedComparison {
  const pairs: [CaseTally, CaseTally][] = [];
  let onlyCandidate = 0;
  let onlyAgainst = 0;
  let repeated = false;
  for (const [key, c] of candidate) {
    check(key, c, "candidate");
    const a = against.get(key);
    if (a) check(key, a, "against");
    if (c.scored === 0 && (!a || a.scored === 0)) continue;
    if (c.scored === 0) onlyAgainst++;
    else if (!a || a.scored === 0) onlyCandidate++;
    else {
      pairs.push([c, a]);
      if (c.scored > 1 || a.scored > 1) repeated = true;
    }
  }
  for (const [key, a] of against) {
    check(key, a, "against");
    if (a.scored > 0 && !candidate.has(key)) onlyAgainst++;
  }
  const unpaired = { candidate: onlyCandidate, against: onlyAgainst };
  return repeated ? pairedT(pairs, unpaired) : mcnemar(pairs, unpaired);
}

function check(key: string | number, t: CaseTally, side: string): void {
  if (!Number.isInteger(t.passed) || !Number.isInteger(t.scored) || t.passed < 0 || t.passed > t.scored)
    throw new RangeError(`case ${key} (${side}): need whole 0 ≤ passed ≤ scored (got ${t.passed} of ${t.scored})`);
}

function mcnemar(pairs: [CaseTally, CaseTally][], unpaired: PairedComparison["unpaired"]): PairedComparison {
  const n = pairs.length;
  let b = 0;
  let c = 0;
  for (const [cand, ref] of pairs) {
    if (isRegression(ref, cand)) b++;
    // One trial a side: a fix (lib/bench/fix.ts) is exactly "the reference failed, the candidate passed".
    else if (isFix(ref, cand)) c++;
  }
  if (n === 0)
    return {
      n,
      regressions: 0,
      fixes: 0,
      delta: null,
      ci95: null,
      pValue: null,
      test: "exact McNemar",
      signTestPValue: null,
      verdict: "inconclusive",
      minDetectableEffect: null,
      unpaired,
    };
  const delta = (c - b) / n;
  const se = Math.sqrt(Math.max(0, b + c - ((c - b) * (c - b)) / n)) / n;
  const ci95: [number, number] = b + c === 0 ? noDifferenceInterval(n) : [clamp(delta - Z_975 * se), clamp(delta + Z_975 * se)];
  const pValue = binomialHalfTwoSided(Math.min(b, c), b + c);
  return {
    n,
    regressions: b,
    fixes: c,
    delta,
    ci95,
    pValue,
    test: "exact McNemar",
    signTestPValue: null,
    verdict: verdictOf(ci95, [pValue]),
    minDetectableEffect: mcnemarMinDetectableEffect(n, b + c),
    unpaired,
  };
}

function pairedT(pairs: [CaseTally, CaseTally][], unpaired: PairedComparison["unpaired"]): PairedComparison {
  const n = pairs.length;
  const d = pairs.map(([c, a]) => c.passed / c.scored - a.passed / a.scored);
  // A rate difference of exactly 0 can come out as ±1e-17 (1/3 − 1/3 is exact, 2/3 − 4/6 is not).
  const EPS = 1e-12;
  // The sign test and the interval's no-difference case count every case that moved; `fixes` and
  // `regressions` report only the cases that are fixes and regressions (lib/bench/fix.ts): a reference
  // flaky on a case is neither, and a candidate still failing a trial did not fix it (issue #16).
  const up = d.filter((x) => x > EPS).length;
  const down = d.filter((x) => x < -EPS).length;
  const fixes = pairs.filter(([c, a]) => isFix(a, c)).length;
  const regressions = pairs.filter(([c, a]) => isRegression(a, c)).length;
  // A loop, not Math.max(...list): a 100,000-case bench would overflow the call's arguments.
  let trialsPerCase = 1;
  for (const [c, a] of pairs) trialsPerCase = Math.max(trialsPerCase, c.scored, a.scored);
  const signTestPValue = n < 30 ? binomialHalfTwoSided(Math.min(up, down), up + down) : null;
  const delta = d.reduce((s, x) => s + x, 0) / n;
  if (n < 2)
    return {
      n,
      regressions,
      fixes,
      delta,
      ci95: null,
      pValue: 1,
      test: "paired t",
      signTestPValue,
      verdict: "inconclusive",
      minDetectableEffect: null,
      unpaired,
    };
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - delta) * (x - delta), 0) / (n - 1));
  const se = sd / Math.sqrt(n);
  const half = tQuantile(0.975, n - 1) * se;
  const ci95: [number, number] = up + down === 0 ? noDifferenceInterval(n) : [clamp(delta - half), clamp(delta + half)];
  // No spread: every case moved by the same amount (p 0 unless that amount is 0).
  const pValue = se < EPS ? (Math.abs(delta) < EPS ? 1 : 0) : tTwoSidedP(delta / se, n - 1);
  return {
    n,
    regressions,
    fixes,
    delta,
    ci95,
    pValue,
    test: "paired t",
    signTestPValue,
    verdict: verdictOf(ci95, signTestPValue === null ? [pValue] : [pValue, signTestPValue]),
    minDetectableEffect: pairedTMinDetectableEffect(n, sd, trialsPerCase),
    unpaired,
  };
}
