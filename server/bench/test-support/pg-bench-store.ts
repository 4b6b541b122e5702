/**
 * The PostgreSQL store of a bench suite (call inside `describePg`): a database of its own in the
 * test cluster, opened before the suite's tests; after them the launch's pg-boss queue in this
 * process is stopped, the store closed, the database dropped, and the cluster stopped when this
 * process started it. A suite's own `afterAll` registered after this call runs first (Vitest runs
 * after-hooks in reverse order), so its workers and queues stop before the store closes.
 */
import { afterAll, beforeAll } from "vitest";
import type { Db } from "@/db/client";
import { closeStore, openPgStore } from "@/db/pg/store";
import { createTestDatabase, stopOwnCluster } from "@/db/pg/test-support/database";
import { stopJobQueue } from "../trial-jobs";

/**
 * @param poolSize connections of the store's pool
 * @returns the store and its database's URL, each readable once the suite's `beforeAll` ran
 */
export function pgBenchStore(poolSize: number): { db: () => Db; url: () => string } {
  let database: { url: string; drop: () => Promise<void> } | null = null;
  let db: Db | null = null;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = openPgStore(database.url, poolSize);
  }, 60_000);
  afterAll(async () => {
    if (db) {
      await stopJobQueue(db);
      await closeStore(db);
    }
    await database?.drop();
    await stopOwnCluster();
  }, 60_000);
  const opened = <T>(v: T | null): T => {
    if (v === null) throw new Error("the PostgreSQL store opens in beforeAll");
    return v;
  };
  return { db: () => opened(db), url: () => opened(database).url };
}
