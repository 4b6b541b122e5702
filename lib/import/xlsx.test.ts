import { describe, expect, it, vi } from "vitest";
import * as XLSX from "xlsx";
import { fixture } from "./fixtures/load";
import { inlineRow, rawWorkbook, sharedStringsBomb } from "./fixtures/hostile-xlsx";
import { resolveLimits } from "./limits";
import { parseFile } from "./parse";
import { parseXlsx } from "./xlsx";

const limits = resolveLimits();
const xlsx = (path: string, sheet?: string) => parseXlsx(fixture(path), path.split("/").pop()!, limits, { sheet });

function workbook(rows: unknown[][], ref?: string): Uint8Array {
  const ws = XLSX.utils.aoa_to_sheet(rows);
  if (ref) ws["!ref"] = ref;
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, "S");
  return new Uint8Array(XLSX.write(wb, { type: "buffer", bookType: "xlsx", compression: true }) as Buffer);
}

describe("XLSX sheets", () => {
  it("lists every sheet with its hidden flag and asks the caller to choose among visible ones", async () => {
    const t = await xlsx("xlsx/multi-sheet.xlsx");
    expect(t.format).toBe("xlsx");
    expect(t.encoding).toBeNull();
    expect(t.sheets).toEqual([
      { name: "Cases", hidden: false },
      { name: "Archive", hidden: false },
      { name: "Secret", hidden: true },
      { name: "Internal", hidden: true },
    ]);
    expect(t.needsSheet).toBe(true);
    expect(t.sheet).toBeNull();
    expect(t.columns).toEqual([]);
    expect(t.rows).toEqual([]);
    expect(t.problems).toEqual([
      { severity: "error", code: "needs_sheet", message: 'Choose a sheet: multi-sheet.xlsx has 2 visible sheets ("Cases", "Archive").' },
    ]);
  });

  it("reads the chosen sheet", async () => {
    const t = await xlsx("xlsx/multi-sheet.xlsx", "Archive");
    expect(t.needsSheet).toBe(false);
    expect(t.sheet).toBe("Archive");
    expect(t.columns).toEqual(["question", "answer"]);
    expect(t.rows).toEqual([
      ["old?", "yes"],
      ["older?", "no"],
    ]);
    expect(t.rowSources).toEqual([2, 3]);
    expect(t.sourceKind).toBe("sheetRow");
    expect(t.problems).toEqual([]);
  });

  it("reads a hidden sheet only when chosen, and warns", async () => {
    const t = await xlsx("xlsx/multi-sheet.xlsx", "Secret");
    expect(t.rows).toEqual([["do not read"]]);
    expect(t.problems).toEqual([
      { severity: "warning", code: "hidden_sheet", message: 'Sheet "Secret" is hidden in the workbook; it was read because it was chosen.' },
    ]);
  });

  it("refuses a sheet name the workbook does not have", async () => {
    await expect(xlsx("xlsx/multi-sheet.xlsx", "Nope")).rejects.toMatchObject({
      code: "sheet_not_found",
      message: 'multi-sheet.xlsx has no sheet named "Nope"; its sheets are "Cases", "Archive", "Secret", "Internal".',
    });
  });

  it("chooses the only visible sheet automatically and says so", async () => {
    const t = await xlsx("xlsx/one-visible.xlsx");
    expect(t.sheet).toBe("Data");
    expect(t.sheets).toEqual([
      { name: "Lookup", hidden: true },
      { name: "Data", hidden: false },
    ]);
    expect(t.rows).toEqual([["Capital of France?", "Paris"]]);
    expect(t.problems).toEqual([
      {
        severity: "warning",
        code: "sheet_chosen",
        message: 'Sheet "Data" was read automatically because it is the only visible sheet; hidden sheet "Lookup" was not read.',
      },
    ]);
  });
});

