/**
 * Table export as CSV or JSONL (issue 3).
 * CSV follows RFC 4180 (papaparse `unparse`): comma-separated, CRLF line ends, a field is quoted
 * when it holds a comma, quote, CR or LF (or starts/ends with a space), quotes are doubled.
 * Formula injection: a cell (or header) starting with `=`, `+`, `-`, `@`, tab or CR is prefixed
 * with a single quote `'` so spreadsheets show it as text instead of running it (OWASP "CSV
 * injection"). papaparse's `escapeFormulae: true` uses a pattern that misses multi-line cells
 * (`.` does not cross line breaks), so an explicit first-character pattern is passed instead.
 */
import Papa from "papaparse";
import type { ImportTable } from "./types";

/** A row keyed by column name. Missing, null and undefined cells export as empty. */
export type ExportRow = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** Options of {@link toCsv}. */
export interface CsvExportOptions {
  /** Column order; default: keys of the rows in first-seen order. */
  columns?: readonly string[];
  /** Prefix a UTF-8 byte-order mark (helps Excel open UTF-8). Default false. */
  bom?: boolean;
  /** Line end; default CRLF as RFC 4180 says. */
  newline?: "\r\n" | "\n";
}

/** First characters that make a spreadsheet treat a cell as a formula. */
export const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Writes rows as CSV text.
 * @param rows rows keyed by column name
 * @param options column order, BOM, line end
 * @returns CSV text: a header row, then one record per row; no line end after the last record
 */
export function toCsv(rows: readonly ExportRow[], options: CsvExportOptions = {}): string {
  const columns = options.columns ? [...options.columns] : columnsOf(rows);
  const data = rows.map((r) => columns.map((c) => cellText(Object.prototype.hasOwnProperty.call(r, c) ? r[c] : undefined)));
  const csv = Papa.unparse(
    { fields: columns, data },
    { quotes: false, quoteChar: '"', escapeChar: '"', delimiter: ",", header: true, newline: options.newline ?? "\r\n", escapeFormulae: FORMULA_START },
  );
  return (options.bom ? "\uFEFF" : "") + csv;
}

/**
 * Writes rows as JSON Lines: one compact JSON object per line, keys in column order, every value
 * a string (empty for missing), `\n` after every line.
 * @param rows rows keyed by column name
 * @param columns column order; default: keys of the rows in first-seen order
 */
export function toJsonl(rows: readonly ExportRow[], columns?: readonly string[]): string {
  const cols = columns ? [...columns] : columnsOf(rows);
  let out = "";
  for (const r of rows) {
    const obj = Object.fromEntries(cols.map((c) => [c, cellText(Object.prototype.hasOwnProperty.call(r, c) ? r[c] : undefined)]));
    out += JSON.stringify(obj) + "\n";
  }
  return out;
}

/**
 * The rows of a parsed table as objects keyed by column name (safe for any column name,
 * including `__proto__`).
 */
export function tableRecords(table: Pick<ImportTable, "columns" | "rows">): Record<string, string>[] {
  return table.rows.map((row) => Object.fromEntries(table.columns.map((c, j) => [c, row[j] ?? ""])));
}

function columnsOf(rows: readonly ExportRow[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

function cellText(v: string | number | boolean | null | undefined): string {
  return v === null || v === undefined ? "" : String(v);
}
