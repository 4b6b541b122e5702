import { describe, expect, it } from "vitest";
import type { ColumnMapping } from "@/lib/import/mapping";
import { datasetChecksSchema, evaluatorsForRow, parseChecksOption, proposeChecks, proposedChecks } from "./checks";

const recorded: ColumnMapping = [
  { column: "id", role: "case_id" },
  { column: "question", role: "input" },
  { column: "expected", role: "expected" },
  { column: "model_a", role: "actual_output", candidate: "model-a" },
];

describe("proposeChecks", () => {
  it("proposes the exact, case-sensitive comparison for an expected result with recorded outputs, and offers the alternatives", () => {
    const options = proposeChecks(recorded, ["A long answer that goes on and on and on and on and on and on and on and on and on"]);
    expect(options.filter((o) => o.proposed).map((o) => o.check)).toEqual([{ kind: "exact" }]);
    expect(options.map((o) => o.check.kind)).toEqual(["exact", "contains", "answer_bank", "gsm8k", "regex", "json"]);
  });

  it("proposes gsm8k instead of exact when the expected results are GSM8K solutions", () => {
    const mapping: ColumnMapping = [
      { column: "question", role: "input" },
      { column: "answer", role: "expected" },
    ];
    expect(proposedChecks(mapping, ["She has 3 + 4 = 7 apples.\n#### 7", "#### 1,200", ""])).toEqual([{ kind: "gsm8k" }]);
  });

  it("proposes nothing for long free-text expected results without recorded outputs (criteria judge those)", () => {
    const mapping: ColumnMapping = [
      { column: "q", role: "input" },
      { column: "a", role: "expected" },
    ];
    expect(proposedChecks(mapping, ["Explain that refunds take 30 days and that the customer can track them in the account page."])).toEqual([]);
  });

  it("proposes the tool-call check when a column holds the expected tool calls", () => {
    const mapping: ColumnMapping = [...recorded, { column: "tools", role: "expected_tool_calls" }];
    expect(proposedChecks(mapping, ["Paris"])).toEqual([{ kind: "exact" }, { kind: "expected_tool_calls" }]);
  });

  it("proposes nothing without an expected result column", () => {
    expect(proposeChecks([{ column: "q", role: "input" }], [])).toEqual([]);
  });
});

describe("evaluatorsForRow", () => {
  it("turns the dataset's checks into the row's evaluators", () => {
    const specs = evaluatorsForRow(
      [
        { kind: "exact" },
        { kind: "contains", ignoreCase: true },
        { kind: "answer_bank", separator: "|" },
        { kind: "regex", flags: "i" },
        { kind: "json" },
        { kind: "expected_tool_calls" },
      ],
      { expected: "yes | y", expectedToolNames: ["lookup_order"] },
    );
    expect(specs).toEqual([
      { kind: "exact" },
      { kind: "contains", ignoreCase: true },
      { kind: "answer_bank", answers: ["yes", "y"] },
      { kind: "regex", pattern: "yes | y", flags: "i" },
      { kind: "json" },
      { kind: "expected_tool_calls", names: ["lookup_order"] },
    ]);
  });

  it("gives no tool-call evaluator to a row that names no tool", () => {
    expect(evaluatorsForRow([{ kind: "expected_tool_calls" }], { expected: "x" })).toEqual([]);
  });
});

describe("datasetChecksSchema and --checks", () => {
  it("refuses the same kind twice", () => {
    expect(datasetChecksSchema.safeParse([{ kind: "exact" }, { kind: "exact" }]).success).toBe(false);
    expect(datasetChecksSchema.safeParse([{ kind: "exact" }, { kind: "json" }]).success).toBe(true);
  });

  it("reads kinds separated by commas, none, and names an unknown kind", () => {
    expect(parseChecksOption("exact,contains")).toEqual({ ok: true, checks: [{ kind: "exact" }, { kind: "contains" }] });
    expect(parseChecksOption("none")).toEqual({ ok: true, checks: [] });
    const bad = parseChecksOption("exactly");
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toContain('"exactly" is not a check');
  });
});
