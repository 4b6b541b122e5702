/**
 * PostgreSQL for tests. `npm test` starts one throwaway cluster (scripts/pg-cluster.mjs) and exports
 * `BENCHWORK_TEST_DATABASE_URL`; a test file run alone without it starts its own. Each
 * {@link createTestDatabase} makes a fresh database in that cluster with every migration applied,
 * so test files never share rows. When PostgreSQL is not installed the suites FAIL, saying so,
 * unless `BENCHWORK_SKIP_PG=1` is set explicitly (then {@link describePg} skips them).
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { findPgBin, MISSING_PG_MESSAGE } from "../../../scripts/pg-cluster.mjs";

import { createTestDatabase, stopOwnCluster } from "./test-database";

export { createTestDatabase, stopOwnCluster };

/** True when `BENCHWORK_SKIP_PG=1`: the PostgreSQL suites are skipped instead of failing. */
export const SKIP_PG = process.env.BENCHWORK_SKIP_PG === "1";

/**
 * `describe` for a suite that needs PostgreSQL. Skipped (and titled so) only under
 * `BENCHWORK_SKIP_PG=1`; when there is no cluster URL and no PostgreSQL binaries, the suite is one
 * failing test that says how to install them, so a machine without PostgreSQL never passes quietly.
 */
export function describePg(name: string, fn: () => void): void {
  if (SKIP_PG) describe.skip(`${name} (skipped: BENCHWORK_SKIP_PG=1)`, fn);
  else if (!process.env.BENCHWORK_TEST_DATABASE_URL?.trim() && !findPgBin())
    describe(name, () =>
      it("needs PostgreSQL", () => {
        throw new Error(MISSING_PG_MESSAGE);
      }),
    );
  else describe(name, fn);
}

/**
 * For a suite that runs commands against PostgreSQL (inside its `describePg`): a fresh database,
 * seeded by `seed` when given, that `BENCHWORK_DATABASE_URL` names while the suite runs; afterwards
 * the variable is restored, the database dropped and a cluster of this file's own stopped.
 * @returns a function giving the database's URL (once the suite has started)
 */
export function useTestDatabaseAsStore(seed?: (url: string) => Promise<void>): () => string {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let saved: string | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    await seed?.(database.url);
    saved = process.env.BENCHWORK_DATABASE_URL;
    process.env.BENCHWORK_DATABASE_URL = database.url;
  }, 120_000);
  afterAll(async () => {
    if (saved === undefined) delete process.env.BENCHWORK_DATABASE_URL;
    else process.env.BENCHWORK_DATABASE_URL = saved;
    await database?.drop();
    await stopOwnCluster();
  }, 60_000);
  return () => {
    if (!database) throw new Error("the test database is made in beforeAll: read its URL inside a test");
    return database.url;
  };
}
