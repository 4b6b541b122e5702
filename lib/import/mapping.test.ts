import { describe, expect, it } from "vitest";
import { emptyCaseContent } from "@/lib/library/case-content";
import { applyCorrections, applyMapping, splitTags, validateMapping, type ColumnMapping } from "./mapping";
import { columnMappingSchema } from "./mapping-schema";
import type { ImportTable } from "./types";

function table(columns: string[], rows: string[][]): ImportTable {
  return {
    fileName: "t.csv",
    format: "csv",
    encoding: "utf-8",
    delimiter: ",",
    columns,
    rows,
    sourceKind: "line",
    rowSources: rows.map((_, i) => i + 2),
    problems: [],
  };
}

const FULL_COLUMNS = ["id", "question", "answer", "messages", "model_a_output", "model_b_output", "city", "prompt_sent", "notes", "tags", "labels", "source"];
const FULL_MAPPING: ColumnMapping = [
  { column: "id", role: "case_id" },
  { column: "question", role: "input" },
  { column: "answer", role: "expected" },
  { column: "messages", role: "history" },
  { column: "model_a_output", role: "actual_output", candidate: "model-a" },
  { column: "model_b_output", role: "actual_output", candidate: "model-b" },
  { column: "city", role: "variable", variable: "city" },
  { column: "prompt_sent", role: "resolved_prompt" },
  { column: "notes", role: "notes" },
  { column: "tags", role: "tags" },
  { column: "labels", role: "tags" },
  { column: "source", role: "extra" },
];

describe("applyMapping: where each role lands", () => {
  it("builds the case content from a fully mapped row", () => {
    const t = table(FULL_COLUMNS, [
      [
        " c-1 ",
        "Weather in {{city}}?",
        "Sunny",
        "user: hi\nassistant: hello",
        "It is sunny",
        "",
        "Paris",
        "You are… Weather in Paris?",
        "checked",
        "weather, geo; weather",
        "geo;easy",
        "https://x",
      ],
    ]);
    const r = applyMapping(t, FULL_MAPPING, { templateVariables: ["city"] });
    expect(r.problems).toEqual([]);
    expect(r.blockedRows).toEqual([]);
    expect(r.drafts).toEqual([
      {
        rowNumber: 1,
        caseKey: "c-1",
        blocked: false,
        content: {
          ...emptyCaseContent(),
          input: "Weather in {{city}}?",
          expected: "Sunny",
          notes: "checked",
          history: [
            { role: "user", content: "hi", replayable: true },
            { role: "assistant", content: "hello", replayable: true },
          ],
          variables: [{ name: "city", value: "Paris" }],
          context: [{ name: "resolved_prompt", value: "You are… Weather in Paris?" }],
          tags: ["weather", "geo", "easy"],
          recordedOutputs: { "model-a": "It is sunny", "model-b": "" },
          extra: { source: "https://x" },
        },
      },
    ]);
  });

  it("keeps unmapped columns as extra columns, unchanged, and never merges repeated rows", () => {
    const t = table(
      ["q", "a", "x", "y"],
      [
        ["same", "1", "  keep spaces  ", ""],
        ["same", "1", "  keep spaces  ", ""],
      ],
    );
    const r = applyMapping(t, [
      { column: "q", role: "input" },
      { column: "a", role: "expected" },
    ]);
    expect(r.drafts).toHaveLength(2);
    expect(r.drafts[0].content.extra).toEqual({ x: "  keep spaces  ", y: "" });
    expect(r.drafts[1].content).toEqual(r.drafts[0].content);
    expect(r.drafts.map((d) => d.rowNumber)).toEqual([1, 2]);
  });

  it("is safe with column names like __proto__", () => {
    const t = table(["q", "a", "__proto__"], [["x", "y", "z"]]);
    const r = applyMapping(t, [
      { column: "q", role: "input" },
      { column: "a", role: "expected" },
    ]);
    expect(Object.keys(r.drafts[0].content.extra)).toEqual(["__proto__"]);
    expect(r.drafts[0].content.extra["__proto__"]).toBe("z");
  });
});

