/**
 * XLSX → table (issue 3).
 * - Safety first: zip-guard.ts checks the archive (entry count, declared and real expansion of
 *   each part and of the whole) before SheetJS inflates anything. The part limit bounds what
 *   SheetJS parses (the shared strings and the chosen worksheet), so the chosen worksheet is read
 *   whole; we convert cells to text only until `maxRows + 2` non-empty rows are seen (header +
 *   one row over the limit proves the sheet too long).
 * - Rows are the rows that hold data, wherever they are: a declared dimension
 *   (`<dimension ref="A1:AH1048576"/>`, as many tools write it) does not count rows, and a table
 *   may start low in the sheet (issue "What new users hit", item 28). A declared dimension wider
 *   than the column limit is still refused.
 * - Passes over the file: a cheap one for the sheet names (no shared strings, no worksheet), then
 *   the chosen sheet. Only a workbook with several sheets and none chosen needs a pass over the
 *   workbook part (with the shared strings) to learn which sheets are hidden.
 * - Sheets: every sheet is reported with its `hidden` flag. With a `sheet` option that sheet is
 *   read (a hidden one too, with a warning). Without it, the only visible sheet is read (with a
 *   note when hidden sheets were skipped); with several visible sheets nothing is read and the
 *   table comes back with `needsSheet: true` — a hidden sheet is never chosen silently.
 * - The table starts at the first non-empty row (the header) and spans the used columns.
 * - Cells: xlsx-cell.ts (text as stored, exact numbers, ISO dates, cached formula values).
 * - Merged cells: every cell of a merged range takes the value of the range's top-left cell; a
 *   warning names each range.
 */
import * as XLSX from "xlsx";
import { ImportError, formatCount } from "./errors";
import { uniqueHeaders } from "./headers";
import type { ImportLimits } from "./limits";
import { RowCollector } from "./rows";
import type { ImportProblem, ImportTable, SheetInfo } from "./types";
import { cellToText, type SheetCell } from "./xlsx-cell";
import { guardZip, looksLikeZip } from "./zip-guard";

/** Options of {@link parseXlsx}. */
export interface XlsxOptions {
  /** Worksheet name to read. */
  sheet?: string;
}

const READ_OPTIONS: XLSX.ParsingOptions = {
  type: "array",
  dense: true,
  cellNF: true,
  cellHTML: false,
  cellFormula: false,
  cellStyles: false,
  cellDates: false,
  sheetStubs: false,
  WTF: false,
};

/**
 * Parses an XLSX workbook.
 * @param bytes file content (byte limit already checked by the caller)
 * @param fileName for messages
 * @param limits row, column and ZIP limits
 * @param options the worksheet to read
 * @returns the table (`format: "xlsx"`, `encoding: null`, `sheets`, `sheet`, and `needsSheet`
 *   when the caller must choose); `rowSources` are worksheet row numbers
 * @throws ImportError `zip_bomb`, `part_too_large`, `corrupt`, `unsupported_format` (legacy .xls,
 *   encryption, ZIP64), `sheet_not_found`, `too_many_rows`, `too_many_columns`
 */
