/**
 * Every formula against values computed independently. "scipy" = SciPy 1.17.1
 * (`scipy.stats.binomtest`, `fisher_exact`, `ttest_rel`, `t.ppf`, `binomtest(...).proportion_ci("wilson")`,
 * and `scipy.optimize.brentq` on Connor's equation); the rest is hand computation shown beside it.
 */
import { describe, expect, it } from "vitest";
import { passAtK, passHatK } from "./pass-at-k";

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
    expect(
      passAtK(
        [
          { passed: 1, trials: 1 },
          { passed: 0, trials: 4 },
        ],
        2,
      ),
    ).toEqual({ value: 0, cases: 1 });
    expect(() => passAtK(cases, 0)).toThrow(/k must be a whole number/);
  });
});
