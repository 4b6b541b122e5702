/**
 * Every formula against values computed independently. "scipy" = SciPy 1.17.1
 * (`scipy.stats.binomtest`, `fisher_exact`, `ttest_rel`, `t.ppf`, `binomtest(...).proportion_ci("wilson")`,
 * and `scipy.optimize.brentq` on Connor's equation); the rest is hand computation shown beside it.
 */
import { describe, expect, it } from "vitest";
import { candidateRates } from "./candidate-rates";
import { compareCandidates, type CaseTally } from "./paired";

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

describe("compareCandidates", () => {
  it("one trial per case: exact McNemar, the Wald interval of the issue, and a verdict", () => {
    const { cand, base } = oneTrial(2, 10, 30, 8);
    const r = compareCandidates(cand, base);
    // n = 50, b = 2, c = 10: Δ = 8/50 = 0.16; SE = √(12 − 64/50)/50 = √10.72/50 = 0.065483...; CI = 0.16 ± 1.959964·SE.
    expect(r).toMatchObject({
      n: 50,
      regressions: 2,
      fixes: 10,
      test: "exact McNemar",
      verdict: "better",
      signTestPValue: null,
      unpaired: { candidate: 0, against: 0 },
    });
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

  it("no case differs: the interval is the Wilson bound on the share of cases that differ, not a zero-width 0.0 to 0.0", () => {
    // |Δ| ≤ the share of cases whose two sides differ; 0 of n differ gives the Wilson score interval's
    // upper end z²/(n + z²) (Wilson 1927; by hand with z = 1.959963984540054): n = 5 → 0.43448246478317476,
    // n = 40 → 0.08762160119728664 (the same as scipy binomtest(0, n).proportion_ci("wilson").high).
    const { cand, base } = oneTrial(0, 0, 3, 2);
    const r = compareCandidates(cand, base);
    expect(r).toMatchObject({ n: 5, delta: 0, pValue: 1, verdict: "inconclusive" });
    expect(r.ci95![0]).toBeCloseTo(-0.43448246478317476, 12);
    expect(r.ci95![1]).toBeCloseTo(0.43448246478317476, 12);
    // With repeats: 40 cases, every case the same pass count on both sides (sd of dᵢ = 0).
    const same = new Map(Array.from({ length: 40 }, (_, i) => [`k${i}`, { passed: i % 4, scored: 3 }]));
    const t = compareCandidates(same, new Map(same));
    expect(t).toMatchObject({ n: 40, delta: 0, pValue: 1, test: "paired t", verdict: "inconclusive" });
    expect(t.ci95![0]).toBeCloseTo(-0.08762160119728664, 12);
    expect(t.ci95![1]).toBeCloseTo(0.08762160119728664, 12);
  });

  it("several trials per case: paired t with its t interval, and the sign test under 30 cases", () => {
    // Passes of 3 trials per case; scipy ttest_rel(cand, base) on the rates:
    // t = 3.279648999660727, p = 0.009534613041301045, CI (0.07239029602227207, 0.3942763706443946).
    const c = [3, 3, 2, 3, 1, 3, 3, 2, 3, 3];
    const b = [2, 3, 1, 1, 1, 2, 3, 1, 2, 3];
    const cand = new Map(c.map((p, i) => [`k${i}`, { passed: p, scored: 3 }]));
    const base = new Map(b.map((p, i) => [`k${i}`, { passed: p, scored: 3 }]));
    const r = compareCandidates(cand, base);
    // 6 cases up, but none a fix: a fix needs the reference to fail every scored trial (README; issue #16: it counted 6).
    expect(r).toMatchObject({ n: 10, fixes: 0, regressions: 0, test: "paired t", verdict: "better" });
    expect(r.delta).toBeCloseTo(0.23333333333333334, 12);
    expect(r.pValue).toBeCloseTo(0.009534613041301045, 9);
    expect(r.ci95![0]).toBeCloseTo(0.07239029602227207, 9);
    expect(r.ci95![1]).toBeCloseTo(0.3942763706443946, 9);
    expect(r.signTestPValue).toBeCloseTo(0.03125, 12); // 6 up, 0 down: 2·½⁶
    expect(r.minDetectableEffect).toBeCloseTo(0.22379353359321877, 9);
  });

  it("with repeats, a fix is a case the reference failed on every scored trial and the candidate passed on every one (issue #16)", () => {
    // The tester's banking77-004: flaky on the baseline (2/3) and 3/3 on the candidate was counted as a fix.
    const pairs: [number, number, number, number][] = [
      [0, 3, 3, 3], // fix
      [0, 3, 2, 3], // better, not a fix: the candidate failed one trial
      [2, 3, 3, 3], // flaky on the baseline: not a fix
      [0, 1, 3, 3], // one reference trial, three candidate trials: a fix
      [3, 3, 3, 3],
    ];
    const base = new Map(pairs.map(([p, n], i) => [`k${i}`, { passed: p, scored: n }]));
    const cand = new Map(pairs.map(([, , p, n], i) => [`k${i}`, { passed: p, scored: n }]));
    const r = compareCandidates(cand, base);
    expect(r).toMatchObject({ n: 5, fixes: 2, regressions: 0, test: "paired t" });
    // The sign test still counts every case that moved: 4 up, 0 down → 2·½⁴.
    expect(r.signTestPValue).toBeCloseTo(0.125, 12);
  });

  it("with repeats, a regression is a case the reference passed on every scored trial and the candidate failed at least one", () => {
    // As the flip table and the check-level rule (lib/bench/recommend.ts) count them: a drop from a
    // flaky reference (2/3 → 1/3) is no regression; `comparisons[].regressions` counted every drop.
    const pairs: [number, number, number, number][] = [
      [3, 3, 2, 3], // regression
      [2, 3, 1, 3], // flaky on the baseline: not a regression
      [1, 3, 0, 3], // flaky on the baseline: not a regression
      [3, 3, 0, 3], // regression
      [3, 3, 3, 3],
      [0, 3, 3, 3], // fix
    ];
    const base = new Map(pairs.map(([p, n], i) => [`k${i}`, { passed: p, scored: n }]));
    const cand = new Map(pairs.map(([, , p, n], i) => [`k${i}`, { passed: p, scored: n }]));
    const r = compareCandidates(cand, base);
    expect(r).toMatchObject({ n: 6, fixes: 1, regressions: 2, test: "paired t" });
    // The sign test still counts every case that moved: 1 up, 4 down → 2·(1 + 5)/2⁵ = 0.375.
    expect(r.signTestPValue).toBeCloseTo(0.375, 12);
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
    // Half the cases up by ½ from a flaky baseline (1 of 2): better, but no fix (lib/bench/fix.ts).
    expect(r).toMatchObject({ n, fixes: 0, regressions: 0, test: "paired t" });
    expect(r.delta).toBeCloseTo(0.25, 12); // half the cases up by ½
    expect(candidateRates(cand.values())).toMatchObject({ cases: n, trialPassRate: { passed: 150_000, scored: 200_000 } });
  });
});
