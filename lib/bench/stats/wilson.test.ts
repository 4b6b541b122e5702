/**
 * Every formula against values computed independently. "scipy" = SciPy 1.17.1
 * (`scipy.stats.binomtest`, `fisher_exact`, `ttest_rel`, `t.ppf`, `binomtest(...).proportion_ci("wilson")`,
 * and `scipy.optimize.brentq` on Connor's equation); the rest is hand computation shown beside it.
 */
import { describe, expect, it } from "vitest";
import { wilsonInterval } from "./wilson";

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
