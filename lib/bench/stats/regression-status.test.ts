/**
 * Every formula against values computed independently. "scipy" = SciPy 1.17.1
 * (`scipy.stats.binomtest`, `fisher_exact`, `ttest_rel`, `t.ppf`, `binomtest(...).proportion_ci("wilson")`,
 * and `scipy.optimize.brentq` on Connor's equation); the rest is hand computation shown beside it.
 */
import { describe, expect, it } from "vitest";
import { classifyCheck } from "./regression-status";

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
