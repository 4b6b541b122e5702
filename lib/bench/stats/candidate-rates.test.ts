/**
 * A candidate's pass-rate interval. Without repeats it is Wilson's over cases; with repeats a case's
 * trials are not independent, so it is Wilson's on the effective number of cases (Korn & Graubard 1998)
 * from the ratio estimator's cluster-robust variance (Cochran, *Sampling Techniques*, 3rd ed., §6.4:
 * SE² = n/(n−1) · Σ(yᵢ − p̂·mᵢ)² / (Σmᵢ)²), n* = p̂(1−p̂)/SE² · (z/t(0.975, n−1))²; n* = n when p̂ is 0 or 1.
 * Reference values: Python 3 with scipy 1.17 (stats.norm.ppf, stats.t.ppf) and Wilson's formula by hand.
 */
import { describe, expect, it } from "vitest";
import { candidateRates } from "./candidate-rates";

describe("candidateRates: the pass-rate interval", () => {
  it("is Wilson's over cases without repeats", () => {
    // 45 of 200 (the demo's 6b-finetuning): Wilson 95 % = [0.172624, 0.287741] (Wilson's formula by hand in
    // Python with z = 1.959964; the same as R's prop.test(45, 200, correct = FALSE)$conf.int).
    const r = candidateRates(Array.from({ length: 200 }, (_, i) => ({ passed: i < 45 ? 1 : 0, scored: 1 })));
    expect(r.trialPassRate.rate).toBe(0.225);
    expect(r.trialPassRate.ci95![0]).toBeCloseTo(0.172624, 5);
    expect(r.trialPassRate.ci95![1]).toBeCloseTo(0.287741, 5);
  });

  it("with repeats counts cases, not trials: 10 identical repeats do not narrow it", () => {
    // 10 cases × 2 trials, passes per case 2,2,2,2,2,1,1,0,0,0 → p̂ = 12/20 = 0.6;
    // residuals yᵢ − 1.2: 0.8 (×5), −0.2 (×2), −1.2 (×3); Σ r² = 3.2 + 0.08 + 4.32 = 7.6;
    // SE² = 10/9 · 7.6 / 20² = 0.0211111; n* = 0.24 / 0.0211111 = 11.3684, × (1.959964/2.262157)² = 8.533964;
    // Wilson(0.6, 8.533964) = [0.2942555, 0.8436625] (scipy, see the header).
    const passes = [2, 2, 2, 2, 2, 1, 1, 0, 0, 0];
    const r = candidateRates(passes.map((passed) => ({ passed, scored: 2 })));
    expect(r.trialPassRate).toMatchObject({ passed: 12, scored: 20, rate: 0.6 });
    expect(r.trialPassRate.ci95![0]).toBeCloseTo(0.2942555, 5);
    expect(r.trialPassRate.ci95![1]).toBeCloseTo(0.8436625, 5);
    // The same cases repeated 10 times each (identical answers): the interval stays about as wide
    // (it was ±0.05 when trials counted as independent).
    const tenfold = candidateRates(passes.map((p) => ({ passed: p * 5, scored: 10 })));
    const w = tenfold.trialPassRate.ci95![1] - tenfold.trialPassRate.ci95![0];
    expect(w).toBeCloseTo(0.8436625 - 0.2942555, 5);
  });

  it("never claims more certainty than its cases give when every trial fails or passes (not a zero-width interval)", () => {
    // Found by a new team on a live bench: 600 failing trials over 200 cases showed "0.0 % (95 % CI 0.0–0.0)".
    // p̂ = 0 → n* = 200 cases: Wilson(0, 200) = [0, 0.0188453] (scipy, see the header) — as without repeats.
    const none = candidateRates(Array.from({ length: 200 }, () => ({ passed: 0, scored: 3 })));
    expect(none.trialPassRate.ci95![0]).toBe(0);
    expect(none.trialPassRate.ci95![1]).toBeCloseTo(0.0188453, 6);
    expect(none.trialPassRate.ci95).toEqual(candidateRates(Array.from({ length: 200 }, () => ({ passed: 0, scored: 1 }))).trialPassRate.ci95);
    // 15 of 15 over 5 cases: Wilson(1, 5) = [0.5655175, 1].
    const all = candidateRates(Array.from({ length: 5 }, () => ({ passed: 3, scored: 3 })));
    expect(all.trialPassRate.ci95![0]).toBeCloseTo(0.5655175, 6);
    expect(all.trialPassRate.ci95![1]).toBe(1);
    // One pass of 600 over 200 cases: n* = 591.736 → Wilson = [0.0002914, 0.0094704].
    const one = candidateRates(Array.from({ length: 200 }, (_, i) => ({ passed: i === 0 ? 1 : 0, scored: 3 })));
    expect(one.trialPassRate.ci95![0]).toBeCloseTo(0.0002914, 6);
    expect(one.trialPassRate.ci95![1]).toBeCloseTo(0.0094704, 6);
    expect(candidateRates([{ passed: 2, scored: 3 }]).trialPassRate.ci95).toBeNull(); // one case: no spread to measure
  });

  it("gives pass@K and pass^K at the bench's repeats when a case has fewer scored trials (an errored trial), over the cases that have K, and counts the rest", () => {
    // K = 3: cases 2/3 and 3/3 qualify; 0/2 (one trial errored) is left out of pass@3 (its estimator needs 3 trials).
    // pass@3 = mean(1 − C(1,3)/C(3,3), 1 − C(0,3)/C(3,3)) = mean(1, 1) = 1; pass^3 = mean(C(2,3)/C(3,3), C(3,3)/C(3,3)) = mean(0, 1) = 0.5.
    const r = candidateRates(
      [
        { passed: 2, scored: 3 },
        { passed: 3, scored: 3 },
        { passed: 0, scored: 2 },
      ],
      3,
    );
    expect(Object.keys(r.passAt!)).toEqual(["1", "2"]); // per k up to the fewest trials, as stored before
    expect(r.atRepeats).toEqual({ k: 3, passAt: 1, passHat: 0.5, cases: 2, leftOut: 1, fewestTrials: 2 });
    // Every case has its K trials: nothing to say apart (pass@3 is in passAt).
    expect(
      candidateRates(
        [
          { passed: 2, scored: 3 },
          { passed: 3, scored: 3 },
        ],
        3,
      ).atRepeats,
    ).toBeUndefined();
  });
});
