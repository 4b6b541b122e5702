/**
 * Every formula against values computed independently. "scipy" = SciPy 1.17.1
 * (`scipy.stats.binomtest`, `fisher_exact`, `ttest_rel`, `t.ppf`, `binomtest(...).proportion_ci("wilson")`,
 * and `scipy.optimize.brentq` on Connor's equation); the rest is hand computation shown beside it.
 */
import { describe, expect, it } from "vitest";
import { mcnemarMinDetectableEffect, pairedTMinDetectableEffect } from "./power";

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
