/**
 * Retention's lookup at finalize (issue 20): a bench whose reference candidate failed N cases makes
 * a retained copy of each, looking every copy up by its origin's `fromCaseId` first
 * (db/queries/retention.ts). Without `retention_origin_index` each lookup scanned every case, so the
 * time grew with N² (1.1–1.7 s of a 20,000-trial finalize: 2,000 cases × 2 candidates × 5 repeats).
 *
 * Seeds a bench of N failed trials (one per case) on SQLite (a temp file) and on PostgreSQL (a
 * throwaway cluster, or BENCHWORK_TEST_DATABASE_URL's), then times retention side by side, each in
 * a transaction that is rolled back: "before" (the index dropped inside the transaction) and "after"
 * (with it); "first" makes N copies, "again" finds all N and refreshes none. Several rounds; prints
 * each round and the median.
 *
 * Run: `npx tsx bench/retention.ts [N …] [--rounds R] [--no-pg]` (default N = 2000 8000, R = 3).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { eq, sql, type SQL } from "drizzle-orm";
import { migrateDatabase, openDatabase, type Db } from "../db/client";
import { rawRows } from "../db/dialect";
import { createTestDatabase, stopOwnCluster } from "../db/pg/test-support/test-database";
import { closeStore, isPostgres, openPgStore } from "../db/pg/store";
import { retainFailingCasesIn } from "../db/queries/retention";
import { benchCandidates, trials } from "../db/schema";
import { insertQueuedBench } from "../db/test-support/bench-rows";
import { transaction } from "../db/transaction";
import type { Recommendation } from "../lib/bench/recommend";
import { percentile } from "./stats";

const args = process.argv.slice(2);
const rounds = Number(args.includes("--rounds") ? args[args.indexOf("--rounds") + 1] : 3) || 3;
const sizes = args.filter((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--rounds").map(Number);
const SIZES = sizes.length ? sizes : [2_000, 8_000];

/** Rolls a transaction back after `fn` (a thrown sentinel: `transaction` commits when its body resolves). */
class Rollback extends Error {}

async function exec(db: Db, q: SQL): Promise<void> {
  if (isPostgres(db)) await rawRows(db, q);
  else db.run(q);
}

/** Milliseconds retention takes on `benchId`, twice in one rolled-back transaction: making the copies, then finding them all. */
async function timeRetention(db: Db, benchId: number, candidateId: number, withIndex: boolean): Promise<[number, number]> {
  const rec: Recommendation = { recommendedCandidateId: candidateId, headline: "", candidates: [] };
  let times: [number, number] = [0, 0];
  await transaction(db, async (tx) => {
    if (!withIndex) await exec(tx, sql`DROP INDEX retention_origin_index`);
    const t0 = performance.now();
    const made = await retainFailingCasesIn(tx, benchId, rec, candidateId);
    const t1 = performance.now();
    const again = await retainFailingCasesIn(tx, benchId, rec, candidateId);
    times = [t1 - t0, performance.now() - t1];
    if (made === 0 || again !== 0) throw new Error(`retention made ${made} copies, then refreshed ${again}`);
    throw new Rollback();
  }).catch((e: unknown) => {
    if (!(e instanceof Rollback)) throw e;
  });
  return times;
}

async function measure(label: string, db: Db): Promise<void> {
  for (const n of SIZES) {
    const { benchId } = await transaction(db, (tx) => insertQueuedBench(tx, n));
    await db.update(trials).set({ status: "done", failedChecks: 1 }).where(eq(trials.benchId, benchId));
    const [{ id: candidateId }] = await db.select({ id: benchCandidates.id }).from(benchCandidates).where(eq(benchCandidates.benchId, benchId));
    if (isPostgres(db)) await rawRows(db, sql`ANALYZE`);
    else db.$client.exec("ANALYZE");
    const runs: Record<"before" | "after", [number, number][]> = { before: [], after: [] };
    for (let r = 0; r < rounds; r++) {
      for (const withIndex of [false, true]) {
        const t = await timeRetention(db, benchId, candidateId, withIndex);
        runs[withIndex ? "after" : "before"].push(t);
        console.log(`${label} N=${n} round ${r + 1} ${withIndex ? "after " : "before"}: first ${t[0].toFixed(0)} ms, again ${t[1].toFixed(0)} ms`);
      }
    }
    const med = (xs: number[]) => percentile(xs, 50).toFixed(0);
    for (const k of ["before", "after"] as const)
      console.log(
        `${label} N=${n} ${k.padEnd(6)} median: first ${med(runs[k].map((t) => t[0]))} ms, again ${med(runs[k].map((t) => t[1]))} ms (${rounds} rounds)`,
      );
  }
}

console.log(`load average ${loadavg()[0].toFixed(2)}`);
const dir = mkdtempSync(path.join(tmpdir(), "bw-retention-"));
try {
  const db = openDatabase(path.join(dir, "bench.db"));
  migrateDatabase(db);
  await measure("sqlite  ", db);
  db.$client.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (!args.includes("--no-pg")) {
  const database = await createTestDatabase();
  try {
    const db = openPgStore(database.url, 2);
    try {
      await measure("postgres", db);
    } finally {
      await closeStore(db);
    }
  } finally {
    await database.drop();
    await stopOwnCluster();
  }
}
console.log(`load average ${loadavg()[0].toFixed(2)}`);
