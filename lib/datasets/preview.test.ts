import { describe, expect, it } from "vitest";
import { detectHeaderRow, withHeaderRow } from "@/lib/import";
import { parseFile } from "@/lib/import/parse";
import { countProblems } from "./labels";
import { prepareVersion } from "./prepare";
import { analysePreview, withCorrection } from "./preview";

const MAP = [
  { column: "q", role: "input" as const },
  { column: "a", role: "expected" as const },
];

describe("analysePreview", () => {
  it("keeps a corrected row in the problem list as fixed, and marks excluded and blocked rows", async () => {
    const t = await parseFile(new TextEncoder().encode("q,a,mail\nx,,ann@example.com\n,y,\nz,w,\n"), "t.csv");
    const empty = analysePreview(t, { mapping: MAP, corrections: {}, excludedRows: [] }, []);
    expect(empty.problemRows.map((r) => [r.row, r.status, r.line, r.cells.map((c) => c.column)])).toEqual([
      [1, "blocked", 2, ["a"]],
      [2, "blocked", 3, ["q"]],
    ]);
    expect(empty.redaction.preview[0]).toMatchObject({ row: 1, column: "mail", before: "ann@example.com", after: "[EMAIL_1]" });
    const corrections = withCorrection(t, {}, 1, "a", "fixed");
    const later = analysePreview(t, { mapping: MAP, corrections, excludedRows: [2] }, []);
    expect(later.problemRows.map((r) => [r.row, r.status])).toEqual([
      [1, "fixed"],
      [2, "excluded"],
    ]);
    expect(later.problemRows[0].cells).toEqual([{ column: "a", original: "", value: "fixed" }]);
    expect(later.result.blockedRows).toEqual([]);
    expect(later.firstDrafts.map((d) => d.rowNumber)).toEqual([1, 3]);
    expect(withCorrection(t, corrections, 1, "a", "")).toEqual({});
  });

  it("reports mapping errors and variables the templates need", async () => {
    const t = await parseFile(new TextEncoder().encode("q,a\nx,y\n"), "t.csv");
    const a = analysePreview(t, { mapping: [MAP[0]], corrections: {}, excludedRows: [] }, ["shop"]);
    expect(a.mappingProblems.map((p) => [p.severity, p.code])).toEqual([
      ["error", "no_expected_column"],
      ["warning", "variable_not_mapped"],
    ]);
  });

  it("previews the redaction with the chosen settings: a keep-list value stays, off replaces nothing", async () => {
    const t = await parseFile(new TextEncoder().encode("q,a\nI am ann@example.com,Contact privacy@northwind.example\n"), "t.csv");
    const mapping = [
      { column: "q", role: "input" as const },
      { column: "a", role: "expected" as const },
    ];
    const kept = analysePreview(t, { mapping, corrections: {}, excludedRows: [], redaction: { enabled: true, keep: ["privacy@northwind.example"] } }, []);
    expect(kept.redaction.preview.map((p) => p.after)).toEqual(["I am [EMAIL_1]"]);
    expect(kept.redaction.kept).toEqual([{ entry: "privacy@northwind.example", count: 1 }]);
    const off = analysePreview(t, { mapping, corrections: {}, excludedRows: [], redaction: { enabled: false, keep: [] } }, []);
    expect(off.redaction.changedCells).toBe(0);
    expect(analysePreview(t, { mapping, corrections: {}, excludedRows: [] }, []).redaction.totals.email).toBe(2);
  });

  it("counts the warnings the saved version will list: the file's own (a title above the header, a skipped line) and the mapping's", async () => {
    const parsed = await parseFile(new TextEncoder().encode("FAQ export,\n,\nq,a\nx,y\n \t \nz,w\n"), "t.csv");
    const t = withHeaderRow(parsed, detectHeaderRow(parsed) ?? 0);
    const choices = { mapping: MAP, corrections: {}, excludedRows: [] };
    const a = analysePreview(t, choices, ["shop"]);
    const saved = prepareVersion(t, { ...choices, templateVariables: ["shop"] });
    expect(saved.problems.filter((p) => p.severity === "warning").map((p) => p.code)).toEqual(["above_header", "empty_row", "variable_not_mapped"]);
    expect(a.warnings).toBe(countProblems(saved.problems).warnings);
  });
});
