/**
 * The job worker's poll selects on SQLite are prepared once per connection (db/queries/prepared-ids.ts)
 * and still see every change made since; so are the SQLite queue's claim statements, a capped
 * bench's spend reads included.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { migrateDatabase, openDatabase, type Db } from "../client";
import { benches, trials } from "../schema";
import { insertQueuedBench } from "../test-support/bench-rows";
import { benchesToCancel, benchesToFinalize } from "./trial-jobs";
import { benchesWithoutJobs } from "./trial-jobs-backfill";
import { transaction } from "../transaction";
import { SqliteTrialJobQueue } from "./trial-job-queue";

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchwork-prepared-ids-"));
  db = openDatabase(path.join(dir, "p.db"));
  migrateDatabase(db);
});
afterEach(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the job worker's poll selects on SQLite", () => {
  it("compile once per connection and answer from the current rows every time", async () => {
    const { benchId, trialIds } = await insertQueuedBench(db, 2);
    const prepare = vi.spyOn(db.$client, "prepare");
    expect(await benchesToCancel(db)).toEqual([]);
    expect(await benchesToFinalize(db)).toEqual([]);
    // Its queued trials have no job (insertQueuedBench enqueues none).
    expect(await benchesWithoutJobs(db, { unqueuedOnly: true })).toEqual([benchId]);
    const compiled = prepare.mock.calls.length;
    expect(compiled).toBe(3);

    await db.update(benches).set({ cancelRequestedAt: 1 }).where(eq(benches.id, benchId));
    await db.update(trials).set({ status: "skipped" }).where(eq(trials.benchId, benchId));
    expect(await benchesToCancel(db)).toEqual([benchId]);
    expect(await benchesToFinalize(db)).toEqual([benchId]);
    expect(await benchesWithoutJobs(db, { unqueuedOnly: true })).toEqual([]);
    // The two updates compiled their own statements; the three selects none again.
    expect(prepare.mock.calls.length - compiled).toBe(2);
    expect(trialIds).toHaveLength(2);
  });
});

describe("the SQLite queue's claim of a bench with a spend cap", () => {
  it("compiles nothing after the queue's first claim, and counts the current claims against the cap", async () => {
    const { benchId, trialIds } = await insertQueuedBench(db, 5);
    // $0.035 at $0.01 a trial: 3 trials may run at once.
    await db
      .update(benches)
      .set({ settings: JSON.stringify({ spendCap: { usd: 0.035, trialEstimateUsd: 0.01 } }) })
      .where(eq(benches.id, benchId));
    const queue = new SqliteTrialJobQueue(db, { leaseMs: 60_000 });
    await transaction(db, (tx) =>
      queue.enqueue(tx, { benchId, concurrency: 10, providerLimits: { p: 10 }, trials: trialIds.map((trialId) => ({ trialId, providerKey: "p" })) }),
    );
    expect((await queue.claim("w", 1, 1_000)).map((c) => c.trialId)).toEqual([trialIds[0]]);
    const prepare = vi.spyOn(db.$client, "prepare");
    expect((await queue.claim("w", 10, 1_000)).map((c) => c.trialId)).toEqual([trialIds[1], trialIds[2]]);
    expect(await queue.claim("w", 10, 1_000)).toEqual([]);
    // Only each transaction's own BEGIN and COMMIT: the spend reads were prepared with the queue.
    expect(prepare.mock.calls.map((c) => c[0]).filter((sql) => !/^(BEGIN|COMMIT)/.test(sql))).toEqual([]);
  });
});
