/**
 * What the bench page's progress poll returns (issue #16): besides the counts, what the bench spent
 * and the trials its spend cap skipped, so the spend line follows the run (it said "spent $0.00"
 * while 5–12 trials were done: it was rendered once).
 */
import { eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { Db } from "@/db/client";
import { isPostgres, rawRows } from "@/db/dialect";
import { expect, it } from "vitest";
import { benches, trials } from "@/db/schema";
import { describeStores } from "@/db/test-support/stores";
import { insertQueuedBench } from "@/db/test-support/bench-rows";
import { transaction } from "@/db/transaction";
import { BUDGET_SKIP } from "@/lib/bench/budget";
import { benchProgress } from "@/server/api/benches";
import { benchProgressPoll } from "./progress-poll";

/** insertQueuedBench's launch time. */
const LAUNCHED = 1_700_000_000_000;
const LEASE = 60_000;

/** A worker's claim on trial `trialId` of bench `benchId` that lasts until `expiresAt`, in the store's job queue table. */
async function claim(db: Db, benchId: number, trialId: number, expiresAt: number): Promise<void> {
  if (isPostgres(db))
    await rawRows(
      db,
      sql`INSERT INTO trial_claims (trial_id, bench_id, provider_key, lane, job_id, worker_id, token, delivery, claimed_at, expires_at)
          VALUES (${trialId}, ${benchId}, 'p', 'l', ${randomUUID()}, 'w', ${randomUUID()}, 1, ${expiresAt - LEASE}, ${expiresAt}) RETURNING trial_id`,
    );
  else
    await rawRows(
      db,
      sql`INSERT INTO trial_jobs (trial_id, bench_id, provider_key, state, deliveries, worker_id, token, expires_at)
          VALUES (${trialId}, ${benchId}, 'p', 'claimed', 1, 'w', 't', ${expiresAt}) RETURNING trial_id`,
    );
  await db.update(trials).set({ status: "running" }).where(eq(trials.id, trialId));
}

describeStores("the progress poll", (store) => {
  it("carries the spend line's figures, as JSON: spent so far, per candidate, and the trials skipped as budget", async () => {
    const db = store.db();
    const { benchId, trialIds } = await transaction(db, (tx) => insertQueuedBench(tx, 4));
    const before = (await benchProgressPoll(db, benchId))!;
    expect(before.spend).toMatchObject({ spentUsd: 0, spentTrials: 0, budgetSkippedTotal: 0 });
    // Mid-run: two trials answered ($0.94 between them), one skipped by the cap, one running.
    await db.update(benches).set({ status: "running", startedAt: 1_700_000_000_000, spentUsd: 0.94, spentTrials: 2 }).where(eq(benches.id, benchId));
    await db.update(trials).set({ status: "done", finishedAt: 1_700_000_001_000 }).where(eq(trials.id, trialIds[0]));
    await db.update(trials).set({ status: "done", finishedAt: 1_700_000_002_000 }).where(eq(trials.id, trialIds[1]));
    await db.update(trials).set({ status: "skipped", error: BUDGET_SKIP, finishedAt: 1_700_000_002_000 }).where(eq(trials.id, trialIds[2]));
    await db.update(trials).set({ status: "running" }).where(eq(trials.id, trialIds[3]));
    const poll = (await benchProgressPoll(db, benchId))!;
    expect(poll).toMatchObject({ id: benchId, status: "running", done: 2, skipped: 1, running: 1 });
    expect(poll.spend).toMatchObject({ spentUsd: 0.94, spentTrials: 2, budgetSkippedTotal: 1 });
    expect(poll.spend.candidates).toHaveLength(1);
    // What the browser reads is what the server computed (no Map lost on the way).
    expect(JSON.parse(JSON.stringify(poll))).toEqual(poll);
  });

  it("is null for a bench that does not exist", async () => {
    expect(await benchProgressPoll(store.db(), 999)).toBeNull();
  });

  // Issue 20: BENCHWORK_WORKER=off and no `npm run worker`: the bench said "queued · time left not known yet" for ever.
  it("says since when a bench waited for a worker: 15 s after its launch with no trial ever claimed", async () => {
    const db = store.db();
    const { benchId } = await transaction(db, (tx) => insertQueuedBench(tx, 3));
    expect((await benchProgressPoll(db, benchId, { now: LAUNCHED + 14_000, leaseMs: LEASE }))!.noWorkerSince).toBeNull();
    const poll = (await benchProgressPoll(db, benchId, { now: LAUNCHED + 15_000, leaseMs: LEASE }))!;
    expect(poll).toMatchObject({ status: "queued", queued: 3, running: 0, noWorkerSince: LAUNCHED });
  });

  it("says the same in the API's progress (GET /api/v1/benches/{id}/progress), for a CI job that waits on it", async () => {
    const db = store.db();
    const { benchId } = await transaction(db, (tx) => insertQueuedBench(tx, 2));
    expect(await benchProgress(db, benchId, { now: LAUNCHED + 14_000, leaseMs: LEASE })).toMatchObject({ status: "queued", noWorkerSince: null });
    expect(await benchProgress(db, benchId, { now: LAUNCHED + 15_000, leaseMs: LEASE })).toMatchObject({
      status: "queued",
      queued: 2,
      noWorkerSince: LAUNCHED,
    });
  });

  it("does not ask for a worker once one claimed a trial, nor while a live worker runs another bench's trials", async () => {
    const db = store.db();
    const waiting = await transaction(db, (tx) => insertQueuedBench(tx, 2));
    const other = await transaction(db, (tx) => insertQueuedBench(tx, 2));
    const now = LAUNCHED + 30_000;
    // The other bench's worker stopped renewing (under half a lease left): no live worker anywhere.
    await claim(db, other.benchId, other.trialIds[0], now + LEASE / 2 - 1);
    expect((await benchProgressPoll(db, waiting.benchId, { now, leaseMs: LEASE }))!.noWorkerSince).toBe(LAUNCHED);
    // A live claim on the other bench: this one waits its turn (provider or bench limits), a worker runs.
    await claim(db, other.benchId, other.trialIds[1], now + LEASE);
    expect((await benchProgressPoll(db, waiting.benchId, { now, leaseMs: LEASE }))!.noWorkerSince).toBeNull();
    // The other bench's own poll: a live claim of its own is no reason to ask either (a trial of it runs).
    expect((await benchProgressPoll(db, other.benchId, { now, leaseMs: LEASE }))!.noWorkerSince).toBeNull();
    // A worker took one of the bench's trials: it started.
    await db
      .update(benches)
      .set({ status: "running", startedAt: LAUNCHED + 20_000 })
      .where(eq(benches.id, waiting.benchId));
    await db
      .update(trials)
      .set({ status: "done", finishedAt: LAUNCHED + 21_000 })
      .where(eq(trials.id, waiting.trialIds[0]));
    expect((await benchProgressPoll(db, waiting.benchId, { now: now + 60_000, leaseMs: LEASE }))!.noWorkerSince).toBeNull();
  });
});
