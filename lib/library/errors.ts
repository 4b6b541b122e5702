/**
 * Errors the library core and its queries raise. Shells turn them into
 * `{ ok: false, error: { code, message, fieldErrors? } }` (DESIGN.md §2).
 */
export type LibraryErrorCode = "validation" | "duplicate_case_id" | "not_found" | "removed" | "conflict" | "not_allowed" | "unchanged";

/** A refused library operation; `message` is written for the user, `fieldErrors` name form fields. */
export class LibraryError extends Error {
  constructor(
    readonly code: LibraryErrorCode,
    message: string,
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
    this.name = "LibraryError";
  }
}
