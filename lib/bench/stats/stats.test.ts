/**
 * Every formula against values computed independently. "scipy" = SciPy 1.17.1
 * (`scipy.stats.binomtest`, `fisher_exact`, `ttest_rel`, `t.ppf`, `binomtest(...).proportion_ci("wilson")`,
 * and `scipy.optimize.brentq` on Connor's equation); the rest is hand computation shown beside it.
 */
import { describe, expect, it } from "vitest";
import { binomialHalfTwoSided, fisherOneSidedFewerPasses, tQuantile, tTwoSidedP } from "./distributions";
import { compareCandidates, type CaseTally } from "./paired";
import { passAtK, passHatK } from "./pass-at-k";
import { mcnemarMinDetectableEffect, pairedTMinDetectableEffect } from "./power";
import { classifyCheck } from "./regression-status";
import { wilsonInterval } from "./wilson";
import { candidateRates } from "./candidate-rates";
import { benchTallies, checkTally } from "./tallies";

/** One-trial-per-case tallies: `b` regressions, `c` fixes, `both` passing in both, `neither` failing in both. */
function oneTrial(b: number, c: number, both: number, neither: number): { cand: Map<string, CaseTally>; base: Map<string, CaseTally> } {
  const cand = new Map<string, CaseTally>();
  const base = new Map<string, CaseTally>();
  let i = 0;
  const add = (n: number, bp: number, cp: number) => {
    for (let k = 0; k < n; k++, i++) {
      base.set(`c${i}`, { passed: bp, scored: 1 });
      cand.set(`c${i}`, { passed: cp, scored: 1 });
    }
  };
  add(b, 1, 0);
  add(c, 0, 1);
  add(both, 1, 1);
  add(neither, 0, 0);
  return { cand, base };
}

describe("exact tests", () => {
  it("exact McNemar / two-sided binomial at ½", () => {
    expect(binomialHalfTwoSided(2, 12)).toBeCloseTo(0.03857421875, 12); // scipy binomtest(2, 12): 0.03857421875 (= 2·79/4096)
    expect(binomialHalfTwoSided(8, 46)).toBeCloseTo(9.24769992138863e-6, 15); // scipy binomtest(8, 46)
    expect(binomialHalfTwoSided(0, 5)).toBeCloseTo(0.0625, 12); // 2·½⁵
    expect(binomialHalfTwoSided(0, 6)).toBeCloseTo(0.03125, 12); // 2·½⁶
    expect(binomialHalfTwoSided(3, 6)).toBe(1); // an even split: capped at 1
    expect(binomialHalfTwoSided(0, 0)).toBe(1);
  });

  it("one-sided Fisher exact", () => {
    expect(fisherOneSidedFewerPasses(3, 3, 0, 3)).toBeCloseTo(0.05, 12); // C(3,3)C(3,0)/C(6,3) = 1/20; scipy fisher_exact([[3,0],[0,3]], "greater")
    expect(fisherOneSidedFewerPasses(5, 5, 2, 5)).toBeCloseTo(0.08333333333333333, 12); // scipy [[5,0],[2,3]]
    expect(fisherOneSidedFewerPasses(6, 6, 2, 6)).toBeCloseTo(0.030303030303030307, 12); // scipy [[6,0],[2,4]]
    expect(fisherOneSidedFewerPasses(1, 1, 0, 1)).toBeCloseTo(0.5, 12); // scipy [[1,0],[0,1]]
  });

  it("Student's t", () => {
    expect(tQuantile(0.975, 9)).toBeCloseTo(2.262157162798205, 9); // scipy t.ppf(0.975, 9); tables: 2.262
    expect(tQuantile(0.8, 9)).toBeCloseTo(0.8834038596855346, 9); // scipy t.ppf(0.8, 9); tables: 0.883
    expect(tTwoSidedP(3.279648999660727, 9)).toBeCloseTo(0.009534613041301045, 9); // scipy ttest_rel below
    expect(tTwoSidedP(Infinity, 3)).toBe(0);
  });
});

