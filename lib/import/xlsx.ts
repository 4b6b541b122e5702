/**
 * XLSX → table (issue 3).
 * - Safety first: zip-guard.ts checks the archive (entry count, declared and real expansion)
 *   before SheetJS inflates anything; SheetJS reads only the chosen worksheet and at most
 *   `maxRows + 2 + LEADING_ROWS_SLACK` rows of it (`sheetRows`; read again with the bound moved
 *   down when the table starts lower in the sheet). A worksheet whose declared dimension
 *   (`<dimension ref=…>`) covers more rows below the header, or more columns, than the limits allow
 *   is refused, even if most of it is empty.
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

/**
 * Empty rows tolerated above the header: the first read covers `maxRows + 2 + LEADING_ROWS_SLACK`
 * rows; a table that starts lower is read again with a bound moved down accordingly.
 */
export const LEADING_ROWS_SLACK = 1000;

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
 * @throws ImportError `zip_bomb`, `corrupt`, `unsupported_format` (legacy .xls, encryption,
 *   ZIP64), `sheet_not_found`, `too_many_rows`, `too_many_columns`
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
  // First pass: the workbook part only (sheet names and visibility), no worksheet is parsed.
  const first = readBook(bytes, fileName, { sheets: [] });
  const sheets = sheetList(first);
  if (sheets.length === 0) throw new ImportError("corrupt", fileName, `${fileName} has no worksheets.`);
  const base = { fileName, format: "xlsx" as const, encoding: null, sheets, sourceKind: "sheetRow" as const };

  let chosen: string;
  if (options.sheet !== undefined) {
    const info = sheets.find((s) => s.name === options.sheet);
    if (!info) {
      throw new ImportError(
        "sheet_not_found",
        fileName,
        `${fileName} has no sheet named "${options.sheet}"; its sheets are ${sheets.map((s) => `"${s.name}"`).join(", ")}.`,
      );
    }
    chosen = info.name;
    if (info.hidden) {
      problems.push({ severity: "warning", code: "hidden_sheet", message: `Sheet "${chosen}" is hidden in the workbook; it was read because it was chosen.` });
    }
  } else {
    const visible = sheets.filter((s) => !s.hidden);
    if (visible.length !== 1) {
      const why =
        visible.length === 0
          ? `all ${sheets.length} sheets of ${fileName} are hidden`
          : `${fileName} has ${visible.length} visible sheets (${visible.map((s) => `"${s.name}"`).join(", ")})`;
      return {
        ...base,
        sheet: null,
        needsSheet: true,
        columns: [],
        rows: [],
        rowSources: [],
        problems: [{ severity: "error", code: "needs_sheet", message: `Choose a sheet: ${why}.` }],
      };
    }
    chosen = visible[0].name;
    const hidden = sheets.filter((s) => s.hidden);
    if (hidden.length > 0) {
      problems.push({
        severity: "warning",
        code: "sheet_chosen",
        message: `Sheet "${chosen}" was read automatically because it is the only visible sheet; hidden sheet${hidden.length === 1 ? "" : "s"} ${hidden.map((s) => `"${s.name}"`).join(", ")} ${hidden.length === 1 ? "was" : "were"} not read.`,
      });
    }
  }

  let bound = limits.maxRows + 2 + LEADING_ROWS_SLACK;
  let grid = readGrid(bytes, fileName, chosen, bound, limits);
  const needed = grid.firstRow + limits.maxRows + 2;
  if (grid.firstRow >= 0 && needed > bound && (grid.declaredLastRow >= bound || grid.lastRow >= bound - 1)) {
    // The table starts lower in the sheet: read again so that header + maxRows + 1 rows fit.
    bound = needed;
    grid = readGrid(bytes, fileName, chosen, bound, limits);
  }
  const { ws, firstRow } = grid;

  const declared = grid.declared;
  if (declared) {
    // Rows the sheet claims below its header (or below its declared start when no header was found).
    const top = firstRow >= 0 ? Math.max(firstRow, declared.s.r) : declared.s.r;
    const declaredDataRows = declared.e.r - top;
    if (declaredDataRows > limits.maxRows || (firstRow < 0 && declared.e.r >= bound)) {
      throw new ImportError(
        "too_many_rows",
        fileName,
        `Sheet "${chosen}" of ${fileName} declares ${formatCount(declared.e.r - declared.s.r + 1)} rows (${XLSX.utils.encode_range(declared)}); the limit is ${formatCount(limits.maxRows)} data rows. If most of them are empty, delete the empty rows below the data and save again.`,
        { limit: limits.maxRows, actual: declaredDataRows },
      );
    }
  }
  if (declared && declared.e.c - declared.s.c + 1 > limits.maxColumns) {
    throw new ImportError(
      "too_many_columns",
      fileName,
      `Sheet "${chosen}" of ${fileName} declares ${formatCount(declared.e.c - declared.s.c + 1)} columns (${XLSX.utils.encode_range(declared)}); the limit is ${formatCount(limits.maxColumns)} columns.`,
      { limit: limits.maxColumns, actual: declared.e.c - declared.s.c + 1 },
    );
  }

  const text = grid.text;
  for (const m of (ws["!merges"] ?? []) as XLSX.Range[]) {
    if (m.s.r >= bound) continue;
    const value = text[m.s.r]?.[m.s.c] ?? "";
    const lastR = Math.min(m.e.r, bound - 1);
    const lastC = Math.min(m.e.c, m.s.c + limits.maxColumns);
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
    problems.push({ severity: "warning", code: "no_rows", message: `Sheet "${chosen}" of ${fileName} is empty.` });
    return { ...base, sheet: chosen, needsSheet: false, columns: [], rows: [], rowSources: [], problems };
  }
  const width = maxCol - minCol + 1;
  if (width > limits.maxColumns) {
    throw new ImportError(
      "too_many_columns",
      fileName,
      `Sheet "${chosen}" of ${fileName} has ${formatCount(width)} columns; the limit is ${formatCount(limits.maxColumns)} columns.`,
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
    problems.push({ severity: "warning", code: "no_rows", message: `Sheet "${chosen}" of ${fileName} has a header but no data rows.` });
  }
  const key = (p: ImportProblem) => p.sheetRow ?? 0;
  problems.sort((a, b) => key(a) - key(b));
  return {
    ...base,
    sheet: chosen,
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
  firstRow: number;
  lastRow: number;
  declared: XLSX.Range | null;
  declaredLastRow: number;
}

function readGrid(bytes: Uint8Array, fileName: string, sheet: string, bound: number, limits: ImportLimits): Grid {
  const book = readBook(bytes, fileName, { sheets: [sheet], sheetRows: bound });
  const ws = book.Sheets[sheet];
  if (!ws) throw new ImportError("corrupt", fileName, `${fileName}: sheet "${sheet}" could not be read.`);
  const date1904 = Boolean((book.Workbook?.WBProps as { date1904?: boolean } | undefined)?.date1904);
  const ref = (ws["!fullref"] as string | undefined) ?? (ws["!ref"] as string | undefined);
  const declared = ref ? XLSX.utils.decode_range(ref) : null;
  const data = ((ws as { "!data"?: (SheetCell | undefined)[][] })["!data"] ?? []) as (SheetCell | undefined)[][];
  const text: string[][] = [];
  let firstRow = -1;
  let lastRow = -1;
  const rows = Math.min(data.length, bound);
  const maxC = limits.maxColumns * 2 + 16;
  for (let r = 0; r < rows; r++) {
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
      throw new ImportError("too_many_columns", fileName, `Sheet "${sheet}" of ${fileName} has more than ${formatCount(limits.maxColumns)} columns; the limit is ${formatCount(limits.maxColumns)} columns.`, { limit: limits.maxColumns });
    }
    if (any) {
      text[r] = out;
      if (firstRow < 0) firstRow = r;
      lastRow = r;
    }
  }
  return { ws, text, firstRow, lastRow, declared, declaredLastRow: declared ? declared.e.r : -1 };
}