describe("XLSX cells", () => {
  it("reads text as stored, numbers exactly, dates as ISO text, formulas as cached values", async () => {
    const t = await xlsx("xlsx/types.xlsx");
    expect(t.columns).toEqual(["kind", "value"]);
    expect(Object.fromEntries(t.rows)).toEqual({
      "text 007": "007",
      "text 1e5": "1e5",
      "text TRUE": "TRUE",
      number: "100000",
      decimal: "0.30000000000000004",
      "formatted 0.00": "1.5",
      percent: "0.25",
      "big number": "12345678901234567000",
      "huge number": "1e+21",
      negative: "-42.5",
      date: "2024-03-05",
      "date builtin": "2024-03-05",
      datetime: "2024-03-05T14:30:00",
      "datetime midnight": "2024-03-05T00:00:00",
      time: "18:00:00",
      boolean: "TRUE",
      error: "#DIV/0!",
      "formula number": "42",
      "formula text": "AB",
      "formula date": "2024-03-06",
      unicode: "naïve – “quoted” 😀",
      "multi-line": "line 1\nline 2",
    });
    expect(t.rows).toHaveLength(22);
    expect(t.problems).toEqual([]);
  });

  it("honours the 1904 date system", async () => {
    expect((await xlsx("xlsx/date1904.xlsx")).rows).toEqual([["date", "2024-03-05"]]);
  });

  it("fills merged ranges with the top-left value and names each range; headers made unique", async () => {
    const t = await xlsx("xlsx/merged.xlsx");
    expect(t.columns).toEqual(["group", "question", "column_3", "question_2"]);
    expect(t.rows).toEqual([
      ["shared", "q1", "a", "x"],
      ["shared", "q2", "b", "y"],
      ["shared", "q3", "c", "z"],
      ["solo", "wide", "wide", "w"],
    ]);
    expect(t.problems).toEqual([
      { severity: "warning", code: "empty_header", sheetRow: 1, column: "column_3", message: 'Column 3 has no header name; it is stored as "column_3".' },
      {
        severity: "warning",
        code: "duplicate_header",
        sheetRow: 1,
        column: "question_2",
        message: 'Header "question" appears more than once; column 4 is stored as "question_2".',
      },
      { severity: "warning", code: "merged_cells", sheetRow: 2, message: "Cells A2:A4 are merged; every cell of the range holds the value of A2." },
      { severity: "warning", code: "merged_cells", sheetRow: 5, message: "Cells B5:C5 are merged; every cell of the range holds the value of B5." },
    ]);
  });

  it("starts the table at its first non-empty cell; empty rows inside are skipped, trailing ones ignored", async () => {
    const t = await xlsx("xlsx/offset-table.xlsx");
    expect(t.columns).toEqual(["question", "answer"]);
    expect(t.rows).toEqual([
      ["q1", "a1"],
      ["q2", "a2"],
    ]);
    expect(t.rowSources).toEqual([4, 6]);
    expect(t.problems).toEqual([{ severity: "warning", code: "empty_row", sheetRow: 5, message: "Sheet row 5 is empty and was skipped." }]);
  });
});

