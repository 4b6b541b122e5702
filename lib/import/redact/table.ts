/**
 * Redaction of a whole table, with its report (issue 3: "applied on save, previewable before").
 * Every column is redacted — mapped or extra — and, because history and recorded outputs are
 * columns too, so are history turns and recorded answers. Rows are never removed, merged or
 * deduplicated; only cell text changes.
 */
import type { ImportTable } from "../types";
import { PII_TYPES, type PiiType } from "./detectors";
import { RowRedactor, type PiiCounts } from "./redact";
import { KeepList, type RedactionSettings } from "./settings";

/** Options of {@link redactTable} and {@link previewRedaction}. */
export interface RedactionOptions {
  /** How many changed cells the report shows before → after (default 20). */
  previewLimit?: number;
  /** Kinds of personal data to redact (default: all of {@link PII_TYPES}). */
  types?: readonly PiiType[];
  /** False turns redaction off: nothing is replaced (the dataset's settings, settings.ts). Default true. */
  enabled?: boolean;
  /** Values and `*` patterns left as written (settings.ts). */
  keep?: readonly string[];
}

/** One changed cell in the preview. `row` is the 1-based data-row number. */
export interface RedactionPreviewCell {
  row: number;
  column: string;
  before: string;
  after: string;
}

/** What redaction replaced. Counts are replacements (occurrences), not distinct values. */
export interface RedactionReport {
  /** Replacements per type over the whole table (every type present, 0 when none). */
  totals: Record<PiiType, number>;
  /** Replacements per column and type, in column order; columns without replacements are left out. */
  columns: { column: string; counts: PiiCounts; total: number }[];
  changedCells: number;
  changedRows: number;
  /** The first `previewLimit` changed cells, in row then column order. */
  preview: RedactionPreviewCell[];
  /** The settings applied: on or off, and the keep-list. */
  settings: RedactionSettings;
  /** Per keep-list entry, in list order: how many values it kept as written. */
  kept: { entry: string; count: number }[];
}

/**
 * Redacts every cell of a table.
 * @param table the table (not modified)
 * @param options preview size, types, and the dataset's settings (off, keep-list)
 * @returns a new table (unchanged rows are shared; every row when redaction is off) and the report
 */
export function redactTable(table: ImportTable, options: RedactionOptions = {}): { table: ImportTable; report: RedactionReport } {
  const rows: string[][] = new Array(table.rows.length);
  const report = run(table, options, (i, row) => {
    rows[i] = row;
  });
  return { table: { ...table, rows }, report };
}

/**
 * Computes the redaction report without building the redacted table (for the preview).
 * @param table the table
 * @param options preview size and types
 * @returns the same report {@link redactTable} would give
 */
export function previewRedaction(table: ImportTable, options: RedactionOptions = {}): RedactionReport {
  return run(table, options, null);
}

function run(table: ImportTable, options: RedactionOptions, keepRow: ((i: number, row: string[]) => void) | null): RedactionReport {
  const limit = options.previewLimit ?? 20;
  const types = options.types ? new Set(options.types) : null;
  const settings: RedactionSettings = { enabled: options.enabled !== false, keep: [...(options.keep ?? [])] };
  const keep = settings.keep.length > 0 ? new KeepList(settings.keep) : null;
  const kept: number[] = settings.keep.map(() => 0);
  const width = table.columns.length;
  const perColumn: PiiCounts[] = table.columns.map(() => ({}));
  const totals = Object.fromEntries(PII_TYPES.map((t) => [t, 0])) as Record<PiiType, number>;
  const preview: RedactionPreviewCell[] = [];
  let changedCells = 0;
  let changedRows = 0;
  for (let i = 0; i < table.rows.length; i++) {
    const row = table.rows[i];
    if (!settings.enabled) {
      if (keepRow) keepRow(i, row);
      continue;
    }
    const redactor = new RowRedactor(types, keep, kept);
    let out: string[] | null = null;
    for (let j = 0; j < width; j++) {
      const cell = row[j];
      const after = redactor.redactCell(cell, perColumn[j]);
      if (after === cell) continue;
      if (!out) out = row.slice();
      out[j] = after;
      changedCells++;
      if (preview.length < limit) preview.push({ row: i + 1, column: table.columns[j], before: cell, after });
    }
    if (out) changedRows++;
    if (keepRow) keepRow(i, out ?? row);
  }
  const columns: RedactionReport["columns"] = [];
  perColumn.forEach((counts, j) => {
    let total = 0;
    for (const t of PII_TYPES) {
      const n = counts[t] ?? 0;
      total += n;
      totals[t] += n;
    }
    if (total > 0) columns.push({ column: table.columns[j], counts, total });
  });
  return { totals, columns, changedCells, changedRows, preview, settings, kept: settings.keep.map((entry, i) => ({ entry, count: kept[i] })) };
}
