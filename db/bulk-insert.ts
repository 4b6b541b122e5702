/**
 * Many rows into one table with one statement per few thousand rows, on either store (issue 20).
 *
 * Why not drizzle's multi-row `insert().values(rows)`: it builds one parameter object per value of
 * every column (the defaults included), about 70 ms per 1,000 trial rows, which made a 10,000-case
 * launch several times slower than the SQLite prepared statements it replaced. Here the rows travel
 * as ONE JSON parameter (an array of value arrays) that the database unpacks in order: SQLite
 * `json_each` + `json_extract`, PostgreSQL `jsonb_array_elements … WITH ORDINALITY` with a cast per
 * column.
 */
import { sql, type SQL, type SQLChunk } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";
import { isPostgres, rawRows } from "./dialect";

/** A value as JSON carries it: numbers, text, booleans (stored 1/0 on SQLite), null. */
export type JsonScalar = string | number | boolean | null;

/** Rows per statement: one JSON parameter of a few hundred kB. */
const CHUNK = 5000;

/**
 * Inserts `rows` into `table` in their order (ids ascending with it), one statement per
 * {@link CHUNK} rows. Each row holds the values of `columns`, in that order; other columns take their
 * defaults. Values are what the column stores (ms numbers, not Dates; booleans as booleans).
 * Not for columns that are `jsonb` on PostgreSQL (db/schema-pg.ts): their values would be cast to
 * text, which PostgreSQL refuses; insert those with drizzle's builders.
 * @param returning columns to return per inserted row, keyed by their database names (e.g. `id`)
 * @returns the returned rows, in no promised order (empty without `returning`)
 * @throws the store's error (a constraint, a wrong type): the caller's transaction rolls back
 */
export async function insertRows<R extends Record<string, unknown>>(
  db: Db,
  table: SQLiteTable,
  columns: SQLiteColumn[],
  rows: JsonScalar[][],
  returning: SQLiteColumn[] = [],
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const query = insertQuery(db, table, columns, JSON.stringify(rows.slice(i, i + CHUNK)), returning);
    if (returning.length) out.push(...(await rawRows<R>(db, query)));
    else if (isPostgres(db)) await (db as unknown as { execute: (q: SQL) => Promise<unknown> }).execute(query);
    else db.run(query);
  }
  return out;
}

/** The PostgreSQL type a JSON value of `column` is cast to (the pg column's own type or one that assigns to it). */
function pgType(column: SQLiteColumn): SQL {
  if (column.columnType === "SQLiteBoolean") return sql.raw("boolean");
  const type = column.getSQLType();
  return sql.raw(type === "integer" ? "bigint" : type === "real" ? "double precision" : "text");
}

function list(items: SQLChunk[]): SQL {
  return sql.join(items, sql`, `);
}

function insertQuery(db: Db, table: SQLiteTable, columns: SQLiteColumn[], json: string, returning: SQLiteColumn[]): SQL {
  const names = list(columns.map((c) => sql.identifier(c.name)));
  const back = returning.length ? sql` RETURNING ${list(returning.map((c) => sql.identifier(c.name)))}` : sql``;
  if (isPostgres(db)) {
    const values = list(columns.map((c, i) => sql`(r.v ->> ${sql.raw(String(i))})::${pgType(c)}`));
    return sql`INSERT INTO ${table} (${names}) SELECT ${values} FROM jsonb_array_elements(${json}::jsonb) WITH ORDINALITY AS r(v, n) ORDER BY r.n${back}`;
  }
  const values = list(columns.map((_, i) => sql.raw(`json_extract(value, '$[${i}]')`)));
  return sql`INSERT INTO ${table} (${names}) SELECT ${values} FROM json_each(${json}) ORDER BY key${back}`;
}
