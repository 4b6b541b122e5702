/**
 * Memory of `trialFacts` (db/queries/bench-results.ts) on PostgreSQL (issue 20): it reads all of a
 * bench's trials in one query (their checks' JSON text; parsed one trial at a time while iterated).
 * Seeds one bench of N trials (default 20,000) with three checks each (~300 bytes of JSON, as a
 * finished bench stores), then, with the garbage collector run before each reading (`--expose-gc`),
 * prints the heap and RSS growth while the rows are held and after one pass over them, and the time.
 *
 * Run: `npx tsx --expose-gc bench/trial-facts-memory.ts [N]` (a throwaway cluster, or BENCHWORK_TEST_DATABASE_URL's).
 */
import { eq } from "drizzle-orm";
import { createTestDatabase, stopOwnCluster } from "../db/pg/test-support/test-database";
import { closeStore, openPgStore } from "../db/pg/store";
import { trialFacts } from "../db/queries/bench-results";
import { trials } from "../db/schema";
import { insertQueuedBench } from "../db/test-support/bench-rows";
import { transaction } from "../db/transaction";

const N = Number(process.argv[2]) || 20_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc (npx tsx --expose-gc bench/trial-facts-memory.ts)");
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

const database = await createTestDatabase();
try {
  const db = openPgStore(database.url, 2);
  try {
    const t0 = performance.now();
    const { benchId } = await transaction(db, (tx) => insertQueuedBench(tx, N));
    const checks = JSON.stringify(
      ["e0:contains", "e1:exact", "c:1"].map((key, i) => ({
        key,
        kind: i === 2 ? "criterion" : "contains",
        label: `${key} label`,
        verdict: i === 1 ? "failed" : "passed",
        score: i === 1 ? 0 : 1,
        message: "The answer names the order number and the tracking link.",
      })),
    );
    await db
      .update(trials)
      .set({ status: "done", checks, inputTokens: 300, outputTokens: 200, costUsd: 0.0011, latencyMs: 800 })
      .where(eq(trials.benchId, benchId));
    console.log(`seeded ${N} trials (checks ${checks.length} bytes each) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (let round = 0; round < 3; round++) {
      gc();
      const before = process.memoryUsage();
      const t1 = performance.now();
      const facts = await trialFacts(db, benchId);
      const read = performance.now() - t1;
      gc();
      const held = process.memoryUsage();
      let n = 0;
      let failed = 0;
      for (const f of facts) {
        n++;
        failed += f.checks?.filter((c) => c.verdict === "failed").length ?? 0;
      }
      const pass = process.memoryUsage();
      console.log(
        `round ${round + 1}: ${n} trials (${failed} failed checks); read ${read.toFixed(0)} ms, pass ${(performance.now() - t1 - read).toFixed(0)} ms; ` +
          `rows held: heap +${mb(held.heapUsed - before.heapUsed)}, rss +${mb(held.rss - before.rss)}; after the pass (no gc): heap +${mb(pass.heapUsed - before.heapUsed)}`,
      );
    }
  } finally {
    await closeStore(db);
  }
} finally {
  await database.drop();
  await stopOwnCluster();
}
