/**
 * Deterministic replays (issue #16, found by the new-user pass): a recorded candidate replays the
 * same output every time, so when the reference is recorded too and the check is code, a repeat
 * is no evidence and a Fisher p from copies is meaningless: the regression is confirmed as such.
 */
import { describe, expect, it } from "vitest";
import { checkSlots } from "../score";
import { classifyCheck } from "./regression-status";
import { asDeterministicReplay, isCodeCheckKey, isDeterministicRegression } from "./deterministic";

describe("isCodeCheckKey (the check keys checkSlots makes)", () => {
  it("is true for code evaluators (static and custom), false for judged checks (criteria and judge evaluators)", () => {
    const slots = checkSlots(
      { evaluators: [{ kind: "gsm8k" }, { kind: "judge", criterion: { rule: "Polite" } }, { kind: "custom", code: "function evaluate(){return true}" }] },
      [{ criterionId: 7, revisionId: 70, rule: "Cites the policy", passes: "", fails: "", priority: "primary" }],
    );
    expect(slots.map((s) => [s.key, isCodeCheckKey(s.key)])).toEqual([
      ["e0:gsm8k", true],
      ["e1:judge", false],
      ["e2:custom", true],
      ["c7", false],
    ]);
    // The prompt's default checks (issue 15) use the same rule.
    const defaults = checkSlots({ evaluators: [] }, [], [{ kind: "exact" }, { kind: "judge", criterion: { rule: "x" } }]);
    expect(defaults.map((s) => [s.key, isCodeCheckKey(s.key)])).toEqual([
      ["p0:exact", true],
      ["p1:judge", false],
    ]);
    // A kind no evaluator has (a future one, or a typo that errored) is not assumed to be code.
    expect(isCodeCheckKey("e0:unknown")).toBe(false);
    expect(isCodeCheckKey("e0:llm_rubric")).toBe(false);
  });
});

describe("isDeterministicRegression", () => {
  it("recorded candidate and recorded reference, scored by a code check: deterministic", () => {
    expect(isDeterministicRegression({ candidateKind: "recorded", referenceKind: "recorded", checkKey: "e0:gsm8k" })).toBe(true);
    expect(isDeterministicRegression({ candidateKind: "recorded", referenceKind: "recorded", checkKey: "p0:exact" })).toBe(true);
  });

  it("recorded outputs scored by an LLM judge: not deterministic (the judge can vary)", () => {
    expect(isDeterministicRegression({ candidateKind: "recorded", referenceKind: "recorded", checkKey: "c7" })).toBe(false);
    expect(isDeterministicRegression({ candidateKind: "recorded", referenceKind: "recorded", checkKey: "e1:judge" })).toBe(false);
  });

  it("a live candidate or a live reference: not deterministic (a model call can answer differently)", () => {
    expect(isDeterministicRegression({ candidateKind: "model", referenceKind: "recorded", checkKey: "e0:exact" })).toBe(false);
    expect(isDeterministicRegression({ candidateKind: "recorded", referenceKind: "model", checkKey: "e0:exact" })).toBe(false);
    expect(isDeterministicRegression({ candidateKind: "model", referenceKind: "model", checkKey: "e0:exact" })).toBe(false);
    // The reference candidate could not be found (a deleted bench): not assumed recorded.
    expect(isDeterministicRegression({ candidateKind: "recorded", referenceKind: null, checkKey: "e0:exact" })).toBe(false);
  });
});

describe("asDeterministicReplay", () => {
  it("makes a suspected regression (1/1 → 0/1, Fisher p = 0.5) confirmed, with the reason and no p", () => {
    const suspected = classifyCheck({ passed: 1, scored: 1 }, { passed: 0, scored: 1 });
    expect(suspected.status).toBe("suspected");
    expect(asDeterministicReplay(suspected)).toEqual({ status: "confirmed", pValue: null, reason: "deterministic replay" });
  });

  it("drops the p of copies from a Fisher 'confirmation' (3/3 → 0/3 = 0.05 from three replays of one answer)", () => {
    expect(asDeterministicReplay(classifyCheck({ passed: 3, scored: 3 }, { passed: 0, scored: 3 }))).toEqual({
      status: "confirmed",
      pValue: null,
      reason: "deterministic replay",
    });
  });

  it("leaves every other status as it is (a replay that varied is no deterministic replay)", () => {
    const cleared = classifyCheck({ passed: 6, scored: 6 }, { passed: 5, scored: 6 }, { passed: 3, scored: 3 });
    expect(asDeterministicReplay(cleared)).toEqual(cleared);
    const flaky = classifyCheck({ passed: 2, scored: 3 }, { passed: 0, scored: 3 });
    expect(asDeterministicReplay(flaky)).toEqual(flaky);
    const none = classifyCheck({ passed: 3, scored: 3 }, { passed: 3, scored: 3 });
    expect(asDeterministicReplay(none)).toEqual(none);
  });
});
