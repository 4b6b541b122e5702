/**
 * scripts/pg-cluster.mjs: a throwaway PostgreSQL cluster on a free loopback port that a test can
 * use and that leaves nothing behind; npm test's wrapper (test-pg.mjs) exports its URL, and starts
 * nothing under BENCHWORK_SKIP_PG=1.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { expect, it } from "vitest";
import { describePg } from "../db/pg/test-support/database";
import { findPgBin, MISSING_PG_MESSAGE, startCluster } from "./pg-cluster.mjs";
import { startTestCluster } from "./test-pg.mjs";

it("finds no binaries in a folder without them, and says what to do", () => {
  expect(findPgBin({ BENCHWORK_PG_BIN: path.join(import.meta.dirname, "no-such-folder") })).toBeNull();
  expect(MISSING_PG_MESSAGE).toMatch(/install Debian's `postgresql`.*BENCHWORK_SKIP_PG=1/);
});

it("starts no cluster under BENCHWORK_SKIP_PG=1", async () => {
  const env: Record<string, string | undefined> = { BENCHWORK_SKIP_PG: "1" };
  const said: string[] = [];
  const c = await startTestCluster(env, (l) => said.push(l));
  expect(env.BENCHWORK_TEST_DATABASE_URL).toBeUndefined();
  expect(said.join("\n")).toContain("BENCHWORK_SKIP_PG=1: the PostgreSQL suites are SKIPPED.");
  await c.stop();
});

describePg("the throwaway cluster", () => {
  it("serves a database on loopback, owned by an unprivileged user when run as root, and removes its folder when stopped", async () => {
    const cluster = await startCluster();
    try {
      expect(cluster.url).toMatch(/^postgres:\/\/benchwork@127\.0\.0\.1:\d+\/benchwork$/);
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      const r = await client.query<{ db: string; one: number }>("SELECT current_database() AS db, 1 AS one");
      await client.end();
      expect(r.rows[0]).toEqual({ db: "benchwork", one: 1 });
      if (process.getuid?.() === 0) expect(statSync(path.join(cluster.dir, "data")).uid).not.toBe(0);
    } finally {
      await cluster.stop();
    }
    expect(existsSync(cluster.dir)).toBe(false);
    const again = new pg.Client({ connectionString: cluster.url });
    await expect(again.connect()).rejects.toThrow();
  });

  it("exports its URL for npm test and removes it when stopped", async () => {
    const env: Record<string, string | undefined> = {};
    const c = await startTestCluster(env, () => undefined);
    expect(env.BENCHWORK_TEST_DATABASE_URL).toMatch(/^postgres:\/\//);
    await c.stop();
    expect(env.BENCHWORK_TEST_DATABASE_URL).toBeUndefined();
  });
});
