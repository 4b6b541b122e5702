/**
 * The only module that opens PostgreSQL (issue 20). `BENCHWORK_DATABASE_URL=postgres://…` selects
 * it; without it the store stays SQLite (db/client.ts). The app's queries do not use it yet: they
 * run on SQLite's synchronous API until db/queries is converted (README, "PostgreSQL (in progress)").
 */
import pg from "pg";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import path from "node:path";
import * as tables from "../schema-pg";
import * as queueTables from "../schema-pg-queue";
import { isStoreUnreachable, unreachableReason as driverReason } from "@/lib/store/unreachable";

/** Every table of the PostgreSQL store (the app's and the job queue's). */
export const pgSchema = { ...tables, ...queueTables };

/** A drizzle handle on the PostgreSQL store, over a pool or one checked-out client (a transaction). */
export type PgDb = NodePgDatabase<typeof pgSchema>;

/** Where the PostgreSQL migrations live (under the project root, like db/client.ts's MIGRATIONS_DIR). */
export const PG_MIGRATIONS_DIR = path.join(/*turbopackIgnore: true*/ process.env.BENCHWORK_ROOT || process.cwd(), "db", "migrations-pg");

/** True for `postgres://…` and `postgresql://…` URLs. */
export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//i.test(url.trim());
}

/**
 * The PostgreSQL URL from `BENCHWORK_DATABASE_URL`, or null when the store is SQLite.
 * @throws when the variable is set to something that is not a postgres:// URL
 */
export function postgresUrl(env: Record<string, string | undefined> = process.env): string | null {
  const url = env.BENCHWORK_DATABASE_URL?.trim();
  if (!url) return null;
  if (!isPostgresUrl(url)) throw new Error(`BENCHWORK_DATABASE_URL must be a postgres:// or postgresql:// URL (SQLite is chosen with BENCHWORK_DB instead).`);
  return url;
}

/**
 * A connection pool. `max` connections (default 10). Close it with `pool.end()`. A client the
 * server drops (restart, failover, `pg_terminate_backend`, a closing pool) is discarded and replaced
 * on next use, whether it was idle or checked out: pg emits the drop as an `error` event on the
 * client, which without a listener throws out of the event loop and ends the process. The pool
 * listens while a client is idle; {@link quietClientErrors} covers it while checked out (the query
 * running on it is rejected with the same error, and the pool drops it at release).
 */
export function openPgPool(url: string, max = 10, applicationName = "benchwork"): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, application_name: applicationName });
  quietClientErrors(pool);
  return pool;
}

/**
 * Gives `pool` and every client it opens from now on an `error` listener that does nothing: the
 * error reaches the caller through the query it fails (see {@link openPgPool}). Also for pools
 * opened by a library (pg-boss's).
 */
export function quietClientErrors(pool: pg.Pool): void {
  pool.on("error", () => undefined);
  pool.on("connect", (client) => void client.on("error", () => undefined));
}

/** A drizzle handle over a pool or over one client (then every query runs on that client's transaction). */
export function pgDrizzle(client: pg.Pool | pg.PoolClient): PgDb {
  return drizzle({ client, schema: pgSchema });
}

