/**
 * The few places where SQLite and PostgreSQL need different SQL or report differently (issue 20).
 * Queries are written once with drizzle's builders (db/pg/store.ts says why that works on both);
 * when a query needs SQL drizzle does not abstract, it takes the fragment from here.
 */
import { like, sql, type AnyColumn, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "./client";
import { isPostgres } from "./pg/store";

export { isPostgres };

/** The driver error under drizzle's wrapper (drizzle wraps PostgreSQL errors in DrizzleQueryError). */
function driverError(e: unknown): { code?: unknown; constraint?: unknown; message?: unknown } | null {
  if (!e || typeof e !== "object") return null;
  const cause = (e as { cause?: unknown }).cause;
  if ("code" in e) return e as { code?: unknown };
  return cause && typeof cause === "object" ? (cause as { code?: unknown }) : null;
}

/**
 * True when `e` is a unique-constraint violation on either store (SQLite `SQLITE_CONSTRAINT_UNIQUE`
 * or `…_PRIMARYKEY`; PostgreSQL SQLSTATE 23505), also when drizzle wrapped it.
 */
export function isUniqueViolation(e: unknown): boolean {
  const code = driverError(e)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/**
 * `column LIKE pattern`, case-insensitive on both stores (SQLite's LIKE already is, for ASCII;
 * PostgreSQL's is not, so it gets ILIKE). Escape `%`/`_` in user text with `escape` yourself.
 */
export function likeAnyCase(db: Db, column: AnyColumn | SQLWrapper, pattern: string): SQL {
  return isPostgres(db) ? sql`${column} ILIKE ${pattern}` : like(column as AnyColumn, pattern);
}

/** `sum(CASE WHEN cond THEN 1 ELSE 0 END)` as a number on both stores (0 for no rows). */
export function countWhere(cond: SQL): SQL<number> {
  return sql<number>`coalesce(sum(CASE WHEN ${cond} THEN 1 ELSE 0 END), 0)`.mapWith(Number);
}

/**
 * A JSON column's value at `key` (one level), as text on both stores: SQLite `json_extract` (a
 * JSON string comes back unquoted), PostgreSQL `->>`. Compare it with strings; cast for numbers.
 */
export function jsonText(db: Db, column: AnyColumn | SQLWrapper, key: string): SQL<string | null> {
  return isPostgres(db) ? sql<string | null>`(${column}::jsonb ->> ${key})` : sql<string | null>`json_extract(${column}, ${"$." + key})`;
}

/**
 * Runs raw SQL (built with drizzle's `sql` template: columns and values as parameters) and returns
 * its rows as objects keyed by the selected names. Results are the drivers' values: numbers and text on
 * both; booleans are 1/0 on SQLite and true/false on PostgreSQL; `sum`/`avg` are text on PostgreSQL
 * unless cast (`::float8`, `::int`) — prefer drizzle's builders with `.mapWith(Number)`.
 */
export async function rawRows<T>(db: Db, query: SQL): Promise<T[]> {
  if (isPostgres(db)) {
    const res = await (db as unknown as { execute: (q: SQL) => Promise<{ rows: T[] }> }).execute(query);
    return res.rows;
  }
  return db.all(query) as T[];
}
