/**
 * The app's PostgreSQL store (issue 20): a {@link Db} whose queries run on PostgreSQL.
 *
 * One set of queries for both stores. `db/queries` is written once against db/schema.ts's table
 * objects; drizzle renders a query in the dialect of the handle it runs on, so on this handle the same
 * builders produce PostgreSQL SQL for the same table and column names (db/schema-pg.ts declares the
 * DDL; db/schema-pg.test.ts keeps both schemas' names, kinds and constraints identical). What differs
 * is what the driver returns, and this handle makes it what db/schema.ts's column mappers expect from
 * SQLite: `bigint` (ms times, sizes) as a JS number instead of a string, and `jsonb`/`json` as its
 * JSON text (SQLite's JSON columns are text that the mapper parses). Booleans need nothing (the
 * SQLite mapper reads `true` as true, PostgreSQL accepts 1/0). The override is per query, through
 * the pool this module wraps, so other pg users in the process (pg-boss) keep pg's defaults.
 */
import { is } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Db } from "../client";
import * as schema from "../schema";
import { openPgPool } from "./client";

const INT8 = 20;
const JSON_OID = 114;
const JSONB = 3802;
const asText = (value: string) => value;
const asNumber = (value: string) => Number(value);

type TypeParsers = { getTypeParser: (oid: number, format?: string) => unknown };

/** The parsers for one query: ours for int8 and json/jsonb, else what the caller (drizzle) asked for. */
function storeTypes(inner: TypeParsers | undefined): TypeParsers {
  return {
    getTypeParser: (oid, format) => {
      if (format !== "binary") {
        if (oid === INT8) return asNumber;
        if (oid === JSON_OID || oid === JSONB) return asText;
      }
      return inner ? inner.getTypeParser(oid, format) : pg.types.getTypeParser(oid, format as "text");
    },
  };
}

type Queryable = { query: (...args: unknown[]) => unknown };

/** Wraps `query` so every query config gets {@link storeTypes} around its own `types`. */
function withStoreTypes<T extends Queryable>(target: T): T {
  const query = target.query.bind(target);
  target.query = ((config: unknown, ...rest: unknown[]) => {
    if (config && typeof config === "object" && "text" in config) {
      const c = config as { types?: TypeParsers };
      return query({ ...c, types: storeTypes(c.types) }, ...rest);
    }
    // A plain SQL string: give it a config object so the parsers apply too.
    if (typeof config === "string" && (rest.length === 0 || Array.isArray(rest[0])))
      return query({ text: config, values: rest[0] as unknown[] | undefined, types: storeTypes(undefined) }, ...rest.slice(1));
    return query(config, ...rest);
  }) as T["query"];
  return target;
}

/**
 * The pool under a PostgreSQL {@link Db}: `query` on it and on every client it checks out (drizzle's
 * transactions) parses int8 and json/jsonb as described above.
 * @param url a postgres:// URL
 * @param max connections (default 10)
 */
export function openStorePool(url: string, max = 10): pg.Pool {
  const pool = withStoreTypes(openPgPool(url, max));
  pool.on("connect", (client) => void withStoreTypes(client as unknown as Queryable));
  return pool;
}

/**
 * A {@link Db} on PostgreSQL. Typed as the SQLite handle on purpose (one query code for both stores,
 * see the module comment); `$client` is the pg pool, so SQLite-only raw statements (`$client.prepare`)
 * fail loudly here instead of running the wrong SQL. Close it with {@link closeStore}.
 */
export function openPgStore(url: string, max = 10): Db {
  return drizzle({ client: openStorePool(url, max), schema }) as unknown as Db;
}

/** The postgres:// URL a PostgreSQL store was opened with ({@link openPgStore}), or null when it has none. */
export function pgStoreUrl(db: Db): string | null {
  return (db.$client as unknown as pg.Pool).options?.connectionString ?? null;
}

/** True when `db` (a store or a transaction on it) runs on PostgreSQL. */
export function isPostgres(db: Db): boolean {
  return is((db as unknown as { dialect: unknown }).dialect, PgDialect);
}

/** Closes a store's connections (the pool on PostgreSQL, the file on SQLite). */
export async function closeStore(db: Db): Promise<void> {
  const client = (db as unknown as { $client: { end?: () => Promise<void>; close?: () => void } }).$client;
  if (isPostgres(db)) await client.end?.();
  else client.close?.();
}
