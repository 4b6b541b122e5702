/**
 * The store a command-line process works on (issue 20): PostgreSQL when
 * `BENCHWORK_DATABASE_URL=postgres://…`, else the SQLite file at `BENCHWORK_DB`; migrated first,
 * named for messages (a PostgreSQL URL without its credentials).
 */
import { databasePath, migrateDatabase, openDatabase, type Db } from "./client";
import { migratePostgres, pgStoreName, postgresUrl } from "./pg/client";
import { closeStore, openPgStore } from "./pg/store";

/** The configured store's name for messages: `host/db (PostgreSQL)` (no credentials) or the SQLite file. */
export function storeName(): string {
  const url = postgresUrl();
  if (!url) return databasePath();
  return `${pgStoreName(url)} (PostgreSQL)`;
}

/** An open, migrated store: `where` names it for messages; `close()` releases it. */
export interface OpenedStore {
  db: Db;
  where: string;
  kind: "sqlite" | "postgres";
  close: () => Promise<void>;
}

/**
 * Opens and migrates the configured store.
 * @throws when `BENCHWORK_DATABASE_URL` is not a postgres:// URL, or the store cannot be opened or migrated
 */
export async function openMigratedStore(): Promise<OpenedStore> {
  const url = postgresUrl();
  if (url) {
    await migratePostgres(url);
    const db = openPgStore(url, 2);
    return { db, where: storeName(), kind: "postgres", close: () => closeStore(db) };
  }
  const file = databasePath();
  const db = openDatabase(file);
  try {
    migrateDatabase(db);
  } catch (e) {
    db.$client.close();
    throw e;
  }
  return { db, where: file, kind: "sqlite", close: async () => void db.$client.close() };
}
