import { describe, expect, it } from "vitest";
import { validateEvaluatorSpecs } from "./validate";

describe("validateEvaluatorSpecs", () => {
  it("accepts valid specs of every kind", () => {
    const specs = [
      { kind: "non_empty" },
      { kind: "exact", expected: "30 days" },
      { kind: "contains", expected: "30 days", ignoreCase: true },
      { kind: "answer_bank", answers: ["30 days", "thirty days"] },
      { kind: "gsm8k", expected: "2,125", marker: "A:", mode: "flexible" },
      { kind: "regex", pattern: "^\\d+$", flags: "i" },
      { kind: "json", schema: { type: "object" } },
      {
        kind: "tool_call_syntax",
        version: 1,
        alternatives: [
          {
            order: "unordered",
            calls: [{ toolName: "lookup_policy", arguments: { topic: { required: true, acceptedValues: ["returns"] } }, extraArguments: "forbid" }],
            extraCalls: "forbid",
          },
        ],
      },
      { kind: "expected_tool_calls", names: ["search"], allowAdditional: false },
      { kind: "custom", name: "json answer", code: "function evaluate({ output }) { return output.length > 0 }" },
      { kind: "judge", criterion: { rule: "Be polite", passes: "Polite", fails: "Rude", priority: "primary" }, mode: "numeric", threshold: 8 },
    ];
    expect(validateEvaluatorSpecs(specs)).toEqual([]);
  });

  it.each([
    ["not a list", { kind: "exact" }, undefined, [{ index: -1, field: "", message: "evaluators must be a list" }]],
    ["not an object", ["exact"], undefined, [{ index: 0, field: "", message: 'an evaluator must be an object with a "kind" (got string)' }]],
    ["missing kind", [{}], undefined, [{ index: 0, field: "kind", message: expect.stringContaining("kind is required: one of non_empty, exact") }]],
    ["unknown kind", [{ kind: "fuzzy" }], undefined, [{ index: 0, field: "kind", message: expect.stringContaining('unknown evaluator kind "fuzzy"') }]],
    [
      "empty expected",
      [{ kind: "exact", expected: "" }],
      undefined,
      [{ index: 0, field: "expected", message: "expected is empty: give the text the output must match" }],
    ],
    [
      "expected from an empty case",
      [{ kind: "contains" }],
      { expected: "" },
      [{ index: 0, field: "expected", message: "expected is not set and the case's expected result is empty" }],
    ],
    ["expected from the case is fine", [{ kind: "exact" }], { expected: "42" }, []],
    [
      "expected missing everywhere",
      [{ kind: "exact" }],
      undefined,
      [{ index: 0, field: "expected", message: "expected is missing: set it on the evaluator or give the case an expected result" }],
    ],
    ["wrong type", [{ kind: "exact", expected: 42 }], undefined, [{ index: 0, field: "expected", message: "expected must be a string (got number)" }]],
    ["unknown field (typo)", [{ kind: "exact", expectd: "x", expected: "x" }], undefined, [{ index: 0, field: "expectd", message: 'unknown field "expectd"' }]],
    [
      "empty answer bank",
      [{ kind: "answer_bank", answers: [] }],
      undefined,
      [{ index: 0, field: "answers", message: "the answer bank is empty: add at least one accepted answer" }],
    ],
    ["empty answer", [{ kind: "answer_bank", answers: ["a", " "] }], undefined, [{ index: 0, field: "answers[1]", message: "answer is empty" }]],
    [
      "gsm8k non-numeric",
      [{ kind: "gsm8k", expected: "many" }],
      undefined,
      [{ index: 0, field: "expected", message: expect.stringContaining("expected must be a number") }],
    ],
    [
      "gsm8k empty marker",
      [{ kind: "gsm8k", expected: "4", marker: " " }],
      undefined,
      [{ index: 0, field: "marker", message: expect.stringContaining("marker is empty") }],
    ],
    [
      "bad mode",
      [{ kind: "gsm8k", expected: "4", mode: "loose" }],
      undefined,
      [{ index: 0, field: "mode", message: 'mode must be "strict" or "flexible" (got "loose")' }],
    ],
    [
      "bad regex",
      [{ kind: "regex", pattern: "[" }],
      undefined,
      [{ index: 0, field: "pattern", message: expect.stringContaining("not a valid regular expression") }],
    ],
    [
      "bad schema",
      [{ kind: "json", schema: { type: 5 } }],
      undefined,
      [{ index: 0, field: "schema", message: expect.stringContaining("schema is not a valid JSON Schema") }],
    ],
    [
      "no alternatives",
      [{ kind: "tool_call_syntax", alternatives: [] }],
      undefined,
      [{ index: 0, field: "alternatives", message: expect.stringContaining("alternatives is empty") }],
    ],
    [
      "empty tool name",
      [{ kind: "tool_call_syntax", alternatives: [{ calls: [{ toolName: "" }] }] }],
      undefined,
      [{ index: 0, field: "alternatives[0].calls[0].toolName", message: "toolName is empty" }],
    ],
    [
      "bad order value",
      [{ kind: "tool_call_syntax", alternatives: [{ order: "any", calls: [] }] }],
      undefined,
      [{ index: 0, field: "alternatives[0].order", message: 'alternatives[0].order must be "ordered" or "unordered" (got "any")' }],
    ],
    [
      "alternative that matches everything",
      [{ kind: "tool_call_syntax", alternatives: [{ calls: [], extraCalls: "allow" }] }],
      undefined,
      [{ index: 0, field: "alternatives[0].calls", message: expect.stringContaining("matches every trial") }],
    ],
    [
      "version 2",
      [{ kind: "tool_call_syntax", version: 2, alternatives: [] }],
      undefined,
      [{ index: 0, field: "version", message: "version must be 1 (got 2)" }],
    ],
    [
      "empty names",
      [{ kind: "expected_tool_calls", names: [] }],
      undefined,
      [{ index: 0, field: "names", message: expect.stringContaining("names is empty") }],
    ],
    ["empty names, no tool allowed", [{ kind: "expected_tool_calls", names: [], allowAdditional: false }], undefined, []],
    ["empty code", [{ kind: "custom", code: " " }], undefined, [{ index: 0, field: "code", message: expect.stringContaining("code is empty") }]],
    [
      "code without evaluate",
      [{ kind: "custom", code: "function check() {}" }],
      undefined,
      [{ index: 0, field: "code", message: expect.stringContaining("code must define a function named evaluate") }],
    ],
    [
      "judge threshold out of range",
      [{ kind: "judge", criterion: { rule: "x" }, mode: "numeric", threshold: 11 }],
      undefined,
      [{ index: 0, field: "threshold", message: "threshold must be between 1 and 10 (got 11)" }],
    ],
    [
      "judge empty rule",
      [{ kind: "judge", criterion: { rule: "" } }],
      undefined,
      [{ index: 0, field: "criterion.rule", message: "the criterion's rule is empty" }],
    ],
    [
      "judge missing rule",
      [{ kind: "judge", criterion: {} }],
      undefined,
      [{ index: 0, field: "criterion.rule", message: "criterion.rule is required (string)" }],
    ],
  ])("%s", (_name, specs, context, problems) => {
    expect(validateEvaluatorSpecs(specs, context)).toEqual(problems);
  });

  it("reports the index of each faulty spec", () => {
    const problems = validateEvaluatorSpecs([{ kind: "non_empty" }, { kind: "answer_bank", answers: [] }, { kind: "exact", expected: "" }]);
    expect(problems.map((p) => [p.index, p.field])).toEqual([
      [1, "answers"],
      [2, "expected"],
    ]);
  });
});