describe("applyMapping: problems", () => {
  const mapping: ColumnMapping = [
    { column: "id", role: "case_id" },
    { column: "q", role: "input" },
    { column: "a", role: "expected" },
    { column: "h", role: "history" },
    { column: "v", role: "variable", variable: "city" },
  ];
  const t = table(
    ["id", "q", "a", "h", "v"],
    [
      ["1", "ok", "fine", "", "Paris"],
      ["2", "  ", "fine", "", "Rome"],
      ["3", "ok", "", "", ""],
      ["1", "dup", "x", "", "Oslo"],
      ["5", "bad history", "x", '[{"role":', "Bern"],
    ],
  );

  it("flags missing input/expected and repeated IDs as errors that block the row; missing variables as warnings", () => {
    const r = applyMapping(t, mapping, { templateVariables: ["city", "country"] });
    expect(r.problems).toEqual([
      {
        severity: "warning",
        code: "variable_not_mapped",
        message: "The prompt template uses {{country}} but no column is mapped to it; every row lacks it and it will not be filled in.",
      },
      { severity: "error", code: "missing_input", column: "q", row: 2, line: 3, message: "Row 2 has no input." },
      { severity: "error", code: "missing_expected", column: "a", row: 3, line: 4, message: "Row 3 has no expected result." },
      { severity: "warning", code: "missing_variable", column: "v", row: 3, line: 4, message: "Row 3 has no value for {{city}}; it is left unset." },
      {
        severity: "error",
        code: "duplicate_case_id",
        column: "id",
        row: 4,
        line: 5,
        message: 'Row 4 repeats case ID "1" from row 1; case IDs must be unique.',
      },
      {
        severity: "error",
        code: "malformed_history",
        column: "h",
        row: 5,
        line: 6,
        message: "Row 5: the conversation history cannot be read (it looks like JSON but is not valid JSON); the cell is kept as an extra column.",
      },
    ]);
    expect(r.blockedRows).toEqual([2, 3, 4, 5]);
    expect(r.drafts.map((d) => d.blocked)).toEqual([false, true, true, true, true]);
    expect(r.drafts[2].content.variables).toEqual([]);
    expect(r.drafts[4].content.history).toEqual([]);
    expect(r.drafts[4].content.extra).toEqual({ h: '[{"role":' });
  });

  it("applies corrections and exclusions from the preview", () => {
    const r = applyMapping(t, mapping, {
      corrections: { 2: { q: "fixed input" }, 3: { a: "fixed expected", v: "Madrid" }, 4: { id: "4" }, 5: { h: "user: hello" } },
      excludedRows: [1, 99],
    });
    expect(r.problems).toEqual([]);
    expect(r.blockedRows).toEqual([]);
    expect(r.excludedRows).toEqual([1]);
    expect(r.drafts.map((d) => d.rowNumber)).toEqual([2, 3, 4, 5]);
    expect(r.drafts[0].content.input).toBe("fixed input");
    expect(r.drafts[1].content.expected).toBe("fixed expected");
    expect(r.drafts[1].content.variables).toEqual([{ name: "city", value: "Madrid" }]);
    expect(r.drafts[2].caseKey).toBe("4");
    expect(r.drafts[3].content.history).toEqual([{ role: "user", content: "hello", replayable: true }]);
    expect(t.rows[1][1]).toBe("  ");
  });

  it("reports corrections for unknown rows or columns", () => {
    const r = applyMapping(t, mapping, { corrections: { 9: { q: "x" }, 1: { nope: "x" } } });
    expect(r.problems.slice(0, 2)).toEqual([
      {
        severity: "error",
        code: "unknown_column",
        row: 1,
        column: "nope",
        message: 'A correction for row 1 names column "nope", which the table does not have.',
      },
      { severity: "error", code: "unknown_row", message: "A correction names row 9, which the table does not have (rows 1–5)." },
    ]);
  });

  it("blocks every row, flagged once, when no input column is mapped", () => {
    const r = applyMapping(
      table(
        ["q", "a"],
        [
          ["x", "y"],
          ["z", "w"],
        ],
      ),
      [{ column: "a", role: "expected" }],
    );
    expect(r.problems).toEqual([{ severity: "error", code: "no_input_column", message: "No column is mapped to the input." }]);
    expect(r.blockedRows).toEqual([1, 2]);
    expect(r.drafts[0].content.extra).toEqual({ q: "x" });
  });
});

