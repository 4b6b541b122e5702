/**
 * Errors of dataset import and use that a shell shows as they are. `expose` tells
 * lib/shell/result.ts `failure()` to pass code and message to the user unchanged.
 */
import { isImportError } from "@/lib/import/errors";
import type { ImportProblem } from "@/lib/import/types";

/**
 * Why a dataset operation was refused:
 * - an import-core refusal code (`too_large`, `corrupt`, `zip_bomb`, …, see lib/import/errors.ts);
 * - `parse_timeout` / `parse_memory` / `parse_failed`: the bounded parser was stopped;
 * - `needs_sheet`: a workbook with several visible sheets and none chosen;
 * - `upload_not_found`: the upload expired (a day) or was already saved;
 * - `invalid_mapping` / `invalid_corrections`: the mapping or a correction does not fit the file;
 * - `blocked_rows`: rows still miss their input or expected result (when a caller refuses them).
 */
export type DatasetErrorCode = string;

/** A refused dataset operation whose message is written for the user. */
export class DatasetError extends Error {
  /** Always true: the message is safe and useful to show. */
  readonly expose = true;

  /**
   * @param code machine-readable reason (see {@link DatasetErrorCode})
   * @param message text for the user: names the file, row or column and says what to do
   * @param problems the problems behind the refusal, when there is a list (e.g. blocked rows)
   */
  constructor(
    readonly code: DatasetErrorCode,
    message: string,
    readonly problems: ImportProblem[] = [],
  ) {
    super(message);
    this.name = "DatasetError";
  }
}

/**
 * An import-core refusal (ImportError: too large, corrupt, zip bomb, …) as a DatasetError, so
 * shells show its message; anything else is returned unchanged.
 * @param e a caught error
 */
export function asDatasetError(e: unknown): unknown {
  return isImportError(e) ? new DatasetError(e.code, e.message) : e;
}
