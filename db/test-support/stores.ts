/**
 * Runs a db/queries suite against both stores (issue 20): `describeStores("cases", (store) => …)`
 * defines the suite twice, "[sqlite]" on a fresh in-memory database per test and "[postgres]" on
 * one database per file in the test cluster, emptied before each test. The PostgreSQL half follows
 * `describePg` (it fails without PostgreSQL unless BENCHWORK_SKIP_PG=1).
 */
import pg from "pg";
import { afterAll, beforeEach, describe } from "vitest";
import { openMemoryDatabase, type Db } from "../client";
import { closeStore, openPgStore } from "../pg/store";
import { createTestDatabase, describePg, stopOwnCluster } from "../pg/test-support/database";

/** The store a test runs on: `db()` is the fresh database of the current test. */
export interface TestStore {
  kind: "sqlite" | "postgres";
  db: () => Db;
}

/** Every table of the PostgreSQL store except drizzle's journal, emptied between tests. */
async function emptyAll(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    if (rows.length) await client.query(`TRUNCATE ${rows.map((r) => r.name).join(", ")} RESTART IDENTITY CASCADE`);
  } finally {
    await client.end();
  }
}

function sqliteStore(): TestStore {
  let current: Db | null = null;
  beforeEach(() => {
    current?.$client.close();
    current = openMemoryDatabase();
  });
  afterAll(() => current?.$client.close());
  return {
    kind: "sqlite",
    db: () => {
      if (!current) throw new Error("the test database opens in beforeEach");
      return current;
    },
  };
}

function postgresStore(): TestStore {
  let database: { url: string; drop: () => Promise<void> } | null = null;
  let current: Db | null = null;
  beforeEach(async () => {
    database ??= await createTestDatabase();
    await emptyAll(database.url);
    current ??= openPgStore(database.url, 4);
  }, 60_000);
  afterAll(async () => {
    if (current) await closeStore(current);
    await database?.drop();
    await stopOwnCluster();
  }, 60_000);
  return {
    kind: "postgres",
    db: () => {
      if (!current) throw new Error("the test database opens in beforeEach");
      return current;
    },
  };
}

/**
 * Defines `fn`'s tests once per store.
 * @param name the suite's title (the store is appended)
 * @param fn defines the tests; call `store.db()` inside a test (or a beforeEach) for its database
 */
export function describeStores(name: string, fn: (store: TestStore) => void): void {
  describe(`${name} [sqlite]`, () => fn(sqliteStore()));
  describePg(`${name} [postgres]`, () => fn(postgresStore()));
}
