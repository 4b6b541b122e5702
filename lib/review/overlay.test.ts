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