export async function parseXlsx(bytes: Uint8Array, fileName: string, limits: ImportLimits, options: XlsxOptions = {}): Promise<ImportTable> {
  if (!looksLikeZip(bytes)) {
    if (bytes.length >= 8 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
      throw new ImportError(
        "unsupported_format",
        fileName,
        `${fileName} is a legacy Excel (.xls) or password-protected workbook; save it as .xlsx without a password and upload it again.`,
      );
    }
    throw new ImportError("corrupt", fileName, `${fileName} is not a readable XLSX file (it is not a ZIP archive).`);
  }
  await guardZip(bytes, fileName, limits);

  const problems: ImportProblem[] = [];
  // Sheet names only: SheetJS parses neither the shared strings nor any worksheet for this.
  const names = readBook(bytes, fileName, { bookSheets: true }).SheetNames ?? [];
  if (names.length === 0) throw new ImportError("corrupt", fileName, `${fileName} has no worksheets.`);
  const needsSheet = (sheets: SheetInfo[]): ImportTable => {
    const visible = sheets.filter((s) => !s.hidden);
    const why =
      visible.length === 0
        ? `all ${sheets.length} sheets of ${fileName} are hidden`
        : `${fileName} has ${visible.length} visible sheets (${visible.map((s) => `"${s.name}"`).join(", ")})`;
    return {
      fileName,
      format: "xlsx",
      encoding: null,
      sheets,
      sourceKind: "sheetRow",
      sheet: null,
      needsSheet: true,
      columns: [],
      rows: [],
      rowSources: [],
      problems: [{ severity: "error", code: "needs_sheet", message: `Choose a sheet: ${why}.` }],
    };
  };

  let chosen = options.sheet;
  if (chosen === undefined && names.length > 1) {
    // Which sheets are hidden is in the workbook part; this pass reads no worksheet.
    const sheets = sheetList(readBook(bytes, fileName, { sheets: [] }));
    const visible = sheets.filter((s) => !s.hidden);
    if (visible.length !== 1) return needsSheet(sheets);
    chosen = visible[0].name;
    const hidden = sheets.filter((s) => s.hidden);
    problems.push({
      severity: "warning",
      code: "sheet_chosen",
      message: `Sheet "${chosen}" was read automatically because it is the only visible sheet; hidden sheet${hidden.length === 1 ? "" : "s"} ${hidden.map((s) => `"${s.name}"`).join(", ")} ${hidden.length === 1 ? "was" : "were"} not read.`,
    });
  }
  if (chosen !== undefined && !names.includes(chosen)) {
    throw new ImportError("sheet_not_found", fileName, `${fileName} has no sheet named "${chosen}"; its sheets are ${names.map((n) => `"${n}"`).join(", ")}.`);
  }
  const target = chosen ?? names[0];
  const book = readBook(bytes, fileName, { sheets: [target] });
  const sheets = sheetList(book);
  const info = sheets.find((s) => s.name === target);
  if (info?.hidden) {
    // A lone sheet that is hidden is never read without being chosen.
    if (options.sheet === undefined) return needsSheet(sheets);
    problems.push({ severity: "warning", code: "hidden_sheet", message: `Sheet "${target}" is hidden in the workbook; it was read because it was chosen.` });
  }
  const base = { fileName, format: "xlsx" as const, encoding: null, sheets, sourceKind: "sheetRow" as const };
  const grid = readGrid(book, fileName, target, limits);
  const { ws } = grid;

  const declared = grid.declared;
  if (declared && declared.e.c - declared.s.c + 1 > limits.maxColumns) {
    throw new ImportError(
      "too_many_columns",
      fileName,
      `Sheet "${target}" of ${fileName} declares ${formatCount(declared.e.c - declared.s.c + 1)} columns (${XLSX.utils.encode_range(declared)}); the limit is ${formatCount(limits.maxColumns)} columns.`,
      { limit: limits.maxColumns, actual: declared.e.c - declared.s.c + 1 },
    );
  }

  const text = grid.text;
  // Merged ranges fill down to the last row that holds data, no further (a range may run to the
  // sheet's end). Excel's ranges do not overlap, so more filled cells than the limits allow in a
  // table mean a hostile file: refused rather than filled.
  let fillBudget = (limits.maxRows + 2) * (limits.maxColumns + 1);
  for (const m of (ws["!merges"] ?? []) as XLSX.Range[]) {
    if (m.s.r > grid.lastRow) continue;
    const value = text[m.s.r]?.[m.s.c] ?? "";
    const lastR = Math.min(m.e.r, grid.lastRow);
    const lastC = Math.min(m.e.c, m.s.c + limits.maxColumns);
    fillBudget -= (lastR - m.s.r + 1) * (lastC - m.s.c + 1);
    if (fillBudget < 0) {
      throw new ImportError(
        "too_many_rows",
        fileName,
        `Sheet "${target}" of ${fileName} has merged cells covering more cells than ${formatCount(limits.maxRows)} data rows × ${formatCount(limits.maxColumns)} columns hold; unmerge them or remove rows, then upload it again.`,
        { limit: limits.maxRows },
      );
    }
    for (let r = m.s.r; r <= lastR; r++) {
      const row = (text[r] ??= []);
      for (let c = m.s.c; c <= lastC; c++) row[c] = value;
    }
    const ref = XLSX.utils.encode_range(m);
    problems.push({
      severity: "warning",
      code: "merged_cells",
      sheetRow: m.s.r + 1,
      message: `Cells ${ref} are merged; every cell of the range holds the value of ${XLSX.utils.encode_cell(m.s)}.`,
    });
  }

  // Extent of the table: first non-empty row is the header; used columns after merging.
  let headerRow = -1;
  let minCol = Infinity;
  let maxCol = -1;
  let lastRow = -1;
  for (let r = 0; r < text.length; r++) {
    const row = text[r];
    if (!row) continue;
    for (let c = 0; c < row.length; c++) {
      if (row[c] === undefined || row[c] === "") continue;
      if (headerRow < 0) headerRow = r;
      if (c < minCol) minCol = c;
      if (c > maxCol) maxCol = c;
      lastRow = r;
    }
  }
  if (headerRow < 0) {
    problems.push({ severity: "warning", code: "no_rows", message: `Sheet "${target}" of ${fileName} is empty.` });
    return { ...base, sheet: target, needsSheet: false, columns: [], rows: [], rowSources: [], problems };
  }
  const width = maxCol - minCol + 1;
  if (width > limits.maxColumns) {
    throw new ImportError(
      "too_many_columns",
      fileName,
      `Sheet "${target}" of ${fileName} has ${formatCount(width)} columns; the limit is ${formatCount(limits.maxColumns)} columns.`,
      { limit: limits.maxColumns, actual: width },
    );
  }
  const rowText = (r: number): string[] => {
    const src = text[r];
    const out = new Array<string>(width);
    for (let c = 0; c < width; c++) out[c] = src?.[minCol + c] ?? "";
    return out;
  };
  const header = uniqueHeaders(rowText(headerRow), { sheetRow: headerRow + 1 });
  problems.push(...header.problems);
  const collector = new RowCollector(fileName, limits.maxRows, "sheetRow", problems);
  for (let r = headerRow + 1; r <= lastRow; r++) collector.add(rowText(r), r + 1);
  if (collector.count === 0) {
    problems.push({ severity: "warning", code: "no_rows", message: `Sheet "${target}" of ${fileName} has a header but no data rows.` });
  }
  const key = (p: ImportProblem) => p.sheetRow ?? 0;
  problems.sort((a, b) => key(a) - key(b));
  return {
    ...base,
    sheet: target,
    needsSheet: false,
    columns: header.columns,
    rows: collector.rows,
    headerSource: headerRow + 1,
    headerWidth: width,
    rowSources: collector.sources,
    problems,
  };
}

