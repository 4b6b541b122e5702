/**
 * The result shape of every server action (DESIGN.md §2):
 * `{ ok: true, data } | { ok: false, error: { code, message, fieldErrors? } }`.
 * Only `redirect`/`notFound` throw out of an action.
 */
import { z } from "zod";
import { LibraryError } from "../library/errors";
import { fieldErrorsOf } from "../library/forms";

/** A refused action: a machine code, a user-facing message, and messages per form field. */
export interface ActionError {
  code: string;
  message: string;
  fieldErrors?: Record<string, string>;
}

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ActionError };

/** A successful result. */
export function ok<T>(data: T): ActionResult<T> {
  return { ok: true, data };
}

/**
 * Turns a thrown error into a refused result. Known errors (validation, library rules) keep their
 * message; anything else becomes `internal` with a generic message (details go to the server log).
 */
export function failure(e: unknown): { ok: false; error: ActionError } {
  if (e instanceof LibraryError) return { ok: false, error: { code: e.code, message: e.message, fieldErrors: e.fieldErrors } };
  if (e instanceof z.ZodError) return { ok: false, error: { code: "validation", ...fieldErrorsOf(e) } };
  if (e && typeof e === "object" && "code" in e && "message" in e && typeof (e as { code: unknown }).code === "string" && (e as { expose?: boolean }).expose) {
    return { ok: false, error: { code: (e as { code: string }).code, message: (e as { message: string }).message } };
  }
  console.error(e);
  return { ok: false, error: { code: "internal", message: "Something went wrong on the server; nothing was changed. The error is in the server log." } };
}

/**
 * Parses `input` with `schema`, runs `fn`, and wraps the outcome as an {@link ActionResult}.
 * Validation problems come back with `fieldErrors` keyed by the field path (e.g. `history.2.content`).
 */
export async function runAction<S extends z.ZodType, T>(schema: S, input: unknown, fn: (parsed: z.output<S>) => Promise<T>): Promise<ActionResult<T>> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, error: { code: "validation", ...fieldErrorsOf(parsed.error) } };
  try {
    return ok(await fn(parsed.data));
  } catch (e) {
    return failure(e);
  }
}