describe("Wilson interval", () => {
  it("matches scipy's proportion_ci(method='wilson')", () => {
    const cases: [number, number, number, number][] = [
      [45, 200, 0.1726236971508913, 0.2877412323566053],
      [110, 200, 0.48075615138475697, 0.6173593159775166],
      [0, 10, 0, 0.27753279986288926],
      [10, 10, 0.7224672001371109, 1],
      [7, 20, 0.1811918241010821, 0.5671457233147637],
    ];
    for (const [k, n, lo, hi] of cases) {
      const w = wilsonInterval(k, n);
      expect(w.rate).toBe(k / n);
      expect(w.ci95![0]).toBeCloseTo(lo, 9);
      expect(w.ci95![1]).toBeCloseTo(hi, 9);
    }
    expect(wilsonInterval(0, 0)).toEqual({ passed: 0, scored: 0, rate: null, ci95: null });
    expect(() => wilsonInterval(3, 2)).toThrow(/0 ≤ passed ≤ scored \(got 3 of 2\)/);
  });
});

describe("pass@k and pass^k", () => {
  it("use the unbiased estimators per case", () => {
    // n = 5, c = 2: pass@2 = 1 − C(3,2)/C(5,2) = 1 − 3/10 = 0.7; pass^2 = C(2,2)/C(5,2) = 1/10.
    expect(passAtK([{ passed: 2, trials: 5 }], 2).value).toBeCloseTo(0.7, 12);
    expect(passHatK([{ passed: 2, trials: 5 }], 2).value).toBeCloseTo(0.1, 12);
    // k = 1 is the plain pass rate; averaged over cases: (2/3 + 0/3 + 3/3)/3 = 5/9.
    const cases = [
      { passed: 2, trials: 3 },
      { passed: 0, trials: 3 },
      { passed: 3, trials: 3 },
    ];
    expect(passAtK(cases, 1).value).toBeCloseTo(5 / 9, 12);
    // pass@3 of 3 trials: 1 if any passed → (1 + 0 + 1)/3; pass^3: 1 only if all passed → 1/3.
    expect(passAtK(cases, 3).value).toBeCloseTo(2 / 3, 12);
    expect(passHatK(cases, 3).value).toBeCloseTo(1 / 3, 12);
    // A case with fewer than k trials is left out.
    expect(passAtK([{ passed: 1, trials: 1 }, { passed: 0, trials: 4 }], 2)).toEqual({ value: 0, cases: 1 });
    expect(() => passAtK(cases, 0)).toThrow(/k must be a whole number/);
  });
});

describe("minimum detectable effect (80 % power, α 0.05)", () => {
  it("solves Connor's equation for one trial per case", () => {
    // scipy brentq on √n·δ = z.975·√ψ + z.80·√(ψ − δ²): n = 200, ψ = 46/200 → 0.0944474416360213;
    // check: ((z.975·√ψ + z.80·√(ψ − δ²))/δ)² = 200.0000.
    expect(mcnemarMinDetectableEffect(200, 46)).toBeCloseTo(0.0944474416360213, 9);
    expect(mcnemarMinDetectableEffect(50, 14)).toBeCloseTo(0.2047457008177594, 9); // scipy brentq, n = 50, ψ = 0.28
    // No disagreement seen: the exact test's floor of 6 one-way cases, 6/200.
    expect(mcnemarMinDetectableEffect(200, 0)).toBeCloseTo(0.03, 12);
    expect(mcnemarMinDetectableEffect(0, 0)).toBeNull();
  });

  it("uses t quantiles with repeats", () => {
    // (t.975,9 + t.80,9)·sd/√10 with sd = 0.22498285257018433 → scipy 0.22379353359321877
    expect(pairedTMinDetectableEffect(10, 0.22498285257018433, 3)).toBeCloseTo(0.22379353359321877, 9);
    // No spread: floor of 6 cases moving by one trial in 3, over 100 cases = 6/300.
    expect(pairedTMinDetectableEffect(100, 0, 3)).toBeCloseTo(0.02, 12);
    expect(pairedTMinDetectableEffect(1, 0.1, 3)).toBeNull();
  });
});

