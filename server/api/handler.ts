/**
 * The one wrapper of the HTTP API's route handlers (`app/api/v1/`, issue 19): who is calling
 * (`actorFromRequest`) and whether their role and token scope allow it (`requireRole`), a same-site
 * and JSON-only check for writes, a bounded body read, zod validation, and errors as JSON
 * `{ error: { code, message, fieldErrors?, problems? } }` with the right status:
 * 401 no or refused token · 403 role/scope too low or a cross-site write · 400 bad input (fields
 * named) · 404 unknown subject · 409 conflict · 413 body too large · 415 not JSON · 422 the input
 * is well formed but cannot be used (blocked rows, a file the importer refuses) · 502 the generator
 * model failed · 500 anything else (details in the server log only).
 */
import { z } from "zod";
import { isRowId } from "@/db/rows";
import { fieldErrorsOf } from "@/lib/library/forms";
import { LibraryError } from "@/lib/library/errors";
import { DatasetError } from "@/lib/datasets/errors";
import { isImportError } from "@/lib/import/errors";
import type { ApiError } from "@/lib/api/schemas";
import { GenerationFailed } from "@/server/generate/with-config";
import { readBodyWithLimit } from "@/server/read-body";
import { actorFromRequest, AuthError, requireRole, type Actor, type Role } from "@/server/auth/actor";

/** A JSON error response. */
export function apiError(status: number, e: ApiError, headers: Record<string, string> = {}): Response {
  return Response.json({ error: e }, { status, headers: { "cache-control": "no-store", ...headers } });
}

/** Thrown inside a handler to answer with this status and error. */
export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly error: ApiError,
  ) {
    super(error.message);
    this.name = "ApiRefusal";
  }
}

const LIBRARY_STATUS: Record<string, number> = { not_found: 404, conflict: 409, duplicate_case_id: 409, removed: 409, not_allowed: 409 };

/** Maps what a workflow threw to a response; unknown errors become a generic 500 (logged). */
export function errorResponse(e: unknown): Response {
  if (e instanceof ApiRefusal) return apiError(e.status, e.error);
  if (e instanceof AuthError)
    return apiError(
      e.code === "unauthenticated" ? 401 : 403,
      { code: e.code, message: e.message },
      e.code === "unauthenticated" ? { "www-authenticate": "Bearer" } : {},
    );
  if (e instanceof LibraryError)
    return apiError(LIBRARY_STATUS[e.code] ?? 400, { code: e.code, message: e.message, ...(e.fieldErrors ? { fieldErrors: e.fieldErrors } : {}) });
  if (e instanceof DatasetError) {
    const unusable = e.code === "blocked_rows" || e.code.startsWith("parse_");
    return apiError(unusable ? 422 : 400, { code: e.code, message: e.message, ...(e.problems.length ? { problems: e.problems } : {}) });
  }
  if (isImportError(e)) return apiError(422, { code: `import.${e.code}`, message: e.message });
  if (e instanceof GenerationFailed) return apiError(502, { code: "generation_failed", message: e.message });
  console.error(e);
  return apiError(500, { code: "internal", message: "Something went wrong on the server; nothing was changed. The error is in the server log." });
}

/**
 * Refuses a write that a browser sent from another site: its `Origin` must be this server's
 * (a CLI sends none). Writes must be JSON, which a cross-site HTML form cannot send.
 */
function crossSiteRefusal(request: Request): Response | null {
  const origin = request.headers.get("origin");
  if (origin !== null) {
    let same = false;
    try {
      same = new URL(origin).host === (request.headers.get("host") ?? new URL(request.url).host);
    } catch {
      same = false;
    }
    if (!same) return apiError(403, { code: "cross_site", message: "Cross-site requests are refused: call the API from the CLI or the same origin." });
  }
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type))
    return apiError(415, { code: "unsupported_media_type", message: "Send the body as JSON (Content-Type: application/json)." });
  return null;
}

/** A 400's error: every field at fault by its body path, and the first one named in the message. */
function validationError(error: z.ZodError): ApiError {
  const { fieldErrors } = fieldErrorsOf(error);
  const keys = Object.keys(fieldErrors);
  const more = keys.length > 1 ? ` (and ${keys.length - 1} more problem${keys.length > 2 ? "s" : ""})` : "";
  return { code: "validation", message: `${keys[0]}: ${fieldErrors[keys[0]]}${more}`, fieldErrors };
}

/** What a handler gets: the checked actor, the validated body and the route params. */
export interface ApiContext<B, P> {
  actor: Actor;
  body: B;
  params: P;
  request: Request;
}

/**
 * Wraps a route handler. `role` is the least role (and, for tokens, scope: viewer → read, anything
 * more → run) the route needs. Every write (not GET) must come from this site or no browser and be
 * JSON. With `body`, the request body is read (at most `maxBytes`, default 64 KiB), parsed as JSON
 * and validated. `fn` returns a Response or a
 * value sent as JSON (status 200, or `status` when given).
 */
export function apiRoute<S extends z.ZodType | undefined, P = Record<string, string>>(
  opts: { role: Role; body?: S; maxBytes?: number; status?: number },
  fn: (ctx: ApiContext<S extends z.ZodType ? z.output<S> : undefined, P>) => Promise<unknown>,
): (request: Request, route: { params: Promise<P> }) => Promise<Response> {
  return async (request, route) => {
    try {
      const actor = requireRole(await actorFromRequest(request), opts.role);
      let body: unknown = undefined;
      if (request.method !== "GET" && request.method !== "HEAD") {
        const refused = crossSiteRefusal(request);
        if (refused) return refused;
      }
      if (opts.body) {
        const limit = opts.maxBytes ?? 64 * 1024;
        const bytes = await readBodyWithLimit(request.body, limit);
        if (bytes === null) return apiError(413, { code: "too_large", message: `The request body is larger than ${limit.toLocaleString("en-US")} bytes.` });
        let json: unknown;
        try {
          json = JSON.parse(new TextDecoder().decode(bytes));
        } catch (e) {
          return apiError(400, { code: "invalid_json", message: `The body is not valid JSON: ${(e as Error).message}` });
        }
        const parsed = opts.body.safeParse(json);
        if (!parsed.success) return apiError(400, validationError(parsed.error));
        body = parsed.data;
      }
      const out = await fn({ actor, body: body as never, params: await route.params, request });
      if (out instanceof Response) return out;
      return Response.json(out, { status: opts.status ?? 200, headers: { "cache-control": "no-store" } });
    } catch (e) {
      return errorResponse(e);
    }
  };
}

/** A row id route param (a bench id: 1 to 2^31 - 1, as PostgreSQL stores it), or a 404. */
export function idParam(value: string, what: string): number {
  const n = Number(value);
  if (!isRowId(n) || String(n) !== value) throw new ApiRefusal(404, { code: "not_found", message: `${what} #${value} does not exist.` });
  return n;
}
