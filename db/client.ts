/**
 * The only module that opens SQLite (DESIGN.md §3). Everything else receives a {@link Db}.
 * Pragmas: WAL journal, foreign keys on, a busy timeout so a second process (worker, CLI) waits
 * for a lock instead of failing.
 */
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { mkdirSync } from "node:fs";
import path from "node:path";
import * as schema from "./schema";
import { postgresUrl } from "./pg/client";
import { openPgStore } from "./pg/store";

/**
 * The better-sqlite3 connection under a {@link Db}, without `transaction`: transactions go through
 * db/write-transaction.ts, which takes the write lock up front.
 */
export type SqliteConnection = Omit<Database.Database, "transaction">;

/**
 * A drizzle handle on the Benchwork schema; `$client` is the better-sqlite3 connection. Neither has
 * a `transaction` method: use `writeTransaction` / `immediateTransaction` (db/write-transaction.ts),
 * so that no transaction reads a snapshot it cannot write from (SQLITE_BUSY_SNAPSHOT).
 */
export type Db = Omit<BetterSQLite3Database<typeof schema>, "transaction" | "$client"> & { $client: SqliteConnection };

/** Default database file, relative to the working directory (the project root). */
export const DEFAULT_DB_PATH = "data/benchwork.db";

/**
 * Where committed migrations live: under the project root, which is `BENCHWORK_ROOT` when set (the
 * `benchwork` command sets it from its own location, so it works from any directory), else the
 * working directory.
 */
export const MIGRATIONS_DIR = path.join(/*turbopackIgnore: true*/ process.env.BENCHWORK_ROOT || process.cwd(), "db", "migrations");

/** Lock wait before SQLITE_BUSY, in ms. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * The database file to use: `BENCHWORK_DB` when set, else `data/benchwork.db`.
 * `:memory:` is allowed (tests).
 */
export function databasePath(): string {
  return process.env.BENCHWORK_DB?.trim() || DEFAULT_DB_PATH;
}

/**
 * Opens (creating when missing) a SQLite database with Benchwork's pragmas.
 * @param file a file path or `:memory:`; its folder is created when missing.
 * @throws when the file cannot be opened (permissions, not a database).
 */
export function openDatabase(file: string = databasePath()): Db {
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(/*turbopackIgnore: true*/ file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma("synchronous = NORMAL");
  return drizzle({ client: sqlite, schema }) as unknown as Db;
}

/**
 * Applies every committed migration that has not run yet (drizzle's journal in `__drizzle_migrations`).
 * @throws when a migration fails; the failing migration is rolled back.
 */
export function migrateDatabase(db: Db, migrationsFolder: string = MIGRATIONS_DIR): void {
  migrate(db as unknown as BetterSQLite3Database<typeof schema>, { migrationsFolder });
}

/** A fresh in-memory database with every migration applied (unit tests). */
export function openMemoryDatabase(): Db {
  const db = openDatabase(":memory:");
  migrateDatabase(db);
  return db;
}

/**
 * The configured store: PostgreSQL when `BENCHWORK_DATABASE_URL=postgres://…` (a pool, see
 * db/pg/store.ts), else the SQLite file at `BENCHWORK_DB` (issue 20).
 * @throws when `BENCHWORK_DATABASE_URL` is set to something else than a postgres:// URL
 */
export function openStore(): Db {
  const url = postgresUrl();
  return url ? openPgStore(url) : openDatabase();
}

const globalForDb = globalThis as unknown as { benchworkDb?: Db };

/**
 * The server's shared store, opened on first use ({@link openStore}). Migrations are NOT applied
 * here: they run in the start script before the server starts (DESIGN.md §3).
 */
export function getDb(): Db {
  if (!globalForDb.benchworkDb) globalForDb.benchworkDb = openStore();
  return globalForDb.benchworkDb;
}
