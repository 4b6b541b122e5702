/**
 * Checks the preview's corrections and exclusions against the table before a save (the server
 * never trusts the client): every corrected row and column must exist.
 */
import type { ImportTable } from "@/lib/import/types";
import { setOwn } from "./own";
import type { Corrections } from "./types";

/**
 * Problems of corrections and excluded rows, as messages naming the row and column.
 * @param table the parsed table
 * @param corrections row → column → text
 * @param excludedRows data-row numbers
 * @returns messages; empty when everything names an existing row and column
 */
export function correctionProblems(table: Pick<ImportTable, "columns" | "rows">, corrections: Corrections, excludedRows: readonly number[]): string[] {
  const out: string[] = [];
  const rowCount = table.rows.length;
  const known = new Set(table.columns);
  for (const [key, cells] of Object.entries(corrections)) {
    const r = Number(key);
    if (!Number.isInteger(r) || r < 1 || r > rowCount) {
      out.push(`A correction names row ${key}, but the file has rows 1–${rowCount}.`);
      continue;
    }
    for (const column of Object.keys(cells)) {
      if (!known.has(column)) out.push(`The correction of row ${r} names column "${column}", which the file does not have.`);
    }
  }
  for (const r of excludedRows) {
    if (!Number.isInteger(r) || r < 1 || r > rowCount) out.push(`Excluded row ${r} does not exist; the file has rows 1–${rowCount}.`);
  }
  return out;
}

/**
 * Drops corrections that change nothing (same text as the file) and empty row entries, so the
 * version stores only real edits.
 * @param table the parsed table
 * @param corrections row → column → text (assumed valid, see {@link correctionProblems})
 */
export function effectiveCorrections(table: Pick<ImportTable, "columns" | "rows">, corrections: Corrections): Corrections {
  const index = new Map(table.columns.map((c, j) => [c, j]));
  const out: Corrections = {};
  for (const [key, cells] of Object.entries(corrections)) {
    const r = Number(key);
    const row = table.rows[r - 1];
    if (!row) continue;
    const kept: Record<string, string> = {};
    for (const [column, value] of Object.entries(cells)) {
      const j = index.get(column);
      if (j !== undefined && row[j] !== value) setOwn(kept, column, value);
    }
    if (Object.keys(kept).length > 0) out[r] = kept;
  }
  return out;
}
