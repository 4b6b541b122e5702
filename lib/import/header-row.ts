/**
 * Choosing the header row (item 29). The parsers take the first non-empty row as the header, so a
 * sheet or CSV with a title and a blank row above its header comes out with the title as the only
 * column name and the real header as data row 1. This works on the parsed table — after parsing,
 * for CSV and worksheets alike — and moves the header down to a chosen row:
 * - a header is named by where it is in the file: its line (CSV) or sheet row (XLSX), as problems
 *   and row sources are; `0` (or the header as read) keeps the table as it is;
 * - the rows above the new header are left out and reported in one warning that quotes them;
 * - columns at the right whose new header cell and data cells are all empty (the width of the old
 *   title) are dropped; an empty header cell with values below gets a `column_N` name (warning);
 * - problems of the old header and of the rows above it go; `ragged_row` problems go too (they
 *   compared rows with the old header's width); other problems keep their place, with `row`
 *   renumbered from the new header.
 * JSON and JSONL have no header row (their keys are the column names).
 */
import { ImportError } from "./errors";
import { uniqueHeaders } from "./headers";
import { isBlankRow } from "./rows";
import type { ImportProblem, ImportTable } from "./types";

/** One row the user may choose as the header: where it is, and its non-empty cells. */
export interface HeaderChoice {
  /** Line (CSV) or sheet row (XLSX) of the row. */
  source: number;
  cells: string[];
  /** True for the header the parser took. */
  asRead: boolean;
}

/** Data rows offered as header candidates (and searched by {@link detectHeaderRow}). */
const CANDIDATE_ROWS = 10;

const hasHeaderRow = (t: ImportTable) => (t.format === "csv" || t.format === "xlsx") && t.headerSource !== undefined;

/** The header cells the file really has (not the names made up for empty or repeated cells). */
function headerCellsAsRead(t: ImportTable): string[] {
  const made = new Set<string>();
  for (const p of t.problems) {
    const at = p.line ?? p.sheetRow;
    if ((p.code === "empty_header" || p.code === "duplicate_header") && p.column !== undefined && at === t.headerSource) made.add(p.column);
  }
  return t.columns.slice(0, t.headerWidth ?? t.columns.length).filter((c) => !made.has(c));
}

const nonBlank = (cells: readonly string[]) => cells.filter((c) => c.trim() !== "");

/**
 * The rows the user may choose as the header: the header as read, then the first data rows.
 * @param table a parsed CSV or worksheet table
 * @param max how many data rows to offer (default 10)
 * @returns the choices in file order; empty for JSON, JSONL and tables without a header
 */
export function headerChoices(table: ImportTable, max = CANDIDATE_ROWS): HeaderChoice[] {
  if (!hasHeaderRow(table)) return [];
  const out: HeaderChoice[] = [{ source: table.headerSource!, cells: headerCellsAsRead(table), asRead: true }];
  for (let i = 0; i < table.rows.length && i < max; i++) out.push({ source: table.rowSources[i], cells: nonBlank(table.rows[i]), asRead: false });
  return out;
}

/**
 * Detects the obvious case: the header as read names at most one column (a title) while the table
 * has several, and one of the first data rows names at least two, all different and short. That
 * row is the header.
 * @param table a parsed table
 * @returns the line (CSV) or sheet row (XLSX) of the detected header, or null to keep the table as read
 */
export function detectHeaderRow(table: ImportTable): number | null {
  if (!hasHeaderRow(table) || table.columns.length < 2) return null;
  if (headerCellsAsRead(table).filter((c) => c.trim() !== "").length > 1) return null;
  for (let i = 0; i < table.rows.length && i < CANDIDATE_ROWS; i++) {
    const cells = nonBlank(table.rows[i]).map((c) => c.trim());
    if (cells.length < 2) continue;
    if (new Set(cells).size === cells.length && cells.every((c) => c.length <= 100)) return table.rowSources[i];
    return null;
  }
  return null;
}

/**
 * Why a header row cannot be used, or null when it can.
 * @param table a parsed table
 * @param source the line (CSV) or sheet row (XLSX) of the wanted header; 0 = as read
 * @returns a message naming the file and the rows that can be chosen, or null
 */