describe("validateMapping", () => {
  it("reports every rule it checks", () => {
    const problems = validateMapping(
      ["a", "b", "c", "d", "e", "f", "g"],
      [
        { column: "a", role: "input" },
        { column: "b", role: "input" },
        { column: "c", role: "actual_output" },
        { column: "d", role: "actual_output", candidate: "m" },
        { column: "e", role: "actual_output", candidate: "m" },
        { column: "f", role: "variable" },
        { column: "a", role: "notes" },
        { column: "zzz", role: "extra" },
      ],
    );
    expect(problems.map((p) => [p.code, p.column ?? null])).toEqual([
      ["missing_candidate", "c"],
      ["duplicate_candidate", "e"],
      ["missing_variable_name", "f"],
      ["column_mapped_twice", "a"],
      ["unknown_column", "zzz"],
      ["role_mapped_twice", "b"],
      ["no_expected_column", null],
    ]);
    expect(problems.find((p) => p.code === "role_mapped_twice")?.message).toBe('Only one column can be the input; "a" and "b" both are.');
  });

  it("has a zod schema for shells", () => {
    expect(columnMappingSchema.safeParse([{ column: "a", role: "input" }]).success).toBe(true);
    expect(columnMappingSchema.safeParse([{ column: "a", role: "ignore" }]).success).toBe(false);
    expect(columnMappingSchema.safeParse([{ column: "a", role: "actual_output" }]).success).toBe(false);
    expect(columnMappingSchema.safeParse([{ column: "a", role: "variable", variable: "x" }]).success).toBe(true);
  });
});

describe("helpers", () => {
  it("splits tags on commas and semicolons, trims and dedupes", () => {
    expect(splitTags(" a, b;a ;; c ,B")).toEqual(["a", "b", "c", "B"]);
    expect(splitTags("")).toEqual([]);
  });

  it("applyCorrections returns a corrected copy", () => {
    const t = table(["q", "a"], [["x", "y"]]);
    const c = applyCorrections(t, { 1: { a: "z", nope: "w" }, 7: { a: "q" } });
    expect(c.rows).toEqual([["x", "z"]]);
    expect(t.rows).toEqual([["x", "y"]]);
  });
});

