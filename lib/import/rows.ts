/**
 * Collects data rows for every format with the shared rules (issue 3):
 * - a blank row is not a data row: blank rows at the end of the file are ignored silently; blank
 *   rows between data rows are skipped with a warning each. For CSV and worksheets a row is blank
 *   when every cell is empty or only whitespace (a line of spaces is a blank line, not a case
 *   without input); for JSON objects only when every value is the empty string (an object is
 *   written on purpose);
 * - more than `maxRows` data rows → ImportError `too_many_rows`, raised as soon as the extra row is
 *   seen, so parsing stops early (bounded time) and nothing is stored.
 */
import { ImportError, formatCount } from "./errors";
import type { ImportProblem } from "./types";

/** True when every cell is the empty string (whitespace counts as content). */
export function isEmptyRow(cells: readonly string[]): boolean {
  for (let i = 0; i < cells.length; i++) if (cells[i] !== "") return false;
  return true;
}

/** True when every cell is empty or whitespace only (a blank line of a CSV file or worksheet). */
export function isBlankRow(cells: readonly string[]): boolean {
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (c !== "" && c.trim() !== "") return false;
  }
  return true;
}

/** Accumulates rows; see the module comment for the rules. */
export class RowCollector {
  readonly rows: string[][] = [];
  readonly sources: number[] = [];
  private readonly pendingEmpty: number[] = [];

  /**
   * @param fileName for the `too_many_rows` message
   * @param maxRows data-row limit
   * @param sourceKind how `source` numbers are reported in warnings
   * @param problems list that receives the skipped-row warnings
   * @param isSkipped which rows are not data rows (default {@link isBlankRow}; JSON objects use {@link isEmptyRow})
   */
  constructor(
    private readonly fileName: string,
    private readonly maxRows: number,
    private readonly sourceKind: "line" | "sheetRow",
    private readonly problems: ImportProblem[],
    private readonly isSkipped: (cells: readonly string[]) => boolean = isBlankRow,
  ) {}

  /**
   * Adds one row (already split into cells).
   * @param cells the row's cells; kept by reference
   * @param source physical line or sheet row where the row starts
   * @throws ImportError `too_many_rows` when this is data row `maxRows + 1`
   */
  add(cells: string[], source: number): void {
    if (this.isSkipped(cells)) {
      this.pendingEmpty.push(source);
      return;
    }
    if (this.pendingEmpty.length > 0) this.flushEmpty();
    if (this.rows.length >= this.maxRows) {
      throw new ImportError(
        "too_many_rows",
        this.fileName,
        `${this.fileName} has more than ${formatCount(this.maxRows)} data rows; the limit is ${formatCount(this.maxRows)} rows. Split the file or remove rows, then upload it again.`,
        { limit: this.maxRows, actual: this.rows.length + 1 },
      );
    }
    this.rows.push(cells);
    this.sources.push(source);
  }

  /** Number of data rows kept so far. */
  get count(): number {
    return this.rows.length;
  }

  private flushEmpty(): void {
    for (const source of this.pendingEmpty) {
      const where = this.sourceKind === "line" ? { line: source } : { sheetRow: source };
      const label = this.sourceKind === "line" ? `Line ${source}` : `Sheet row ${source}`;
      this.problems.push({
        severity: "warning",
        code: "empty_row",
        ...where,
        message: `${label} is empty and was skipped.`,
      });
    }
    this.pendingEmpty.length = 0;
  }
}
