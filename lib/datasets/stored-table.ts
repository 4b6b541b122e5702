/**
 * A saved version's rows back into an {@link ImportTable}, so the import core's mapping code can
 * run on them again ("Use a dataset", the version page). Stored rows are objects keyed by column
 * name (db/schema.ts `dataset_versions.rows`).
 */
import type { ImportFormat, ImportTable } from "@/lib/import/types";
import { setOwn } from "./own";

/**
 * Rows as objects keyed by column name (the stored form). Safe for any column name, including
 * `__proto__`.
 * @param columns column names in order
 * @param rows cells in column order
 */
export function rowsToRecords(columns: readonly string[], rows: readonly string[][]): Record<string, string>[] {
  return rows.map((row) => {
    const o: Record<string, string> = {};
    columns.forEach((c, j) => setOwn(o, c, row[j] ?? ""));
    return o;
  });
}

/**
 * Stored rows back to cells in column order; a missing key reads as an empty cell.
 * @param columns column names in order
 * @param records rows keyed by column name
 */
export function recordsToRows(columns: readonly string[], records: readonly Record<string, string>[]): string[][] {
  return records.map((r) => columns.map((c) => (Object.prototype.hasOwnProperty.call(r, c) ? String(r[c] ?? "") : "")));
}

/**
 * A table over stored rows. Row sources are the data-row numbers (the file's line numbers are in
 * the version's stored problems, not here), so problems computed on this table carry `row` only.
 * @param meta file name and format of the version
 * @param columns column names in order
 * @param records stored rows
 */
export function storedTable(meta: { fileName: string; format: string }, columns: readonly string[], records: readonly Record<string, string>[]): ImportTable {
  const rows = recordsToRows(columns, records);
  return {
    fileName: meta.fileName,
    format: meta.format as ImportFormat,
    encoding: null,
    columns: [...columns],
    rows,
    sourceKind: "line",
    rowSources: rows.map((_, i) => i + 1),
    problems: [],
  };
}
