/**
 * Queue overhead on SQLite, without model calls (issue #20: SQLite must keep ≥ 2,000 trials/s at
 * 0 ms latency): one process drains a bench of N trials, claiming up to C at a time and completing
 * each round in one transaction, through the SqliteTrialJobQueue the job worker uses (the share-based
 * queue it was compared with is gone: bench/runner-compare.ts compares whole runs with a checkout
 * from before), on a fresh temp database file.
 *
 * Run: `npx tsx bench/sqlite-queue.ts [N=20000] [C=256]`
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase, type Db } from "../db/client";
import { SqliteTrialJobQueue } from "../db/queries/trial-job-queue";
import { insertQueuedBench } from "../db/test-support/bench-rows";
import { transaction } from "../db/transaction";

const N = Number(process.argv[2] ?? 20_000);
const C = Number(process.argv[3] ?? 256);

function fresh(): { db: Db; close: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), "benchwork-queue-bench-"));
  const db = openDatabase(path.join(dir, "q.db"));
  migrateDatabase(db);
  return { db, close: () => (db.$client.close(), rmSync(dir, { recursive: true, force: true })) };
}

const result = (now: number) => ({
  status: "done" as const,
  startedAt: now,
  finishedAt: now,
  latencyMs: 0,
  inputTokens: 1,
  outputTokens: 1,
  costUsd: 0,
  finishReason: "stop",
  output: "ok",
  record: null,
  checks: null,
  error: null,
});

async function jobQueue(): Promise<number> {
  const { db, close } = fresh();
  try {
    const queue = new SqliteTrialJobQueue(db);
    await transaction(db, async (tx) => {
      const b = await insertQueuedBench(tx, N);
      await queue.enqueue(tx, {
        benchId: b.benchId,
        concurrency: C,
        providerLimits: { scripted: C },
        trials: b.trialIds.map((trialId) => ({ trialId, providerKey: "scripted" })),
      });
    });
    const t0 = performance.now();
    let done = 0;
    for (;;) {
      const now = Date.now();
      const claims = await queue.claim("bench", C, now);
      if (claims.length === 0) break;
      done += (await queue.completeMany(claims.map((claim) => ({ claim, result: result(now) })))).length;
    }
    if (done !== N) throw new Error(`job queue: ${done} of ${N} completed`);
    return performance.now() - t0;
  } finally {
    close();
  }
}

console.log(`SQLite queue overhead: ${N.toLocaleString("en")} trials, ${C} per claim, load ${loadavg()[0].toFixed(1)}`);
for (const [name, run] of [["job queue (SqliteTrialJobQueue)", jobQueue]] as const) {
  const ms = await run();
  console.log(
    `  ${name.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  ${Math.round((N / ms) * 1000)
      .toLocaleString("en")
      .padStart(7)} trials/s`,
  );
}
