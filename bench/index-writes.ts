/**
 * What the covering index of the statistics' case figures (issue #16: "computing the statistics for
 * a 20,000-trial bench adds < 50 ms") costs the worker: trials are written once per result, so every
 * index on them is rewritten with it. Result-writing throughput and the case figures read, side by
 * side on copies of one seeded database, alternated round by round (A B C A B C …) so all see the
 * same load:
 * - "before": `trials_matrix` as it was (without cost, latency, rerun, finished_at): the figures read the trial rows;
 * - "after": `trials_matrix` with cost, latency, rerun and finished_at (migration 0018): those columns ride in the
 *   entry a result rewrites anyway (its status and counts change);
 * - "separate index": the old `trials_matrix` plus a second covering index
 *   `(bench_id, candidate_id, bench_case_id, status, passed_checks, failed_checks, cost_usd, latency_ms)`,
 *   the first idea for it, written in full on every result.
 * Each drains a queued bench of N trials through the real queue (SqliteTrialQueue: claims of C,
 * results completed in batches of B as the worker flushes them, each with 3 checks, a latency and a cost).
 *
 * Run: `npx tsx bench/index-writes.ts [--trials 20000] [--claim 256] [--batch 32] [--rounds 3] [--runs 20]`
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase } from "../db/client";
import { benchCaseFigures } from "../db/queries/bench-tallies";
import { SqliteTrialJobQueue } from "../db/queries/trial-job-queue";
import { trials } from "../db/schema";
import { eq } from "drizzle-orm";
import { insertQueuedBench } from "../db/test-support/bench-rows";
import { transaction } from "../db/transaction";
import type { TrialResult } from "../lib/bench/trial-jobs";
import { describeTimes, percentile, timeMany } from "./stats";

const args = process.argv.slice(2);
const opt = (name: string, d: number) => Number(args.includes(name) ? args[args.indexOf(name) + 1] : d) || d;
const N = opt("--trials", 20_000);
const C = opt("--claim", 256);
const B = opt("--batch", 32);
const ROUNDS = opt("--rounds", 3);
const RUNS = opt("--runs", 20);

const OLD_MATRIX = "CREATE INDEX trials_matrix ON trials (bench_id, bench_case_id, candidate_id, status, passed_checks, failed_checks, error_checks)";
// The case figures read `trials_matrix` (INDEXED BY): timed for the first two only.
const VARIANTS: { name: string; ddl: string; read: boolean }[] = [
  { name: "before: trials_matrix without the figures' columns", ddl: `DROP INDEX trials_matrix; ${OLD_MATRIX};`, read: true },
  { name: "after: trials_matrix with cost, latency, rerun, finished_at", ddl: "", read: true },
  {
    name: "separate covering index beside the old trials_matrix",
    read: false,
    ddl: `DROP INDEX trials_matrix; ${OLD_MATRIX}; CREATE INDEX trials_figures ON trials (bench_id, candidate_id, bench_case_id, status, passed_checks, failed_checks, cost_usd, latency_ms);`,
  },
];

/** A finished trial's outcome as the worker reports it: 3 checks (some failing), latency and cost from a fixed seed. */
function outcome(rnd: () => number, now: number): TrialResult {
  const checks = ["e0:contains", "e1:exact", "c:1"].map((key) => {
    const passed = rnd() >= 0.15;
    return { key, kind: "contains", label: key, verdict: passed ? ("passed" as const) : ("failed" as const), score: passed ? 1 : 0, message: "" };
  });
  const outTok = Math.round(200 * (0.7 + rnd() * 0.6));
  return {
    status: "done",
    startedAt: now,
    finishedAt: now,
    latencyMs: Math.round(800 * (0.6 + rnd() * 0.8)),
    inputTokens: 300,
    outputTokens: outTok,
    costUsd: (300 + outTok * 4) / 1e6,
    finishReason: "stop",
    output: "answer",
    record: null,
    checks,
    error: null,
  };
}

