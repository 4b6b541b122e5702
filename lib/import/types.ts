/**
 * Shared types of the import core: the parsed table, problems and parse options.
 * A table is row-major: `rows[i][j]` is the text of column `columns[j]` in
 * data row `i + 1`. Every cell is text (DESIGN.md §5 "Every cell is read as text").
 */
import type { ImportLimits } from "./limits";

/** File formats the importer reads. */
export type ImportFormat = "csv" | "xlsx" | "json" | "jsonl";

/** Text encodings the decoder recognises (see decode.ts). */
export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

/** CSV delimiters that are detected automatically (see csv.ts). */
export type CsvDelimiter = "," | ";" | "\t" | "|";

/** One worksheet of a workbook. `hidden` is true for hidden and "very hidden" sheets. */
export interface SheetInfo {
  name: string;
  hidden: boolean;
}

/** Severity of a problem: `error` blocks the affected rows (or the file) until fixed; `warning` informs. */
export type ProblemSeverity = "error" | "warning";

/**
 * A problem found while parsing or mapping. Where it is known:
 * - `line`: 1-based physical line of a text file (CSV, JSON, JSONL); the CSV header is line 1.
 *   For a CSV record that spans lines it is the line where the record starts.
 * - `row`: 1-based data-row number in the table (the first row after the header is row 1). The
 *   same numbering is used by case drafts, corrections and excluded rows.
 * - `sheetRow`: XLSX only, the worksheet's own 1-based row number.
 * - `column`: the stored column name.
 * `code` is a stable machine-readable tag (e.g. `ragged_row`, `missing_input`).
 */
export interface ImportProblem {
  severity: ProblemSeverity;
  code: string;
  line?: number;
  row?: number;
  sheetRow?: number;
  column?: string;
  message: string;
}

/**
 * A parsed file. Column names are unique (headers.ts). `rows[i].length === columns.length` always.
 * `rowSources[i]` is where data row i + 1 came from: a physical line (`sourceKind: "line"`) or a
 * worksheet row number (`sourceKind: "sheetRow"`).
 * For a workbook that needs a sheet choice, `needsSheet` is true and `columns`/`rows` are empty.
 */
export interface ImportTable {
  fileName: string;
  format: ImportFormat;
  /** Text encoding used to read the file; `null` for XLSX (a binary format). */
  encoding: TextEncodingName | null;
  /** CSV only: the delimiter used. */
  delimiter?: CsvDelimiter;
  /** XLSX only: every worksheet in workbook order. */
  sheets?: SheetInfo[];
  /** XLSX only: the worksheet read, or `null` when the caller must choose one. */
  sheet?: string | null;
  /** XLSX only: true when several sheets are visible and none was chosen. */
  needsSheet?: boolean;
  columns: string[];
  rows: string[][];
  /**
   * CSV and XLSX: where the header is — its line (CSV) or sheet row (XLSX); the parsers take the
   * first non-empty row (header-row.ts can move it down).
   */
  headerSource?: number;
  /** CSV and XLSX: how many of `columns` the header row itself gave (CSV rows with extra values add more). */
  headerWidth?: number;
  sourceKind: "line" | "sheetRow";
  rowSources: number[];
  problems: ImportProblem[];
}

/** Options of {@link parseFile} and {@link inspect}. All are optional. */
export interface ParseOptions {
  /** Limit overrides; unset fields use DEFAULT_LIMITS (4 MB, 5,000 rows, …). */
  limits?: Partial<ImportLimits>;
  /** Force a format instead of detecting it from the file name and bytes. */
  format?: ImportFormat;
  /** XLSX: the worksheet to read (by name). Required when several sheets are visible. */
  sheet?: string;
  /** CSV: force a delimiter instead of detecting it. */
  delimiter?: CsvDelimiter;
  /** CSV/JSON/JSONL: force a text encoding instead of detecting it. */
  encoding?: TextEncodingName;
  /** JSON: the key of the array of rows when the top-level object holds several arrays. */
  jsonKey?: string;
}