export function headerRowProblem(table: ImportTable, source: number): string | null {
  if (source === 0 || source === table.headerSource) return null;
  if (table.format === "json" || table.format === "jsonl") {
    return `${table.fileName} is ${table.format === "json" ? "JSON" : "JSON Lines"}: its keys are the column names, so it has no header row to choose.`;
  }
  if (Number.isInteger(source) && table.rowSources.includes(source)) return null;
  const what = table.sourceKind === "line" ? "Line" : "Sheet row";
  const plural = table.sourceKind === "line" ? "lines" : "sheet rows";
  const first = table.rowSources[0];
  const last = table.rowSources[table.rowSources.length - 1];
  const range = first === undefined ? "" : first === last ? ` or ${plural.replace(/s$/, "")} ${first}` : ` or one of ${plural} ${first}–${last}`;
  return `${what} ${source} of ${table.fileName} is not a row of its table (blank, or before the first row read); choose ${what.toLowerCase()} ${table.headerSource ?? 1}${range}.`;
}

/**
 * The table with the chosen row as its header (see the module comment).
 * @param table a parsed table (not modified)
 * @param source the line (CSV) or sheet row (XLSX) of the header; 0 or the header as read → `table` itself
 * @returns the re-headed table
 * @throws ImportError `header_row_not_found` with {@link headerRowProblem}'s message when the row cannot be the header
 */
export function withHeaderRow(table: ImportTable, source: number): ImportTable {
  if (source === 0 || source === table.headerSource) return table;
  const problem = headerRowProblem(table, source);
  if (problem) throw new ImportError("header_row_not_found", table.fileName, problem);
  const k = table.rowSources.indexOf(source);
  const header = table.rows[k];
  const data = table.rows.slice(k + 1);
  let width = table.columns.length;
  while (width > 1 && header[width - 1].trim() === "" && data.every((r) => r[width - 1].trim() === "")) width--;
  const lineKind = table.sourceKind === "line";
  const at = (n: number) => (lineKind ? { line: n } : { sheetRow: n });
  const names = uniqueHeaders(header.slice(0, width), at(source));

  const oldStart = table.headerSource ?? table.rowSources[0];
  const leftOut = [...headerCellsAsRead(table), ...table.rows.slice(0, k).flatMap(nonBlank)].filter((c) => c.trim() !== "");
  const label = lineKind ? "Line" : "Sheet row";
  const span = source - 1 > oldStart ? `${label}s ${oldStart}–${source - 1} are` : `${label} ${oldStart} is`;
  const quoted =
    leftOut.length === 0
      ? ""
      : `: ${leftOut
          .slice(0, 5)
          .map((c) => `"${c.length > 80 ? `${c.slice(0, 79)}…` : c}"`)
          .join(", ")}${leftOut.length > 5 ? ", …" : ""}`;
  const problems: ImportProblem[] = [
    {
      severity: "warning",
      code: "above_header",
      ...at(oldStart),
      message: `${span} above the header (${label.toLowerCase()} ${source}) and were left out${quoted}.`,
    },
    ...names.problems,
  ];
  for (const p of table.problems) {
    const where = p.line ?? p.sheetRow;
    if (p.code === "ragged_row" || p.code === "no_rows") continue;
    if (where !== undefined && where <= source) continue;
    if (p.row !== undefined) {
      if (p.row <= k + 1) continue;
      problems.push({ ...p, row: p.row - (k + 1) });
    } else problems.push(p);
  }
  const rows = data.map((r) => (r.length === width ? r : r.slice(0, width)));
  if (rows.length === 0) problems.push({ severity: "warning", code: "no_rows", message: `${table.fileName} has a header but no data rows.` });
  const key = (p: ImportProblem) => p.line ?? p.sheetRow ?? 0;
  problems.sort((a, b) => key(a) - key(b));
  return {
    ...table,
    columns: names.columns,
    rows: rows.filter((r) => !isBlankRow(r)),
    rowSources: table.rowSources.slice(k + 1).filter((_, i) => !isBlankRow(rows[i])),
    headerSource: source,
    headerWidth: width,
    problems,
  };
}