describe("XLSX limits and safety", () => {
  it("reads the rows that hold data when the sheet declares a million rows (issue 'What new users hit', item 28)", async () => {
    const t = await xlsx("xlsx/huge-dimension.xlsx");
    expect(t.sheet).toBe("Huge");
    expect(t.columns).toEqual(["question", "answer"]);
    expect(t.rows).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
    expect(t.rowSources).toEqual([2, 3]);
    expect(t.problems).toEqual([]);
  });

  it('reads 4 rows under <dimension ref="A1:AH1048576"/>, as other tools write it', async () => {
    const rows = [
      ["id", "question", "answer"],
      ["c1", "q1", "a1"],
      ["c2", "q2", "a2"],
      ["c3", "q3", "a3"],
    ].map((cells, i) => inlineRow(i + 1, cells));
    const t = await parseXlsx(rawWorkbook(rows.join(""), { dimension: "A1:AH1048576" }), "tool.xlsx", limits);
    expect(t.columns).toEqual(["id", "question", "answer"]);
    expect(t.rows).toEqual([
      ["c1", "q1", "a1"],
      ["c2", "q2", "a2"],
      ["c3", "q3", "a3"],
    ]);
  });

  it("still refuses more data rows than the limit when they lie far below the first ones and no dimension says so", async () => {
    const rows = [inlineRow(1, ["question", "answer"]), ...[2, 3, 4, 1008, 1009, 1010].map((r) => inlineRow(r, [`q${r}`, `a${r}`]))];
    const bytes = rawWorkbook(rows.join(""));
    await expect(parseXlsx(bytes, "gap.xlsx", resolveLimits({ maxRows: 5 }))).rejects.toMatchObject({ code: "too_many_rows" });
    const t = await parseXlsx(bytes, "gap.xlsx", resolveLimits({ maxRows: 6 }));
    expect(t.rows.map((r) => r[0])).toEqual(["q2", "q3", "q4", "q1008", "q1009", "q1010"]);
    expect(t.rowSources).toEqual([2, 3, 4, 1008, 1009, 1010]);
  });

  it("counts data rows from the header even when the table starts low in the sheet", async () => {
    const rows = (n: number) => [...Array.from({ length: 10 }, () => []), ["q", "a"], ...Array.from({ length: n }, (_, i) => [`q${i}`, `a${i}`])];
    const ok = await parseXlsx(workbook(rows(5)), "low.xlsx", resolveLimits({ maxRows: 5 }));
    expect(ok.rows).toHaveLength(5);
    expect(ok.rows[4]).toEqual(["q4", "a4"]);
    expect(ok.rowSources).toEqual([12, 13, 14, 15, 16]);
    await expect(parseXlsx(workbook(rows(6)), "low.xlsx", resolveLimits({ maxRows: 5 }))).rejects.toMatchObject({ code: "too_many_rows" });
  });

  it("refuses more data rows than the limit when no dimension is declared too", async () => {
    const rows = [["q"], ...Array.from({ length: 8 }, (_, i) => [`q${i}`])];
    await expect(parseXlsx(workbook(rows), "many.xlsx", resolveLimits({ maxRows: 7 }))).rejects.toMatchObject({ code: "too_many_rows" });
    expect((await parseXlsx(workbook(rows), "many.xlsx", resolveLimits({ maxRows: 8 }))).rows).toHaveLength(8);
  });

  it("reads a table whose header lies below the first thousand rows, counting only its data rows", async () => {
    const rows = [...Array.from({ length: 1010 }, () => []), ["q", "a"], ["x", "y"], ["z", "w"]];
    const t = await parseXlsx(workbook(rows), "deep.xlsx", resolveLimits({ maxRows: 5 }));
    expect(t.rows).toEqual([
      ["x", "y"],
      ["z", "w"],
    ]);
    expect(t.rowSources).toEqual([1012, 1013]);
    await expect(parseXlsx(workbook(rows), "deep.xlsx", resolveLimits({ maxRows: 1 }))).rejects.toMatchObject({ code: "too_many_rows" });
  });

  it("fills a merged range only down to the last row that holds data", async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ["group", "question"],
      ["g", "q1"],
      [null, "q2"],
    ]);
    ws["!merges"] = [XLSX.utils.decode_range("A2:A1048576")];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, "S");
    const bytes = new Uint8Array(XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer);
    const t = await parseXlsx(bytes, "m.xlsx", limits);
    expect(t.rows).toEqual([
      ["g", "q1"],
      ["g", "q2"],
    ]);
  });

  it("refuses merged ranges that cover more cells than the row and column limits allow (they overlap)", async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ["a", "b", "c"],
      ["1", "2", "3"],
      ["4", "5", "6"],
    ]);
    ws["!merges"] = Array.from({ length: 20 }, () => XLSX.utils.decode_range("A1:C3"));
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, "S");
    const bytes = new Uint8Array(XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer);
    await expect(parseXlsx(bytes, "m.xlsx", resolveLimits({ maxRows: 2, maxColumns: 3 }))).rejects.toMatchObject({
      code: "too_many_rows",
      message: 'Sheet "S" of m.xlsx has merged cells covering more cells than 2 data rows × 3 columns hold; unmerge them or remove rows, then upload it again.',
    });
  });

  it("reads a formula without a saved value as an empty cell", async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ["q", "a"],
      ["x", null],
    ]);
    ws["B2"] = { t: "n", f: "1+1" } as XLSX.CellObject;
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, "S");
    const bytes = new Uint8Array(XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer);
    expect((await parseXlsx(bytes, "f.xlsx", limits)).rows).toEqual([["x", ""]]);
  });

  it("refuses a sheet that declares too many columns", async () => {
    await expect(parseXlsx(workbook([["a", "b"]], "A1:Z2"), "wide.xlsx", resolveLimits({ maxColumns: 10 }))).rejects.toMatchObject({
      code: "too_many_columns",
      message: 'Sheet "S" of wide.xlsx declares 26 columns (A1:Z2); the limit is 10 columns.',
    });
  });

  it("refuses a zip bomb without inflating it", async () => {
    // Counts inflations instead of timing them: the guard reads the declared sizes only, and SheetJS
    // (which runs after the guard) is never reached.
    let inflations = 0;
    const Real = globalThis.DecompressionStream;
    vi.stubGlobal(
      "DecompressionStream",
      class extends Real {
        constructor(format: CompressionFormat) {
          super(format);
          inflations++;
        }
      },
    );
    try {
      await expect(xlsx("xlsx/zip-bomb.xlsx")).rejects.toMatchObject({
        code: "zip_bomb",
        message: "zip-bomb.xlsx looks like a zip bomb: entry xl/worksheets/sheet1.xml would expand 1029-fold (63.7 KB → 64 MB); the limit is 200-fold.",
      });
      expect(inflations).toBe(0);
      // The counter sees inflations: a normal workbook's entries are inflated to prove their sizes.
      await xlsx("xlsx/types.xlsx");
      expect(inflations).toBeGreaterThan(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("refuses a 2.2 MB workbook holding 62 MB of shared strings, naming the part and the limit", async () => {
    await expect(parseXlsx(sharedStringsBomb(62 * 1024 * 1024), "strings.xlsx", limits)).rejects.toMatchObject({
      code: "part_too_large",
      message: expect.stringMatching(/^strings\.xlsx: its shared strings \(part xl\/sharedStrings\.xml\) unpack to 62\.0 MB; the limit is 16 MB per part\./),
    });

    // Building the 62 MB workbook in memory takes seconds on a loaded machine; the refusal itself does not.
  }, 120_000);

  it("reads the same kind of workbook when its shared strings fit the part limit", async () => {
    const t = await parseXlsx(sharedStringsBomb(1024 * 1024), "strings.xlsx", limits);
    expect(t.columns).toEqual(["question", "answer"]);
    expect(t.rows).toEqual([
      ["2+2?", "4"],
      ["Capital of France?", "Paris"],
    ]);
  });

  it("refuses an archive whose entries expand beyond their declared sizes", async () => {
    await expect(xlsx("xlsx/lying-sizes.xlsx")).rejects.toMatchObject({
      code: "zip_bomb",
      message: "lying-sizes.xlsx looks like a zip bomb: entry xl/worksheets/sheet1.xml expands beyond the 3.9 KB it declares.",
    });
  });

  it("refuses bytes that are not a workbook", async () => {
    await expect(xlsx("xlsx/not-a-zip.xlsx")).rejects.toMatchObject({
      code: "corrupt",
      message: "not-a-zip.xlsx is not a readable XLSX file (it is not a ZIP archive).",
    });
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    await expect(parseXlsx(ole, "old.xlsx", limits)).rejects.toMatchObject({ code: "unsupported_format" });
    await expect(parseFile(ole, "old.xls")).rejects.toMatchObject({
      code: "unsupported_format",
      message: "old.xls: legacy Excel (.xls) files are not supported; save the workbook as .xlsx.",
    });
  });

  it("refuses a truncated workbook", async () => {
    const bytes = fixture("xlsx/types.xlsx");
    await expect(parseXlsx(bytes.subarray(0, bytes.length - 200), "cut.xlsx", limits)).rejects.toMatchObject({ code: "corrupt" });
  });
});
