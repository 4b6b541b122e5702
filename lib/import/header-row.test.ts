import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import { utf8 } from "./fixtures/load";
import { detectHeaderRow, headerChoices, headerRowProblem, withHeaderRow } from "./header-row";
import { resolveLimits } from "./limits";
import { parseFile } from "./parse";

const limits = resolveLimits();

/** A CSV exported from a spreadsheet: a title, a blank line (both padded with commas), then the header. */
const EXPORTED = [
  "Customer FAQ export,,",
  ",,",
  "question,answer,tier",
  "Where is my order?,Ask for the number,gold",
  "Can I return it?,Within 30 days,silver",
  "",
].join("\n");
/** The same written by hand: the title and the blank line have no commas. */
const HANDWRITTEN = [
  "Customer FAQ export",
  "",
  "question,answer,tier",
  "Where is my order?,Ask for the number,gold",
  "Can I return it?,Within 30 days,silver",
].join("\n");

describe("header row: a title and a blank line above the header", () => {
  it("the parser reads the title as the header and remembers where it was", async () => {
    const t = await parseFile(utf8(EXPORTED), "faq.csv");
    expect(t.headerSource).toBe(1);
    expect(t.columns).toEqual(["Customer FAQ export", "column_2", "column_3"]);
    expect(t.rows[0]).toEqual(["question", "answer", "tier"]);
  });

  it("detects the obvious case (spreadsheet export and hand-written) and offers the first rows as choices", async () => {
    for (const text of [EXPORTED, HANDWRITTEN]) {
      const t = await parseFile(utf8(text), "faq.csv");
      expect(detectHeaderRow(t)).toBe(3);
      expect(headerChoices(t).slice(0, 2)).toEqual([
        { source: 1, cells: ["Customer FAQ export"], asRead: true },
        { source: 3, cells: ["question", "answer", "tier"], asRead: false },
      ]);
    }
  });

  it("uses the chosen row as the header: columns, rows, row numbers and problems follow; the rows above are reported, not lost", async () => {
    for (const text of [EXPORTED, HANDWRITTEN]) {
      const t = withHeaderRow(await parseFile(utf8(text), "faq.csv"), 3);
      expect(t.headerSource).toBe(3);
      expect(t.columns).toEqual(["question", "answer", "tier"]);
      expect(t.rows).toEqual([
        ["Where is my order?", "Ask for the number", "gold"],
        ["Can I return it?", "Within 30 days", "silver"],
      ]);
      expect(t.rowSources).toEqual([4, 5]);
      expect(t.problems).toEqual([
        { severity: "warning", code: "above_header", line: 1, message: 'Lines 1–2 are above the header (line 3) and were left out: "Customer FAQ export".' },
      ]);
    }
  });

  it("keeps a file whose header is fine as it is", async () => {
    const t = await parseFile(utf8("question,answer\nHi,Hello\nBye,See you\n"), "ok.csv");
    expect(detectHeaderRow(t)).toBeNull();
    expect(withHeaderRow(t, 0)).toBe(t);
    expect(withHeaderRow(t, 1)).toBe(t);
    // A one-column file is never re-headed.
    expect(detectHeaderRow(await parseFile(utf8("question\nHi\n"), "one.csv"))).toBeNull();
  });

  it("a later header row: empty header cells with values get names, values above are listed", async () => {
    const t = withHeaderRow(await parseFile(utf8("Report,,\nquestion,answer,\nHi,Hello,x\n"), "r.csv"), 2);
    expect(t.columns).toEqual(["question", "answer", "column_3"]);
    expect(t.rows).toEqual([["Hi", "Hello", "x"]]);
    expect(t.problems.map((p) => p.code)).toEqual(["above_header", "empty_header"]);
  });

  it("refuses a row that is not in the table, and JSON files, with a clear message", async () => {
    const t = await parseFile(utf8(EXPORTED), "faq.csv");
    expect(headerRowProblem(t, 3)).toBeNull();
    expect(headerRowProblem(t, 0)).toBeNull();
    expect(headerRowProblem(t, 2)).toBe(
      "Line 2 of faq.csv is not a row of its table (blank, or before the first row read); choose line 1 or one of lines 3–5.",
    );
    expect(headerRowProblem(t, 99)).toBe(
      "Line 99 of faq.csv is not a row of its table (blank, or before the first row read); choose line 1 or one of lines 3–5.",
    );
    const j = await parseFile(utf8('[{"q":"a"}]'), "x.json");
    expect(headerRowProblem(j, 2)).toBe("x.json is JSON: its keys are the column names, so it has no header row to choose.");
    expect(() => withHeaderRow(t, 2)).toThrow("Line 2 of faq.csv is not a row of its table");
  });

  it("works on a worksheet with a merged title row (sheet rows)", async () => {
    const ws = XLSX.utils.aoa_to_sheet([["Customer FAQ export"], [], ["question", "answer"], ["Hi", "Hello"]]);
    ws["!merges"] = [{ s: { r: 0, c: 0 }, e: { r: 0, c: 1 } }];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, "Cases");
    const bytes = new Uint8Array(XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer);
    const parsed = await parseFile(bytes, "faq.xlsx", { limits });
    expect(parsed.headerSource).toBe(1);
    expect(detectHeaderRow(parsed)).toBe(3);
    const t = withHeaderRow(parsed, 3);
    expect(t.columns).toEqual(["question", "answer"]);
    expect(t.rows).toEqual([["Hi", "Hello"]]);
    expect(t.rowSources).toEqual([4]);
    expect(t.problems).toEqual([
      {
        severity: "warning",
        code: "above_header",
        sheetRow: 1,
        message: 'Sheet rows 1–2 are above the header (sheet row 3) and were left out: "Customer FAQ export".',
      },
    ]);
  });
});
