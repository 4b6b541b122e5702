/**
 * The setup the worker-driven bench suites share (reruns, deterministic replay): a migrated SQLite
 * file in a temp folder of the test's own, and a bench run to its end by the in-process worker.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase, type Db } from "@/db/client";
import { getBench, type BenchDetail } from "@/db/queries/benches";
import { startBenchWorker } from "../../worker";

/**
 * A fresh, migrated SQLite database `bench.db` in a new temp folder named after `prefix`.
 * @returns the database and its folder (the caller closes the one and removes the other)
 */
export function openTempBenchDb(prefix: string): { db: Db; dir: string } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const db = openDatabase(path.join(dir, "bench.db"));
  migrateDatabase(db);
  return { db, dir };
}

/**
 * Runs an in-process worker (no key in its environment, 10 ms polls, 1 ms retry delays, trials in
 * this thread) until bench `id` has ended, then stops it.
 * @returns the ended bench
 */
export async function runWorkerToEnd(db: Db, id: number): Promise<BenchDetail> {
  const worker = startBenchWorker(db, { env: {}, pollMs: 10, retryBaseDelayMs: 1, trialThreads: 0 });
  try {
    for (;;) {
      const b = await getBench(db, id);
      if (b && b.status !== "queued" && b.status !== "running") return b;
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await worker.stop(1000);
  }
}