describe("compareCandidates", () => {
  it("one trial per case: exact McNemar, the Wald interval of the issue, and a verdict", () => {
    const { cand, base } = oneTrial(2, 10, 30, 8);
    const r = compareCandidates(cand, base);
    // n = 50, b = 2, c = 10: Δ = 8/50 = 0.16; SE = √(12 − 64/50)/50 = √10.72/50 = 0.065483...; CI = 0.16 ± 1.959964·SE.
    expect(r).toMatchObject({ n: 50, regressions: 2, fixes: 10, test: "exact McNemar", verdict: "better", signTestPValue: null, unpaired: { candidate: 0, against: 0 } });
    expect(r.delta).toBeCloseTo(0.16, 12);
    const se = Math.sqrt(10.72) / 50;
    expect(r.ci95![0]).toBeCloseTo(0.16 - 1.959964 * se, 5); // 0.031657
    expect(r.ci95![1]).toBeCloseTo(0.16 + 1.959964 * se, 5); // 0.288343
    expect(r.pValue).toBeCloseTo(0.03857, 5); // the reference, scipy binomtest(2, 12) = 0.03857421875
    expect(r.minDetectableEffect).toBeGreaterThan(0.12); // 6/50 is the floor
  });

  it("reproduces the issue's headline example: +32.5 points (95 % CI +25.3 to +39.7) on 200 paired cases with 5 regressions", () => {
    // GSM8K recorded 175b-verification vs 6b-finetuning (bench run on the demo): b = 5, c = 70, n = 200.
    // Δ = 65/200 = 0.325; SE = √(75 − 65²/200)/200 = √53.875/200 = 0.0366998; CI 0.325 ± 0.0719297.
    const { cand, base } = oneTrial(5, 70, 40, 85);
    const r = compareCandidates(cand, base);
    expect(r).toMatchObject({ n: 200, regressions: 5, fixes: 70, verdict: "better" });
    expect(r.ci95!.map((x) => Number((x * 100).toFixed(1)))).toEqual([25.3, 39.7]);
    expect(r.pValue).toBeCloseTo(9.817755603717254e-16, 25); // scipy binomtest(5, 75)
  });

  it("says inconclusive when the interval spans 0, and when the exact test cannot back an interval that does not", () => {
    const spans = compareCandidates(oneTrial(10, 5, 20, 15).cand, oneTrial(10, 5, 20, 15).base);
    // Δ = −5/50 = −0.1, SE = √(15 − 25/50)/50 = 0.07616; CI (−0.249, 0.049) spans 0.
    expect(spans.delta).toBeCloseTo(-0.1, 12);
    expect(spans.ci95![1]).toBeGreaterThan(0);
    expect(spans.verdict).toBe("inconclusive");
    // b = 0, c = 5 of 100: CI 0.05 ± 1.96·√4.75/100 = (0.0073, 0.0927) is above 0, but exact p = 0.0625.
    const { cand, base } = oneTrial(0, 5, 50, 45);
    const thin = compareCandidates(cand, base);
    expect(thin.ci95![0]).toBeGreaterThan(0);
    expect(thin.pValue).toBeCloseTo(0.0625, 12);
    expect(thin.verdict).toBe("inconclusive");
    // Worse: b = 12, c = 1 of 40: p = 2·P(X ≤ 1 | 13, ½) = 2·14/8192 = 0.00341796875.
    const worse = compareCandidates(oneTrial(12, 1, 20, 7).cand, oneTrial(12, 1, 20, 7).base);
    expect(worse.pValue).toBeCloseTo(0.00341796875, 12);
    expect(worse.verdict).toBe("worse");
  });

  it("leaves cases scored by one side only out of both and counts them apart", () => {
    const { cand, base } = oneTrial(2, 10, 30, 8);
    cand.set("x", { passed: 0, scored: 0 }); // the candidate's trial errored
    base.set("x", { passed: 1, scored: 1 });
    base.set("y", { passed: 1, scored: 1 }); // not run by the candidate
    cand.set("z", { passed: 1, scored: 1 }); // not run by the baseline
    cand.set("w", { passed: 0, scored: 0 }); // unscored on both: in neither count
    base.set("w", { passed: 0, scored: 0 });
    const r = compareCandidates(cand, base);
    expect(r).toMatchObject({ n: 50, regressions: 2, fixes: 10, unpaired: { candidate: 1, against: 2 } });
    expect(compareCandidates(new Map(), new Map())).toMatchObject({ n: 0, delta: null, ci95: null, pValue: null, verdict: "inconclusive" });
    expect(() => compareCandidates(new Map([["q7", { passed: 2, scored: 1 }]]), new Map())).toThrow(/case q7 \(candidate\)/);
  });

  it("several trials per case: paired t with its t interval, and the sign test under 30 cases", () => {
    // Passes of 3 trials per case; scipy ttest_rel(cand, base) on the rates:
    // t = 3.279648999660727, p = 0.009534613041301045, CI (0.07239029602227207, 0.3942763706443946).
    const c = [3, 3, 2, 3, 1, 3, 3, 2, 3, 3];
    const b = [2, 3, 1, 1, 1, 2, 3, 1, 2, 3];
    const cand = new Map(c.map((p, i) => [`k${i}`, { passed: p, scored: 3 }]));
    const base = new Map(b.map((p, i) => [`k${i}`, { passed: p, scored: 3 }]));
    const r = compareCandidates(cand, base);
    expect(r).toMatchObject({ n: 10, fixes: 6, regressions: 0, test: "paired t", verdict: "better" });
    expect(r.delta).toBeCloseTo(0.23333333333333334, 12);
    expect(r.pValue).toBeCloseTo(0.009534613041301045, 9);
    expect(r.ci95![0]).toBeCloseTo(0.07239029602227207, 9);
    expect(r.ci95![1]).toBeCloseTo(0.3942763706443946, 9);
    expect(r.signTestPValue).toBeCloseTo(0.03125, 12); // 6 up, 0 down: 2·½⁶
    expect(r.minDetectableEffect).toBeCloseTo(0.22379353359321877, 9);
  });

  it("with repeats and few cases, the sign test can hold back a t-test verdict", () => {
    // 5 cases each up by 1 of 3 trials: sd 0 → t p = 0 and CI [1/3, 1/3], but the sign test of 5 of 5 gives 0.0625.
    const cand = new Map([0, 1, 2, 3, 4].map((i) => [`k${i}`, { passed: 3, scored: 3 }]));
    const base = new Map([0, 1, 2, 3, 4].map((i) => [`k${i}`, { passed: 2, scored: 3 }]));
    const r = compareCandidates(cand, base);
    expect(r.pValue).toBe(0);
    expect(r.signTestPValue).toBeCloseTo(0.0625, 12);
    expect(r.verdict).toBe("inconclusive");
  });
});