describe("variables (JSON object): one variable per key", () => {
  const cols = ["question", "answer", "vars", "tier"];
  const mapping: ColumnMapping = [
    { column: "question", role: "input" },
    { column: "answer", role: "expected" },
    { column: "vars", role: "variables_json" },
  ];

  it("fills one variable per key, values as text exactly as written; null and empty values are left out", () => {
    const t = table(cols, [
      ["Hi", "Hello", '{"shop_name": "Northwind Goods", "tier": "gold", "discount": 0.10, "vip": true, "limits": {"max": 3}, "note": null, "empty": ""}', ""],
      ["Hi", "Hello", "  ", ""],
    ]);
    const r = applyMapping(t, mapping, { templateVariables: ["shop_name"] });
    expect(r.drafts[0].content.variables).toEqual([
      { name: "shop_name", value: "Northwind Goods" },
      { name: "tier", value: "gold" },
      { name: "discount", value: "0.10" },
      { name: "vip", value: "true" },
      { name: "limits", value: '{"max":3}' },
    ]);
    expect(r.drafts[0].content.extra).toEqual({ tier: "" });
    expect(r.drafts[1].content.variables).toEqual([]);
    // The template's {{shop_name}} comes from the JSON column: no "no column is mapped" warning, only row 2 lacks it.
    expect(r.problems).toEqual([
      { severity: "warning", code: "missing_variable", line: 3, row: 2, column: "vars", message: "Row 2 has no value for {{shop_name}}; it is left unset." },
    ]);
    expect(r.blockedRows).toEqual([]);
  });

  it("bad JSON or a value that is not an object blocks the row, naming row and column, and keeps the cell as an extra column", () => {
    const t = table(cols, [
      ["Hi", "Hello", '{"shop_name": "Northwind", tier: gold}', ""],
      ["Hi", "Hello", '["gold"]', ""],
      ["Hi", "Hello", '{"": "x"}', ""],
    ]);
    const r = applyMapping(t, mapping);
    expect(r.blockedRows).toEqual([1, 2, 3]);
    expect(r.problems.map((p) => [p.code, p.row, p.line, p.column])).toEqual([
      ["malformed_variables", 1, 2, "vars"],
      ["malformed_variables", 2, 3, "vars"],
      ["malformed_variables", 3, 4, "vars"],
    ]);
    expect(r.problems[0].message).toMatch(/^Row 1: column "vars" is not a JSON object of variables \(.+\); the cell is kept as an extra column\.$/);
    expect(r.problems[1].message).toBe('Row 2: column "vars" is not a JSON object of variables (it is an array); the cell is kept as an extra column.');
    expect(r.problems[2].message).toBe('Row 3: column "vars" is not a JSON object of variables (a key is empty); the cell is kept as an extra column.');
    expect(r.drafts[0].content.variables).toEqual([]);
    expect(r.drafts[0].content.extra).toEqual({ vars: '{"shop_name": "Northwind", tier: gold}', tier: "" });
  });

  it("a variable column and a JSON key with the same name: the column wins, with a warning", () => {
    const t = table(cols, [["Hi", "Hello", '{"tier": "silver", "shop_name": "N"}', "gold"]]);
    const r = applyMapping(t, [...mapping, { column: "tier", role: "variable", variable: "tier" }]);
    expect(r.drafts[0].content.variables).toEqual([
      { name: "tier", value: "gold" },
      { name: "shop_name", value: "N" },
    ]);
    expect(r.problems).toEqual([
      {
        severity: "warning",
        code: "duplicate_variable",
        line: 2,
        row: 1,
        column: "vars",
        message: 'Row 1: {{tier}} is given by column "tier" and by the JSON object in "vars"; the value of "tier" is used.',
      },
    ]);
  });

  it("is a role the mapping schema and validation accept, and more than one column may have it", () => {
    const m = [...mapping, { column: "tier", role: "variables_json" }];
    expect(columnMappingSchema.safeParse(m).success).toBe(true);
    expect(validateMapping(cols, m as ColumnMapping)).toEqual([]);
  });
});

describe("expected tool calls column", () => {
  it("reads a JSON list or a comma-separated list of tool names, and keeps the cell as an extra column", async () => {
    const { applyMapping, splitToolNames } = await import("./mapping");
    expect(splitToolNames('["lookup_order", {"toolName": "refund"}, "lookup_order"]')).toEqual(["lookup_order", "refund"]);
    expect(splitToolNames("lookup_order; refund")).toEqual(["lookup_order", "refund"]);
    const table = {
      format: "csv",
      encoding: "utf-8",
      columns: ["q", "a", "tools"],
      rows: [["Where is my order?", "On its way", "lookup_order"]],
      rowSources: [2],
      sourceKind: "line",
    } as unknown as Parameters<typeof applyMapping>[0];
    const r = applyMapping(table, [
      { column: "q", role: "input" },
      { column: "a", role: "expected" },
      { column: "tools", role: "expected_tool_calls" },
    ]);
    expect(r.drafts[0].expectedToolNames).toEqual(["lookup_order"]);
    expect(r.drafts[0].content.extra).toEqual({ tools: "lookup_order" });
  });
});