/** Drains bench `benchId` of database `file` through the queue; returns the wall ms and the figures read's times. */
async function drain(file: string, benchId: number, read: boolean): Promise<{ ms: number; cpuMs: number; reads: number[]; readCpuMs: number }> {
  const db = openDatabase(file);
  try {
    let s = 7;
    const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    const q = new SqliteTrialJobQueue(db);
    let done = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (;;) {
      const claimed = await q.claim("w", C, Date.now());
      if (claimed.length === 0) break;
      for (let i = 0; i < claimed.length; i += B) {
        const now = Date.now();
        done += (await q.completeMany(claimed.slice(i, i + B).map((claim) => ({ claim, result: outcome(rnd, now) })))).length;
      }
    }
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (done !== N) throw new Error(`${done} of ${N} trials completed`);
    if (!read) return { ms, cpuMs: (cpu.user + cpu.system) / 1000, reads: [], readCpuMs: NaN };
    await timeMany(3, () => benchCaseFigures(db, benchId, { neverRerun: true }));
    const rc0 = process.cpuUsage();
    const reads = await timeMany(RUNS, () => benchCaseFigures(db, benchId, { neverRerun: true }));
    const rc = process.cpuUsage(rc0);
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000, reads, readCpuMs: (rc.user + rc.system) / 1000 / RUNS };
  } finally {
    db.$client.close();
  }
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "benchwork-index-writes-"));
  try {
    const template = path.join(dir, "template.db");
    const db = openDatabase(template);
    migrateDatabase(db);
    const { benchId } = await transaction(db, async (tx) => {
      const bench = await insertQueuedBench(tx, N);
      const queued = await tx.select({ id: trials.id }).from(trials).where(eq(trials.benchId, bench.benchId));
      // One lane, limits that never bind: the script times the result writes, not the claim's bounds.
      await SqliteTrialJobQueue.enqueueIn(tx, {
        benchId: bench.benchId,
        concurrency: N,
        providerLimits: { p: N },
        trials: queued.map((t) => ({ trialId: t.id, providerKey: "p" })),
      });
      return bench;
    });
    db.$client.pragma("wal_checkpoint(TRUNCATE)");
    db.$client.close();
    console.log(`result writes: ${N.toLocaleString("en")} trials, claims of ${C}, results completed ${B} at a time, ${ROUNDS} rounds alternated`);
    const got = VARIANTS.map(() => ({ ms: [] as number[], cpu: [] as number[], reads: [] as number[], readCpu: [] as number[], load: [] as string[] }));
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, v] of VARIANTS.entries()) {
        const file = path.join(dir, `v${i}.db`);
        copyFileSync(template, file);
        const w = openDatabase(file);
        if (v.ddl) w.$client.exec(v.ddl);
        w.$client.close();
        const r = await drain(file, benchId, v.read);
        got[i].ms.push(r.ms);
        got[i].cpu.push(r.cpuMs);
        got[i].reads.push(...r.reads);
        got[i].readCpu.push(r.readCpuMs);
        got[i].load.push(loadavg()[0].toFixed(1));
        console.log(
          `  round ${round + 1} ${v.name}: ${Math.round((N / r.ms) * 1000).toLocaleString("en")} trials/s, CPU ${((r.cpuMs / N) * 1000).toFixed(0)} µs per result${v.read ? `; figures read p50 ${percentile(r.reads, 50).toFixed(1)} ms, CPU ${r.readCpuMs.toFixed(1)} ms` : ""}`,
        );
        for (const ext of ["", "-wal", "-shm"]) rmSync(file + ext, { force: true });
      }
    // This process's CPU time per result beside the wall-clock rate: on a loaded machine the rate follows the other processes.
    console.log("\nside by side (results written per second and CPU µs per result, each round; the case figures read over every round's runs):");
    for (const [i, v] of VARIANTS.entries())
      console.log(
        `  ${v.name.padEnd(54)} ${got[i].ms.map((ms) => Math.round((N / ms) * 1000).toLocaleString("en")).join(", ")} trials/s; CPU ${got[i].cpu
          .map((c) => ((c / N) * 1000).toFixed(0))
          .join(", ")} µs per result (load ${got[i].load.join(", ")})${
          v.read ? ` · figures read ${describeTimes(got[i].reads)}, CPU ${got[i].readCpu.map((c) => c.toFixed(1)).join(", ")} ms per read` : ""
        }`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
