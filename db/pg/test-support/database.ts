/**
 * PostgreSQL for tests. `npm test` starts one throwaway cluster (scripts/pg-cluster.mjs) and exports
 * `BENCHWORK_TEST_DATABASE_URL`; a test file run alone without it starts its own. Each
 * {@link createTestDatabase} makes a fresh database in that cluster with every migration applied,
 * so test files never share rows. When PostgreSQL is not installed the suites FAIL, saying so,
 * unless `BENCHWORK_SKIP_PG=1` is set explicitly (then {@link describePg} skips them).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, it } from "vitest";
import { migratePostgres } from "../client";
import { findPgBin, MISSING_PG_MESSAGE, startCluster } from "../../../scripts/pg-cluster.mjs";

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

let ownCluster: Promise<{ url: string; stop: () => Promise<void> }> | null = null;

/** The cluster URL: the shared one from `npm test`, else one started for this test file. */
async function clusterUrl(): Promise<string> {
  const shared = process.env.BENCHWORK_TEST_DATABASE_URL?.trim();
  if (shared) return shared;
  ownCluster ??= startCluster();
  return (await ownCluster).url;
}

/** Stops the cluster this file started (none when `npm test` shared one). */
export async function stopOwnCluster(): Promise<void> {
  if (!ownCluster) return;
  const c = await ownCluster.catch(() => null);
  ownCluster = null;
  await c?.stop();
}

/**
 * A fresh, migrated database in the test cluster.
 * @returns its URL and `drop()` (drops it, closing other sessions)
 * @throws when PostgreSQL is not installed (message says how to install it or set BENCHWORK_SKIP_PG=1)
 */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(await clusterUrl());
  const name = `bw_test_${randomBytes(6).toString("hex")}`;
  const admin = new URL(base);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  await migratePostgres(url.toString());
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
