/**
 * Every formula against values computed independently. "scipy" = SciPy 1.17.1
 * (`scipy.stats.binomtest`, `fisher_exact`, `ttest_rel`, `t.ppf`, `binomtest(...).proportion_ci("wilson")`,
 * and `scipy.optimize.brentq` on Connor's equation); the rest is hand computation shown beside it.
 */
import { describe, expect, it } from "vitest";
import { binomialHalfTwoSided, fisherOneSidedFewerPasses, tQuantile, tTwoSidedP } from "./distributions";

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
    expect(tTwoSidedP(3.279648999660727, 9)).toBeCloseTo(0.009534613041301045, 9); // scipy ttest_rel (see paired.test.ts)
    expect(tTwoSidedP(Infinity, 3)).toBe(0);
  });
});
