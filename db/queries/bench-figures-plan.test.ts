/**
 * The statistics' case figures (issue #16: "computing the statistics for a 20,000-trial bench adds
 * < 50 ms") are read from the covering index `trials_matrix`, not from the trial rows with their
 * outputs and checks: the plan on both stores names the index, and on SQLite reads it alone.
 */
import pg from "pg";
import { sql, type SQL } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Db } from "../client";
import { rawRows } from "../dialect";
import { describeStores, type TestStore } from "../test-support/stores";
import { insertQueuedBench } from "../test-support/bench-rows";
import { transaction } from "../transaction";
import { benchCaseFigures, caseFiguresSql } from "./bench-tallies";
import { eq } from "drizzle-orm";
import { benchCases, trials } from "../schema";

/** The plan of `query` as text: SQLite's EXPLAIN QUERY PLAN, or PostgreSQL's EXPLAIN with scans of the table off. */
async function planOf(store: TestStore, db: Db, query: SQL): Promise<string> {
  const q = (db as unknown as { dialect: { sqlToQuery: (s: SQL) => { sql: string; params: unknown[] } } }).dialect.sqlToQuery(query);
  if (store.kind === "sqlite") {
    return (db.$client.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[]).map((r) => r.detail).join("\n");
  }
  // A test table is tiny, so the planner would scan it anyway: take the table scans off to ask which
  // index serves the query (an index-only scan needs the visibility map, hence the VACUUM first).
  await rawRows(db, sql`VACUUM ANALYZE trials`);
  const client = await (db.$client as unknown as pg.Pool).connect();
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL enable_seqscan = off");
    await client.query("SET LOCAL enable_bitmapscan = off");
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${q.sql}`, q.params);
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

describeStores("the case figures' plan", (store) => {
  it("reads every column of a bench's trials from the covering index trials_matrix, with or without reruns (PostgreSQL: without)", async () => {
    const db = store.db();
    const { benchId } = await transaction(db, (tx) => insertQueuedBench(tx, 40));
    for (const neverRerun of [true, false]) {
      const plan = await planOf(store, db, caseFiguresSql(db, benchId, { neverRerun }));
      if (store.kind === "sqlite") {
        // The trials from the index alone (no table row), grouped in the index's order (no sort).
        expect(plan).toMatch(/SEARCH trials USING COVERING INDEX trials_matrix \(bench_id=\?\)/);
        expect(plan).not.toMatch(/TEMP B-TREE/);
      } else if (neverRerun) {
        // As the finalize reads it. With reruns, PostgreSQL's choice of anti join on a 40-row table
        // says nothing of a real bench's. (PostgreSQL has no hints: on a table mostly of this one
        // bench its planner rightly scans the table instead; the index serves a bench among many.)
        expect(plan).toMatch(/Index Only Scan using trials_matrix on trials/);
      }
    }
  });

  it("counts two bench cases of one case revision as one case (the grouping by revision, from the same index)", async () => {
    const db = store.db();
    const { benchId, trialIds } = await transaction(db, (tx) => insertQueuedBench(tx, 3));
    const bc = await db
      .select({ id: benchCases.id, r: benchCases.caseRevisionId })
      .from(benchCases)
      .where(eq(benchCases.benchId, benchId))
      .orderBy(benchCases.id);
    await db.update(benchCases).set({ caseRevisionId: bc[0].r }).where(eq(benchCases.id, bc[1].id));
    const done = (id: number, passed: number, failed: number, costUsd: number, latencyMs: number) =>
      db.update(trials).set({ status: "done", passedChecks: passed, failedChecks: failed, costUsd, latencyMs }).where(eq(trials.id, id));
    await done(trialIds[0], 1, 0, 0.01, 100);
    await done(trialIds[1], 0, 1, 0.03, 300);
    await done(trialIds[2], 1, 0, 0.05, 500);
    const [[, figures]] = [...(await benchCaseFigures(db, benchId, { neverRerun: true }))];
    expect([...figures]).toEqual([
      [bc[0].r, { passed: 1, scored: 2, done: 2, costUsd: expect.closeTo(0.02, 10) as number, latencyMs: 200 }],
      [bc[2].r, { passed: 1, scored: 1, done: 1, costUsd: expect.closeTo(0.05, 10) as number, latencyMs: 500 }],
    ]);
  });
});
