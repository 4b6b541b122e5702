import { describe, expect, it } from "vitest";
import { applyHumanVerdicts } from "./overlay";
import { countVerdicts } from "../bench/score";

const checks = [
  { key: "e0:exact", verdict: "passed" as const },
  { key: "c1", verdict: "passed" as const },
  { key: "c2", verdict: "failed" as const },
];

describe("human verdicts over the recorded checks", () => {
  it("a human fail turns a judged pass into a failure; the recorded verdict is kept beside it and the input is not changed", () => {
    const scored = applyHumanVerdicts(checks, [{ checkKey: "c1", verdict: "fail" }]);
    expect(scored[1]).toEqual({ key: "c1", verdict: "failed", recordedVerdict: "passed", human: "fail" });
    expect(checks[1].verdict).toBe("passed");
    expect(countVerdicts(scored)).toEqual({ passed: 1, failed: 2, unscored: 0, error: 0 });
  });

  it("the last verdict per check wins; can't tell leaves the recorded verdict; unknown keys are ignored", () => {
    const scored = applyHumanVerdicts(checks, [
      { checkKey: "c2", verdict: "fail" },
      { checkKey: "c2", verdict: "pass" },
      { checkKey: "c1", verdict: "cant_tell" },
      { checkKey: "c9", verdict: "fail" },
    ]);
    expect(scored.map((c) => c.verdict)).toEqual(["passed", "passed", "passed"]);
    expect(scored[1]).toEqual({ key: "c1", verdict: "passed", human: "cant_tell" });
    expect(scored[2].recordedVerdict).toBe("failed");
  });
});

describe("the bench's figures recompute from the scored checks", () => {
  it("a human fail lowers the candidate's pass rate and trial pass rate, and turns a passed check into a regression", async () => {
    const { aggregateCandidates, checkOutcomes } = await import("../bench/aggregate");
    const { findRegressions } = await import("../bench/recommend");
    const check = (verdict: "passed" | "failed") => ({ key: "c1", kind: "judge", label: "Polite", verdict });
    const trial = (candidateId: number, checks: ReturnType<typeof check>[]) => ({
      candidateId,
      caseRevisionId: 10,
      caseKey: "q1",
      repeat: 1,
      status: "done" as const,
      checks,
      inputTokens: null,
      outputTokens: null,
      costUsd: null,
      latencyMs: null,
    });
    // Baseline 1 passed c1; candidate 2's judge passed it too, but the reviewer failed it.
    const scored = applyHumanVerdicts([check("passed")], [{ checkKey: "c1", verdict: "fail" }]);
    const trials = [trial(1, [check("passed")]), trial(2, scored)];
    const [, s] = aggregateCandidates([1, 2], trials);
    expect(s.passRate).toEqual({ passed: 0, scored: 1, rate: 0 });
    expect(s.trialPassRate).toEqual({ passed: 0, scored: 1, rate: 0 });
    expect(s.byCheck.c1).toMatchObject({ passed: 0, failed: 1 });
    expect(findRegressions(checkOutcomes(trials, 1), checkOutcomes(trials, 2), "baseline").map((r) => [r.caseKey, r.key])).toEqual([["q1", "c1"]]);
  });
});
