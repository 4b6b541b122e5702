/**
 * Every formula against values computed independently. "scipy" = SciPy 1.17.1
 * (`scipy.stats.binomtest`, `fisher_exact`, `ttest_rel`, `t.ppf`, `binomtest(...).proportion_ci("wilson")`,
 * and `scipy.optimize.brentq` on Connor's equation); the rest is hand computation shown beside it.
 */
import { describe, expect, it } from "vitest";
import { candidateRates } from "./candidate-rates";
import { benchTallies, checkTally } from "./tallies";
import { wilsonInterval } from "./wilson";

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

  it("give the Wilson interval and, with repeats, a cluster interval, pass@k and pass^k", () => {
    const one = candidateRates([
      { passed: 1, scored: 1 },
      { passed: 0, scored: 1 },
      { passed: 0, scored: 0 },
    ]);
    expect(one).toMatchObject({ cases: 2, passAt: null, passHat: null, trialPassRate: { passed: 1, scored: 2, rate: 0.5 } });
    const rep = candidateRates([
      { passed: 2, scored: 3 },
      { passed: 0, scored: 3 },
      { passed: 3, scored: 3 },
    ]);
    expect(Object.keys(rep.passAt!)).toEqual(["1", "2", "3"]);
    expect(rep.passAt!["3"]).toBeCloseTo(2 / 3, 12);
    expect(rep.passHat!["3"]).toBeCloseTo(1 / 3, 12);
    // With repeats the interval is over the 3 cases (candidate-rates.test.ts): p̂ = 5/9, SE² = 0.0864198,
    // n* = p̂(1−p̂)/SE² · (1.959964/4.302653)² = 0.592865 → Wilson = [0.0424355, 0.9724199] (Python with
    // scipy 1.17 for the t quantile; Wilson over 9 independent trials would say [0.27, 0.81]).
    expect(rep.trialPassRate.ci95![0]).toBeCloseTo(0.0424355, 6);
    expect(rep.trialPassRate.ci95![1]).toBeCloseTo(0.9724199, 6);
    expect(wilsonInterval(5, 9).ci95![0]).toBeGreaterThan(0.2);
  });
});
