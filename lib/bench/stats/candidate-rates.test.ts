/**
 * A candidate's pass-rate interval. Without repeats it is Wilson's over cases; with repeats a case's
 * trials are not independent, so the interval is the ratio estimator's cluster-robust one over cases
 * (Cochran, *Sampling Techniques*, 3rd ed., §6.4 and §9A.2: SE² = n/(n−1) · Σ(yᵢ − p̂·mᵢ)² / (Σmᵢ)²) with a
 * t quantile of n − 1 degrees of freedom.
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
    // Hand computation: 10 cases × 2 trials, passes per case 2,2,2,2,2,1,1,0,0,0 → p̂ = 12/20 = 0.6;
    // residuals yᵢ − 1.2: 0.8 (×5), −0.2 (×2), −1.2 (×3); Σ r² = 3.2 + 0.08 + 4.32 = 7.6;
    // SE² = 10/9 · 7.6 / 20² = 0.0211111, SE = 0.1452966; t(0.975, 9) = 2.262157 (t table);
    // half = 0.3286866 → [0.2713134, 0.9286866].
    const passes = [2, 2, 2, 2, 2, 1, 1, 0, 0, 0];
    const r = candidateRates(passes.map((passed) => ({ passed, scored: 2 })));
    expect(r.trialPassRate).toMatchObject({ passed: 12, scored: 20, rate: 0.6 });
    expect(r.trialPassRate.ci95![0]).toBeCloseTo(0.2713134, 4);
    expect(r.trialPassRate.ci95![1]).toBeCloseTo(0.9286866, 4);
    // The same cases repeated 10 times each (identical answers): the interval stays about as wide
    // (it was ±0.05 when trials counted as independent).
    const tenfold = candidateRates(passes.map((p) => ({ passed: p * 5, scored: 10 })));
    const w = tenfold.trialPassRate.ci95![1] - tenfold.trialPassRate.ci95![0];
    expect(w).toBeCloseTo(0.9286866 - 0.2713134, 4);
  });

  it("stays inside [0, 1] and is a point when every case agrees", () => {
    const all = candidateRates(Array.from({ length: 5 }, () => ({ passed: 3, scored: 3 })));
    expect(all.trialPassRate.ci95).toEqual([1, 1]);
    const one = candidateRates([{ passed: 2, scored: 3 }]);
    expect(one.trialPassRate.ci95).toBeNull(); // one case: no spread to measure
  });
});
