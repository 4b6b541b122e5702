import { describe, expect, it } from "vitest";
import { storedTable } from "./stored-table";
import { planUse, unionVariables } from "./use-plan";
import { problemPlace, assignmentLabel, countProblems } from "./labels";
import { defaultDatasetName, mappingFileSchema } from "./schemas";

const t = (records: Record<string, string>[]) => storedTable({ fileName: "f.csv", format: "csv" }, Object.keys(records[0]), records);
const MAP = [
  { column: "id", role: "case_id" as const },
  { column: "q", role: "input" as const },
  { column: "a", role: "expected" as const },
  { column: "shop", role: "variable" as const, variable: "shop" },
];

describe("planUse", () => {
  it("splits rows into drafts and blocked rows, and warns about variables for the target prompt", () => {
    const p = planUse(
      t([
        { id: "k1", q: "x", a: "y", shop: "A" },
        { id: "k2", q: "", a: "y", shop: "" },
        { id: "k\u0001", q: "x", a: "y", shop: "B" },
        { id: "k4", q: "x", a: "", shop: "C" },
      ]),
      MAP,
      [4],
      ["shop", "tone"],
    );
    expect(p.drafts.map((d) => [d.rowNumber, d.caseKey])).toEqual([[1, "k1"]]);
    expect(p.blocked.map((b) => [b.row, b.problems.map((x) => x.code)])).toEqual([
      [2, ["missing_input"]],
      [3, ["invalid_case_id"]],
    ]);
    expect(p.blocked[0].problems[0].line).toBeUndefined();
    expect(p.warnings.map((w) => w.code)).toEqual(["variable_not_mapped", "missing_variable"]);
    expect(p.excludedRows).toEqual([4]);
  });

  it("blocks every row when the mapping has no expected column", () => {
    const p = planUse(t([{ id: "", q: "x", a: "y", shop: "" }]), MAP.slice(0, 2), [], []);
    expect(p.drafts).toEqual([]);
    expect(p.mappingErrors.map((e) => e.code)).toEqual(["no_expected_column"]);
    expect(p.blocked.map((b) => b.row)).toEqual([1]);
  });

  it("unions template variables in order of first use", () => {
    expect(unionVariables([["a", "b"], [], ["b", "c"]])).toEqual(["a", "b", "c"]);
  });
});

describe("labels and schemas", () => {
  it("says where a problem is", () => {
    expect(problemPlace({ row: 2, line: 3, column: "a" })).toBe('row 2 (line 3), column "a"');
    expect(problemPlace({ row: 2, sheetRow: 4 })).toBe("row 2 (sheet row 4)");
    expect(problemPlace({ line: 7 })).toBe("line 7");
    expect(problemPlace({})).toBe("");
    expect(assignmentLabel({ role: "actual_output", candidate: "m" })).toBe("actual output (m)");
    expect(assignmentLabel({ role: "variable", variable: "v" })).toBe("variable {{v}}");
    expect(countProblems([{ severity: "error" }, { severity: "warning" }, { severity: "error" }])).toEqual({ errors: 2, warnings: 1 });
  });

  it("names a dataset after its file and reads both mapping-file shapes", () => {
    expect(defaultDatasetName("C:\\data\\faq-2024.csv")).toBe("faq-2024");
    expect(defaultDatasetName(".env")).toBe(".env");
    expect(mappingFileSchema.parse([{ column: "q", role: "input" }])).toEqual({ mapping: [{ column: "q", role: "input" }], corrections: {}, excludedRows: [] });
    expect(mappingFileSchema.safeParse({ mapping: [], corrections: { x: {} } }).success).toBe(false);
  });
});
