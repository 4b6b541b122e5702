/**
 * Benches on PostgreSQL enqueue their trials' jobs in the launch transaction (issue 20): each queued
 * trial gets its pg-boss job, in its provider's lane, and a launch that rolls back leaves no job.
 */
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { closeStore, openPgStore } from "@/db/pg/store";
import { openPgPool } from "@/db/pg/client";
import { pgClientOfTx } from "@/db/pg/tx-client";
import { createTestDatabase, describePg, stopOwnCluster } from "@/db/pg/test-support/database";
import { laneName, trialJobId } from "@/db/pg/trial-job-queue";
import { launchBench } from "@/db/queries/benches";
import { reserveBenchId } from "@/db/queries/trial-jobs";
import { launchFromRequest, prepareBench } from "./prepare";
import { launchBenchRun } from "@/server/api/benches";
import { LOCAL_ACTOR } from "@/server/auth/actor-core";
import { recordedRequest, recordedSuite } from "./test-support/recorded-bench";
import { prepareTrialJobs, RECORDED_LANE, stopJobQueue } from "./trial-jobs";

describePg("trial jobs of a launch on PostgreSQL", () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: Db;
  let pool: pg.Pool;
  let promptId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = openPgStore(database.url, 4);
    // openPgPool listens for errors: pool.end() resolves once its clients are told to close, and the
    // database's DROP … WITH (FORCE) right after may terminate one still closing (an uncaught error in CI).
    pool = openPgPool(database.url, 2);
    promptId = await recordedSuite(db, [
      { key: "a", expected: "4", answers: { old: "4", new: "4" } },
      { key: "b", expected: "5", answers: { old: "5" } },
    ]);
  }, 60_000);
  afterAll(async () => {
    if (db) await stopJobQueue(db);
    if (db) await closeStore(db);
    await pool?.end();
    await database?.drop();
    await stopOwnCluster();
  }, 60_000);

  /** The bench's trials with whether each has a pending job, and its queue settings. */
  async function jobsOf(benchId: number) {
    const trials = await pool.query<{ id: number; status: string }>("SELECT id, status FROM trials WHERE bench_id = $1 ORDER BY id", [benchId]);
    const jobs = await pool.query<{ id: string; name: string; state: string }>("SELECT id::text, name, state FROM pgboss.job WHERE name = $1", [
      laneName(benchId, RECORDED_LANE),
    ]);
    const settings = await pool.query<{ concurrency: number }>("SELECT concurrency FROM queue_benches WHERE bench_id = $1", [benchId]);
    return { trials: trials.rows, jobs: jobs.rows, concurrency: settings.rows[0]?.concurrency ?? null };
  }

  it("enqueues one job per queued trial, in the recorded lane, with the bench's concurrency", async () => {
    const { id } = await launchFromRequest(db, recordedRequest(promptId, ["old", "new"], { concurrency: 3 }), { env: {} });
    const { trials, jobs, concurrency } = await jobsOf(id);
    // Case b has no recorded answer for "new": that trial is stored skipped, and gets no job.
    expect(trials.map((t) => t.status)).toEqual(["queued", "queued", "queued", "skipped"]);
    const queued = trials.filter((t) => t.status === "queued").map((t) => trialJobId(t.id));
    expect(jobs.map((j) => j.id).sort()).toEqual(queued.sort());
    expect(jobs.every((j) => j.state === "created")).toBe(true);
    expect(concurrency).toBe(3);
  });

  it("leaves no job when the launch transaction rolls back after enqueueing", async () => {
    const id = await reserveBenchId(db);
    const request = recordedRequest(promptId, ["old"]);
    const enqueue = (await prepareTrialJobs(db, id, [{ kind: "recorded", modelConfig: null }], 2, {}))!;
    const p = await prepareBench(db, request, {});
    await expect(
      launchBench(
        db,
        {
          systemId: "rec",
          promptId,
          title: "rolled back",
          launchKey: request.launchKey,
          settings: p.settings,
          rubric: p.rubric,
          rubricHash: p.rubricHash,
          baseline: p.baseline,
          judge: null,
          candidates: p.candidates,
          plan: p.plan,
          hasRecording: () => true,
        },
        {
          id,
          onQueued: async (tx, benchId) => {
            await enqueue(tx, benchId);
            // The jobs were written on the launch's own transaction: seen inside it, not outside…
            const lane = [laneName(benchId, RECORDED_LANE)];
            expect((await pgClientOfTx(tx).query("SELECT 1 FROM pgboss.job WHERE name = $1", lane)).rowCount).toBe(2);
            expect((await pool.query("SELECT 1 FROM pgboss.job WHERE name = $1", lane)).rowCount).toBe(0);
            throw new Error("launch failed after enqueueing");
          },
        },
      ),
    ).rejects.toThrow("launch failed after enqueueing");
    // …and gone with it: no bench, no trial, no job, no queue settings.
    expect((await pool.query("SELECT 1 FROM benches WHERE id = $1", [id])).rowCount).toBe(0);
    expect(await jobsOf(id)).toEqual({ trials: [], jobs: [], concurrency: null });
  });

  it("launches over the API on PostgreSQL (no longer refused), its trials enqueued", async () => {
    const body = { system: "rec", prompt: "answerer", candidate: ["recorded:old"] };
    const launched = await launchBenchRun(db, body, LOCAL_ACTOR, {});
    expect(launched.created).toBe(true);
    const { trials, jobs } = await jobsOf(launched.benchId);
    expect(trials.map((t) => t.status)).toEqual(["queued", "queued"]);
    expect(jobs.map((j) => j.id).sort()).toEqual(trials.map((t) => trialJobId(t.id)).sort());
  });
});
