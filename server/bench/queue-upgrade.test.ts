/**
 * A database from before the job queue (issue 20): its open benches have queued trials, and trials
 * an old worker left `running`, but no `trial_jobs` rows. The job worker enqueues them when it
 * starts, so the bench still runs to the end with one result per trial and no migration of data.
 * A launch, by contrast, enqueues its trials in its own transaction.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { trials } from "@/db/schema";
import { queueBenches, queueLanes, trialJobs } from "@/db/schema-sqlite-queue";
import { launchFromRequest } from "./prepare";
import { startBenchWorker } from "../worker";
import { recordedRequest, recordedSuite, waitEnded } from "./test-support/recorded-bench";

const cases = ["a", "b", "c", "d"].map((key) => ({ key, expected: `answer ${key}`, answers: { old: `answer ${key}` } }));

describe("benches queued before the job queue", () => {
  it("a launch enqueues one job per trial in its transaction", async () => {
    const db = openMemoryDatabase();
    const { id } = await launchFromRequest(db, recordedRequest(await recordedSuite(db, cases), ["old"], { repeats: 2 }));
    const jobs = await db.select({ state: trialJobs.state }).from(trialJobs).where(eq(trialJobs.benchId, id));
    expect(jobs.map((j) => j.state)).toEqual(Array(8).fill("queued"));
  });

  it("runs to the end: trials without a job, queued or left running by an old worker, are enqueued at start", async () => {
    const db = openMemoryDatabase();
    const { id } = await launchFromRequest(db, recordedRequest(await recordedSuite(db, cases), ["old"], { repeats: 2 }));
    // As an older version left it: no job rows, and one trial claimed by a worker that is gone.
    await db.delete(trialJobs);
    await db.delete(queueLanes);
    await db.delete(queueBenches);
    const [first] = await db.select({ id: trials.id }).from(trials).where(eq(trials.benchId, id)).orderBy(trials.id).limit(1);
    await db.update(trials).set({ status: "running", workerId: "old-host:123:abc", startedAt: 1 }).where(eq(trials.id, first.id));

    const worker = startBenchWorker(db, { env: {}, pollMs: 20 });
    const bench = await waitEnded(db, id);
    await worker.stop(1000);
    expect(bench.status).toBe("finished");
    const rows = await db.select({ status: trials.status, output: trials.output, attempts: trials.attempts }).from(trials).where(eq(trials.benchId, id));
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => r.status === "done" && /^answer [a-d]$/.test(r.output ?? "") && r.attempts === 1)).toBe(true);
    const jobs = await db.select({ state: trialJobs.state }).from(trialJobs).where(eq(trialJobs.benchId, id));
    expect(jobs.map((j) => j.state)).toEqual(Array(8).fill("done"));
  });
});
