/**
 * Typed errors for the import core (DESIGN.md §5: "over a limit → a clear error before anything is
 * stored"). Every refusal of a whole file is an {@link ImportError}; problems inside an accepted
 * file are reported as {@link ImportProblem}s instead (see types.ts).
 */

/**
 * Why a whole file was refused.
 * - `too_large`: the file has more bytes than `limits.maxBytes`.
 * - `too_many_rows`: more data rows than `limits.maxRows` (or a workbook declares that many).
 * - `too_many_columns`: more columns than `limits.maxColumns` (or a workbook declares that many).
 * - `corrupt`: the bytes cannot be read as the format the file claims (bad JSON, broken ZIP …).
 * - `unsupported_format`: the file type is not CSV, XLSX, JSON or JSONL (or a ZIP feature we refuse).
 * - `unsupported_shape`: valid JSON that is not an array of objects nor an object holding one.
 * - `zip_bomb`: the XLSX archive would expand beyond the decompression limits (in total, by ratio,
 *   or beyond the sizes it declares).
 * - `part_too_large`: one part of an XLSX archive (shared strings, a worksheet, …) would unpack to
 *   more than `limits.maxPartBytes`.
 * - `empty_file`: no bytes, or nothing but a byte-order mark / whitespace.
 * - `sheet_not_found`: the caller named a worksheet the workbook does not have.
 * - `header_row_not_found`: the caller named a header row the table does not have (header-row.ts).
 */
export type ImportErrorCode =
  | "too_large"
  | "too_many_rows"
  | "too_many_columns"
  | "corrupt"
  | "unsupported_format"
  | "unsupported_shape"
  | "zip_bomb"
  | "part_too_large"
  | "empty_file"
  | "sheet_not_found"
  | "header_row_not_found";

/**
 * A file-level refusal. `message` is written for the person who uploaded the file: it names the
 * file and, for limits, the limit. `limit` and `actual` carry the numbers (bytes, rows, columns)
 * for callers that format their own text.
 */
export class ImportError extends Error {
  readonly code: ImportErrorCode;
  readonly fileName: string;
  readonly limit?: number;
  readonly actual?: number;

  /**
   * @param code machine-readable reason
   * @param fileName the uploaded file's name, as given by the caller
   * @param message human text; should name the file and the limit
   * @param extra optional numbers: `limit` and `actual` (units depend on the code), and `cause`
   */
  constructor(code: ImportErrorCode, fileName: string, message: string, extra: { limit?: number; actual?: number; cause?: unknown } = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = "ImportError";
    this.code = code;
    this.fileName = fileName;
    if (extra.limit !== undefined) this.limit = extra.limit;
    if (extra.actual !== undefined) this.actual = extra.actual;
  }

  /** A plain JSON shape for server-action results and the CLI: `{ code, message, fileName, limit?, actual? }`. */
  toJSON(): { code: ImportErrorCode; message: string; fileName: string; limit?: number; actual?: number } {
    const out: { code: ImportErrorCode; message: string; fileName: string; limit?: number; actual?: number } = {
      code: this.code,
      message: this.message,
      fileName: this.fileName,
    };
    if (this.limit !== undefined) out.limit = this.limit;
    if (this.actual !== undefined) out.actual = this.actual;
    return out;
  }
}

/** True when `e` is an {@link ImportError} (also across module copies, by name and code). */
export function isImportError(e: unknown): e is ImportError {
  return e instanceof ImportError || (typeof e === "object" && e !== null && (e as { name?: unknown }).name === "ImportError" && "code" in e);
}

/** Formats a count with thousands separators, e.g. `5000` → `"5,000"` (en-US, locale-independent). */
export function formatCount(n: number): string {
  return Math.trunc(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * Formats a byte count for messages: whole MB when ≥ 1 MiB (1 MB = 1,048,576 bytes here),
 * else KB, else bytes. `4194304` → `"4 MB"`, `4500000` → `"4.3 MB"`.
 */
export function formatBytes(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes >= MiB) {
    const v = bytes / MiB;
    return `${Number.isInteger(v) ? v : v.toFixed(1)} MB`;
  }
  if (bytes >= 1024) {
    const v = bytes / 1024;
    return `${Number.isInteger(v) ? v : v.toFixed(1)} KB`;
  }
  return `${bytes} bytes`;
}
