/**
 * Throughput of the pg-boss trial job queue (db/pg/trial-job-queue.ts) without model calls: one
 * process enqueues a bench of N trials in its launch transaction, then claims up to C at a time and
 * completes each (one transaction per completion), until none is left. Prints enqueue time and
 * trials per second; issue #20's target needs ~5,000/s across 4 workers (20,000 trials, 256 in
 * flight, 50 ms latency), so this says whether completions must be batched.
 *
 * Run: `npx tsx bench/pg-queue.ts [N=5000] [C=256] [--batched]` (starts a throwaway cluster unless
 * BENCHWORK_TEST_DATABASE_URL is set).
 */
import { createTestDatabase, stopOwnCluster } from "../db/pg/test-support/database";
import { insertBench } from "../db/pg/test-support/bench-rows";
import { openPgPool, withPgTransaction } from "../db/pg/client";
import { PgTrialJobQueue } from "../db/pg/trial-job-queue";

const N = Number(process.argv[2] ?? 5_000);
const C = Number(process.argv[3] ?? 256);
/** `--batched`: each round's completions in one transaction (completeMany). */
const batched = process.argv.includes("--batched");
const db = await createTestDatabase();
const pool = openPgPool(db.url, 2);
const queue = new PgTrialJobQueue({ url: db.url, poolSize: 8 });
await queue.start();
try {
  const bench = await withPgTransaction(pool, (client) => insertBench(client, N));
  const t0 = performance.now();
  const spec = { benchId: bench.benchId, trials: bench.trialIds.map((trialId) => ({ trialId, providerKey: "scripted" })) };
  await queue.prepare(spec);
  await withPgTransaction(pool, (client) => queue.enqueue(client, { ...spec, concurrency: C, providerLimits: { scripted: C } }));
  const t1 = performance.now();
  const now = Date.now();
  let done = 0;
  const result = { status: "done" as const, startedAt: now, finishedAt: now, latencyMs: 0, inputTokens: 1, outputTokens: 1, costUsd: 0, finishReason: "stop" };
  for (;;) {
    const claims = await queue.claim("bench", C, now);
    if (claims.length === 0) break;
    const entries = claims.map((claim) => ({ claim, result: { ...result, output: "ok", record: null, checks: null, error: null } }));
    if (batched) done += (await queue.completeMany(entries)).length;
    // One transaction per trial, run concurrently, as a worker's trials would finish.
    else done += (await Promise.all(entries.map((e) => queue.complete(e.claim, e.result)))).filter(Boolean).length;
  }
  const t2 = performance.now();
  console.log(`enqueue ${N} trials: ${(t1 - t0).toFixed(0)} ms`);
  console.log(
    `claim + complete${batched ? " (batched)" : ""} ${done} trials (≤ ${C} at a time): ${(t2 - t1).toFixed(0)} ms, ${Math.round((done / (t2 - t1)) * 1000)} trials/s`,
  );
} finally {
  await queue.stop();
  await pool.end();
  await db.drop();
  await stopOwnCluster();
}