function readBook(bytes: Uint8Array, fileName: string, extra: XLSX.ParsingOptions): XLSX.WorkBook {
  try {
    return XLSX.read(bytes, { ...READ_OPTIONS, ...extra });
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ImportError("corrupt", fileName, `${fileName} is not a readable XLSX file (${why}).`, { cause });
  }
}

function sheetList(book: XLSX.WorkBook): SheetInfo[] {
  const meta = book.Workbook?.Sheets ?? [];
  return book.SheetNames.map((name, i) => {
    const m = meta.find((s) => s.name === name) ?? meta[i];
    return { name, hidden: Boolean(m && m.Hidden) };
  });
}

interface Grid {
  ws: XLSX.WorkSheet;
  /** text[r][c] for absolute sheet coordinates (0-based), sparse. */
  text: string[][];
  /** Last row (0-based) holding data that was converted; -1 when none. */
  lastRow: number;
  /** The sheet's declared dimension, or null. */
  declared: XLSX.Range | null;
}

/**
 * The chosen sheet's cells as text. Stops after `maxRows + 2` non-empty rows: with the header,
 * that is one data row more than allowed, so the row collector refuses the sheet.
 */
function readGrid(book: XLSX.WorkBook, fileName: string, sheet: string, limits: ImportLimits): Grid {
  const ws = book.Sheets[sheet];
  if (!ws) throw new ImportError("corrupt", fileName, `${fileName}: sheet "${sheet}" could not be read.`);
  const date1904 = Boolean((book.Workbook?.WBProps as { date1904?: boolean } | undefined)?.date1904);
  const ref = ws["!ref"] as string | undefined;
  const declared = ref ? XLSX.utils.decode_range(ref) : null;
  const data = ((ws as { "!data"?: (SheetCell | undefined)[][] })["!data"] ?? []) as (SheetCell | undefined)[][];
  const text: string[][] = [];
  let lastRow = -1;
  let nonEmpty = 0;
  const enough = limits.maxRows + 2;
  const maxC = limits.maxColumns * 2 + 16;
  for (let r = 0; r < data.length && nonEmpty < enough; r++) {
    const src = data[r];
    if (!src) continue;
    const out: string[] = [];
    const n = Math.min(src.length, maxC);
    let any = false;
    for (let c = 0; c < n; c++) {
      const cell = src[c];
      if (!cell) continue;
      const t = cellToText(cell, date1904);
      if (t !== "") {
        out[c] = t;
        any = true;
      }
    }
    if (src.length > maxC && src.slice(maxC).some((c) => c && cellToText(c, date1904) !== "")) {
      throw new ImportError(
        "too_many_columns",
        fileName,
        `Sheet "${sheet}" of ${fileName} has more than ${formatCount(limits.maxColumns)} columns; the limit is ${formatCount(limits.maxColumns)} columns.`,
        { limit: limits.maxColumns },
      );
    }
    if (any) {
      text[r] = out;
      lastRow = r;
      nonEmpty++;
    }
  }
  return { ws, text, lastRow, declared };
}
