/**
 * "The store cannot be reached" as one recognisable failure (issue 20): while PostgreSQL is down,
 * restarting or refusing us, every query fails with drizzle's `Failed query: …` whose `cause` is the
 * driver's error. The proxy and the root layout recognise it and say that the database cannot be
 * reached instead of a bare "Internal Server Error". Pure: no driver import, it reads only `code`,
 * `message` and `cause`.
 */

/** Network failures of a connection (Node's error codes). */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"]);

/**
 * PostgreSQL's SQLSTATEs for "no usable connection": class 08 (connection exception) and 57P01–57P03
 * (shut down by an administrator or a crash, cannot connect now), plus a database that does not exist,
 * a refused login and too many connections.
 */
function isUnreachableSqlState(code: string): boolean {
  return code.startsWith("08") || ["57P01", "57P02", "57P03", "3D000", "28P01", "28000", "53300"].includes(code);
}

/** pg's own messages for a connection that broke or never came (they carry no code). */
const DRIVER_MESSAGES = [/^Connection terminated/i, /^timeout expired/i, /connection timeout/i, /^Client has encountered a connection error/i];

/**
 * True when `e`, or an error in its `cause` chain (at most 5 deep), says the store cannot be reached.
 * A failed query for another reason (constraint, syntax, a missing table) is false.
 */
export function isStoreUnreachable(e: unknown): boolean {
  let current: unknown = e;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const err = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown; name?: unknown };
    if (err.name === "StoreUnreachableError") return true;
    if (typeof err.code === "string" && (NETWORK_CODES.has(err.code) || isUnreachableSqlState(err.code))) return true;
    if (typeof err.message === "string" && DRIVER_MESSAGES.some((re) => re.test(err.message as string))) return true;
    // Connecting to `localhost` tries ::1 and 127.0.0.1 and fails with an AggregateError of both.
    if (Array.isArray(err.errors) && err.errors.some((inner) => isStoreUnreachable(inner))) return true;
    current = err.cause;
  }
  return false;
}

/** The driver's reason at the bottom of `e`'s `cause` chain, e.g. "connect ECONNREFUSED 127.0.0.1:5432" (pg's messages carry no password). */
export function unreachableReason(e: unknown): string {
  let current: unknown = e;
  let reason = "";
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const err = current as { message?: unknown; code?: unknown; cause?: unknown; errors?: { message?: unknown }[] };
    const message = typeof err.message === "string" && err.message ? err.message : Array.isArray(err.errors) ? String(err.errors[0]?.message ?? "") : "";
    reason = message || (typeof err.code === "string" ? err.code : reason);
    current = err.cause;
  }
  return reason;
}
