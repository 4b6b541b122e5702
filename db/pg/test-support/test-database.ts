/**
 * A fresh, migrated PostgreSQL database in a throwaway cluster, for tests and bench/ scripts alike
 * (no vitest here, so a script can import it): the cluster of `npm test` when
 * `BENCHWORK_TEST_DATABASE_URL` is set, else one started for this process (scripts/pg-cluster.mjs).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migratePostgres } from "../client";
import { startCluster } from "../../../scripts/pg-cluster.mjs";

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
