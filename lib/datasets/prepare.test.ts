import { describe, expect, it } from "vitest";
import { parseFile } from "@/lib/import/parse";
import { completeMapping, prepareVersion } from "./prepare";
import { DatasetError } from "./errors";
import { correctionProblems, effectiveCorrections } from "./corrections";
import { recordsToRows, rowsToRecords, storedTable } from "./stored-table";

const table = (text: string) => parseFile(new TextEncoder().encode(text), "t.csv");

describe("prepareVersion", () => {
  it("applies corrections, then redacts every column, then maps the stored rows", async () => {
    const t = await table("q,a,extra\nMail ann@example.com,,call +44 20 7946 0958\nSame,b,ann@example.com\n");
    const p = prepareVersion(t, {
      mapping: [
        { column: "q", role: "input" },
        { column: "a", role: "expected" },
      ],
      corrections: { 1: { a: "Reply to ann@example.com", q: "Mail ann@example.com" } },
    });
    expect(p.corrections).toEqual({ 1: { a: "Reply to ann@example.com" } });
    expect(p.records[0]).toEqual({ q: "Mail [EMAIL_1]", a: "Reply to [EMAIL_1]", extra: "call [PHONE_1]" });
    expect(p.records[1].extra).toBe("[EMAIL_1]");
    expect(p.blockedRows).toEqual([]);
    expect(p.mapping).toEqual([
      { column: "q", role: "input" },
      { column: "a", role: "expected" },
      { column: "extra", role: "extra" },
    ]);
    expect(p.redaction.totals).toMatchObject({ email: 3, phone: 1 });
    expect(p.redaction.preview[0]).toEqual({ row: 1, column: "q", after: "Mail [EMAIL_1]" });
  });

  it("applies the dataset's redaction settings and stores them with the report", async () => {
    const t = await table("q,a\nI am ann@example.com,Contact privacy@northwind.example\n");
    const mapping = [
      { column: "q", role: "input" as const },
      { column: "a", role: "expected" as const },
    ];
    const kept = prepareVersion(t, { mapping, redaction: { enabled: true, keep: ["privacy@northwind.example"] } });
    expect(kept.records[0]).toEqual({ q: "I am [EMAIL_1]", a: "Contact privacy@northwind.example" });
    expect(kept.redaction.settings).toEqual({ enabled: true, keep: ["privacy@northwind.example"] });
    expect(kept.redaction.kept).toEqual([{ entry: "privacy@northwind.example", count: 1 }]);
    const off = prepareVersion(t, { mapping, redaction: { enabled: false, keep: [] } });
    expect(off.records[0]).toEqual({ q: "I am ann@example.com", a: "Contact privacy@northwind.example" });
    expect(off.redaction).toMatchObject({ settings: { enabled: false, keep: [] }, changedCells: 0 });
    // Default: on, nothing kept.
    expect(prepareVersion(t, { mapping }).redaction.settings).toEqual({ enabled: true, keep: [] });
    expect(() => prepareVersion(t, { mapping, redaction: { enabled: true, keep: ["*"] } })).toThrow(/Keep-list entry 1 \("\*"\) would keep every value/);
  });

  it("keeps blocked rows with their problems, and leaves excluded rows out of the problems", async () => {
    const t = await table("q,a\nx,\n,y\nz,w\n");
    const p = prepareVersion(t, {
      mapping: [
        { column: "q", role: "input" },
        { column: "a", role: "expected" },
      ],
      excludedRows: [2, 2],
    });
    expect(p.blockedRows).toEqual([1]);
    expect(p.excludedRows).toEqual([2]);
    expect(p.problems.map((x) => [x.code, x.row, x.line])).toEqual([["missing_expected", 1, 2]]);
    expect(p.rowCount).toBe(3);
  });

  it("refuses a mapping with errors and corrections of unknown rows or columns", async () => {
    const t = await table("q,a\nx,y\n");
    expect(() => prepareVersion(t, { mapping: [{ column: "q", role: "input" }] })).toThrow(DatasetError);
    expect(() =>
      prepareVersion(t, {
        mapping: [
          { column: "q", role: "input" },
          { column: "a", role: "expected" },
        ],
        excludedRows: [5],
      }),
    ).toThrow(/Excluded row 5 does not exist/);
  });

  it("completes a mapping in column order and trims names", () => {
    expect(
      completeMapping(
        ["a", "b", "c"],
        [
          { column: "c", role: "actual_output", candidate: " m " },
          { column: "a", role: "input", variable: "x" },
        ],
      ),
    ).toEqual([
      { column: "a", role: "input" },
      { column: "b", role: "extra" },
      { column: "c", role: "actual_output", candidate: "m" },
    ]);
  });
});

describe("corrections and stored rows", () => {
  it("reports unknown rows and columns, and keeps only real edits", () => {
    const t = { columns: ["q", "a"], rows: [["x", ""]] };
    expect(correctionProblems(t, { 2: { a: "1" }, 1: { z: "1" } }, [0])).toHaveLength(3);
    expect(effectiveCorrections(t, { 1: { q: "x", a: "y" } })).toEqual({ 1: { a: "y" } });
  });

  it("round-trips rows through records, also for a column named __proto__", () => {
    const columns = ["__proto__", "b"];
    const records = JSON.parse(JSON.stringify(rowsToRecords(columns, [["1", "2"]]))) as Record<string, string>[];
    expect(recordsToRows(columns, records)).toEqual([["1", "2"]]);
    expect(recordsToRows(["x"], [{}])).toEqual([[""]]);
    expect(storedTable({ fileName: "f.csv", format: "csv" }, columns, records).rowSources).toEqual([1]);
  });
});
