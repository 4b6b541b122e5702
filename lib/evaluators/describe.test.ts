import { describe, expect, it } from "vitest";
import { describeEvaluator } from "./describe";

describe("describeEvaluator", () => {
  it.each([
    [{ kind: "non_empty" }, "Output is not empty"],
    [{ kind: "exact", expected: "30 days" }, "Exact match: “30 days”"],
    [{ kind: "exact" }, "Exact match: the case's expected result"],
    [{ kind: "exact", expected: "x", ignoreCase: true, trim: true }, "Exact match: “x” (ignoring case, trimmed)"],
    [{ kind: "contains", expected: "30 days" }, "Contains “30 days”"],
    [{ kind: "answer_bank", answers: ["30 days", "thirty days", "a month"] }, "Equals one of 3 answers: “30 days”, “thirty days”, …"],
    [{ kind: "gsm8k", expected: "41" }, "GSM8K answer = 41 (marker “####”, strict)"],
    [{ kind: "gsm8k", expected: "18", marker: "A:", mode: "flexible" }, "GSM8K answer = 18 (marker “A:”, flexible)"],
    [{ kind: "regex", pattern: "^\\d+$", flags: "gi" }, "Matches /^\\d+$/i"],
    [{ kind: "json" }, "Valid JSON"],
    [{ kind: "json", schema: {} }, "Valid JSON matching a schema"],
    [
      { kind: "tool_call_syntax", alternatives: [{ calls: [{ toolName: "lookup_policy", arguments: { topic: { required: true } } }] }] },
      "Tool calls: lookup_policy(topic)",
    ],
    [
      { kind: "tool_call_syntax", alternatives: [{ order: "ordered", calls: [{ toolName: "a" }, { toolName: "b" }], extraCalls: "allow" }, { calls: [] }] },
      "Tool calls: 2 alternatives (first: a(), b(), in order, other calls allowed)",
    ],
    [{ kind: "tool_call_syntax", alternatives: [{ calls: [] }] }, "Tool calls: no tool calls"],
    [{ kind: "expected_tool_calls", names: ["search", "get_order"], allowAdditional: false }, "Calls search, get_order and nothing else"],
    [{ kind: "custom", code: "function evaluate() {\n return true\n}" }, "Custom evaluator (3 lines of JavaScript)"],
    [{ kind: "custom", name: "JSON answer", code: "x" }, "JSON answer — Custom evaluator (1 line of JavaScript)"],
    [{ kind: "judge", criterion: { rule: "Answer politely" } }, "Judge (pass/fail): “Answer politely”"],
    [{ kind: "judge", criterion: { rule: "Cites the policy" }, mode: "numeric" }, "Judge (score ≥ 7/10): “Cites the policy”"],
    [{ kind: "wat" }, 'Invalid evaluator (unknown kind "wat")'],
    [null, "Invalid evaluator"],
  ])("%j", (spec, summary) => {
    expect(describeEvaluator(spec)).toBe(summary);
  });
});