/** A PostgreSQL store's name for messages: `host:port/database`, never the credentials. */
export function pgStoreName(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname}`;
}

/** The driver's reason in words (connecting to `localhost` fails with an AggregateError whose message is empty). */
function reasonOf(e: unknown): string {
  const err = e as { message?: string; code?: string; errors?: { message?: string }[] };
  return err.message || err.errors?.[0]?.message || err.code || String(e);
}

/**
 * When `e` (or an error in its `cause` chain, as drizzle wraps the driver's) says the PostgreSQL
 * store cannot be reached — refused or dropped connection, server shutting down or starting,
 * connection-class SQLSTATE `08…`, database gone, login refused — PostgreSQL's reason in words; else
 * null. One rule with the web server's 503 page: lib/store/unreachable.ts.
 */
export function unreachableReason(e: unknown): string | null {
  return isStoreUnreachable(e) ? driverReason(e) : null;
}

/**
 * The PostgreSQL store cannot be reached (server down, no such database, authentication refused).
 * Its message is one line for a person: the store without credentials and PostgreSQL's reason
 * (the driver's error is its `cause`); command lines print it without a stack.
 */
export class StoreUnreachableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreUnreachableError";
  }
}

/**
 * Checks that the store answers (one `SELECT 1` on `pool`, which connects to `url`).
 * @throws StoreUnreachableError naming the store (no credentials) and PostgreSQL's reason
 */
export async function reachPgStore(pool: pg.Pool, url: string): Promise<void> {
  await pool.query("SELECT 1").catch((e: unknown) => {
    throw new StoreUnreachableError(`cannot connect to the PostgreSQL store ${pgStoreName(url)}: ${reasonOf(e)}`, { cause: e });
  });
}

/**
 * For a command's `.catch`: a {@link StoreUnreachableError} ends the process with its one line on
 * stderr (`PREFIX: cannot connect to the PostgreSQL store host:port/db: reason`) and exit code 1, no
 * stack; any other error is rethrown. Shared by `npm run db:migrate`, the seed step of `npm start`
 * and `npm run db:seed`.
 */
export function exitIfUnreachable(prefix: string): (e: unknown) => never {
  return (e) => {
    if (!(e instanceof StoreUnreachableError)) throw e;
    console.error(`${prefix}: ${e.message}`);
    process.exit(1);
  };
}

/**
 * Applies every committed PostgreSQL migration that has not run yet (drizzle's journal in
 * `drizzle.__drizzle_migrations`), each in a transaction.
 * @throws StoreUnreachableError naming the store and PostgreSQL's reason when it cannot be reached
 *   (server down, no such database, authentication refused); when a migration fails (it is rolled back)
 */
export async function migratePostgres(url: string, migrationsFolder: string = PG_MIGRATIONS_DIR): Promise<void> {
  const pool = openPgPool(url, 1);
  try {
    // Connect first: a failed connection otherwise surfaces as drizzle's "Failed query: CREATE SCHEMA…".
    await reachPgStore(pool, url);
    await migrate(pgDrizzle(pool), { migrationsFolder });
  } finally {
    await pool.end();
  }
}

/**
 * Runs `fn` in one transaction on one client from `pool`: commits when it resolves, rolls back when
 * it throws (and rethrows). `fn` gets the raw client (for pg-boss's `db` option) and a drizzle handle on it.
 */
export async function withPgTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient, db: PgDb) => Promise<T>): Promise<T> {
  return withPgTransactionCommittingWith(pool, async (client, db) => ({ result: await fn(client, db), beforeCommit: [] }));
}

/**
 * {@link withPgTransaction} whose `fn` also gives statements to run in the COMMIT's own round trip
 * (one simple-protocol query, `…; COMMIT`): rows every worker updates (a bench's spend) are then
 * locked only while PostgreSQL runs them, never across a round trip to this process.
 * `beforeCommit` is literal SQL (no parameters: the simple protocol takes none).
 */
export async function withPgTransactionCommittingWith<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient, db: PgDb) => Promise<{ result: T; beforeCommit: string[] }>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { result, beforeCommit } = await fn(client, pgDrizzle(client));
    await client.query([...beforeCommit, "COMMIT"].join(";\n"));
    return result;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/**
 * Runs `statements` (literal SQL, no parameters: the simple protocol takes none) as one transaction
 * sent in a single round trip on `client`, which must not be in a transaction: the locks they take
 * are held only while PostgreSQL runs them, never while this process (or a frozen one) answers.
 * @throws PostgreSQL's error, after rolling the transaction back
 */
export async function runPgTransactionInOneTrip(client: pg.ClientBase, statements: string[]): Promise<void> {
  try {
    await client.query(["BEGIN", ...statements, "COMMIT"].join(";\n"));
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  }
}