describe("bench size", () => {
  it("handles the largest bench (100,000 cases, repeats) without spreading cases into one call's arguments", () => {
    const n = 100_000;
    const cand = new Map<number, CaseTally>();
    const base = new Map<number, CaseTally>();
    for (let i = 0; i < n; i++) {
      cand.set(i, { passed: i % 2 ? 2 : 1, scored: 2 });
      base.set(i, { passed: 1, scored: 2 });
    }
    const r = compareCandidates(cand, base);
    expect(r).toMatchObject({ n, fixes: n / 2, regressions: 0, test: "paired t" });
    expect(r.delta).toBeCloseTo(0.25, 12); // half the cases up by ½
    expect(candidateRates(cand.values())).toMatchObject({ cases: n, trialPassRate: { passed: 150_000, scored: 200_000 } });
  });
});

describe("classifyCheck (flaky on the baseline / confirmed / suspected / cleared)", () => {
  it("applies the one-sided Fisher rule", () => {
    expect(classifyCheck({ passed: 3, scored: 3 }, { passed: 0, scored: 3 })).toEqual({ status: "confirmed", pValue: expect.closeTo(0.05, 12) }); // exactly 1/20
    expect(classifyCheck({ passed: 3, scored: 3 }, { passed: 1, scored: 3 })).toEqual({ status: "suspected", pValue: expect.closeTo(0.2, 12) }); // scipy [[3,0],[1,2]] = 0.2
    expect(classifyCheck({ passed: 1, scored: 1 }, { passed: 0, scored: 1 })).toEqual({ status: "suspected", pValue: expect.closeTo(0.5, 12) }); // one trial each: the seed's rule still blocks
    expect(classifyCheck({ passed: 6, scored: 6 }, { passed: 2, scored: 6 }).status).toBe("confirmed"); // scipy 0.0303
    expect(classifyCheck({ passed: 2, scored: 3 }, { passed: 0, scored: 3 })).toEqual({ status: "flaky on baseline", pValue: null });
    expect(classifyCheck({ passed: 0, scored: 3 }, { passed: 0, scored: 3 }).status).toBe("none"); // failing on both: no regression
    expect(classifyCheck({ passed: 3, scored: 3 }, { passed: 3, scored: 3 }).status).toBe("none");
    expect(classifyCheck({ passed: 0, scored: 0 }, { passed: 0, scored: 3 }).status).toBe("none"); // nothing scored on the baseline
  });

  it("clears a suspected regression whose rerun trials all passed, and confirms one the rerun reproduces", () => {
    // 3/3 → 2/3, rerun 3 more that all pass: 5/6 → Fisher 0.5, not confirmed; the rerun did not reproduce.
    expect(classifyCheck({ passed: 6, scored: 6 }, { passed: 5, scored: 6 }, { passed: 3, scored: 3 }).status).toBe("cleared");
    // Rerun fails again twice: 6/6 vs 2/6 → p = 0.0303 (scipy) → confirmed.
    expect(classifyCheck({ passed: 6, scored: 6 }, { passed: 2, scored: 6 }, { passed: 1, scored: 3 }).status).toBe("confirmed");
    // A rerun with a failure that still is not significant stays suspected.
    expect(classifyCheck({ passed: 6, scored: 6 }, { passed: 4, scored: 6 }, { passed: 2, scored: 3 }).status).toBe("suspected");
    expect(() => classifyCheck({ passed: 1, scored: 1 }, { passed: 0, scored: 1 }, { passed: 1, scored: 2 })).toThrow(/part of the candidate's trials/);
  });
});

describe("tallies and candidate rates", () => {
  it("count a trial as passing when every scored check passed, leaving out unscored and error trials", () => {
    const chk = (key: string, verdict: "passed" | "failed" | "unscored" | "error") => ({ key, kind: "contains", label: key, verdict });
    const t = benchTallies([
      { candidateId: 1, caseRevisionId: 7, checks: [chk("a", "passed"), chk("b", "unscored")] },
      { candidateId: 1, caseRevisionId: 7, checks: [chk("a", "passed"), chk("b", "failed")] },
      { candidateId: 1, caseRevisionId: 7, checks: [chk("a", "error"), chk("b", "unscored")] },
      { candidateId: 1, caseRevisionId: 8, checks: null },
      { candidateId: 2, caseRevisionId: 7, checks: [chk("a", "failed")] },
    ]);
    expect(t.get(1)!.cases.get(7)).toEqual({ passed: 1, scored: 2 });
    expect(t.get(1)!.cases.has(8)).toBe(false);
    expect(checkTally(t.get(1)!.checks, 7, "a")).toEqual({ passed: 2, scored: 2 });
    expect(checkTally(t.get(1)!.checks, 7, "b")).toEqual({ passed: 0, scored: 1 });
    expect(checkTally(t.get(1)!.checks, 8, "a")).toBeUndefined();
    expect(t.get(2)!.cases.get(7)).toEqual({ passed: 0, scored: 1 });
  });

  it("give the Wilson interval and, with repeats, pass@k and pass^k", () => {
    const one = candidateRates([{ passed: 1, scored: 1 }, { passed: 0, scored: 1 }, { passed: 0, scored: 0 }]);
    expect(one).toMatchObject({ cases: 2, passAt: null, passHat: null, trialPassRate: { passed: 1, scored: 2, rate: 0.5 } });
    const rep = candidateRates([{ passed: 2, scored: 3 }, { passed: 0, scored: 3 }, { passed: 3, scored: 3 }]);
    expect(Object.keys(rep.passAt!)).toEqual(["1", "2", "3"]);
    expect(rep.passAt!["3"]).toBeCloseTo(2 / 3, 12);
    expect(rep.passHat!["3"]).toBeCloseTo(1 / 3, 12);
    expect(rep.trialPassRate.ci95![0]).toBeCloseTo(wilsonInterval(5, 9).ci95![0], 12);
  });
});
