/**
 * Worker processes on PostgreSQL (issue #20, "Performance"): the same bench — 20,000 trials of one
 * model call at 50 ms latency, bench concurrency 256 — run by 1, then 2, then 4 `npm run worker`
 * processes (package.json's command line, server/bench/test-support/worker-fleet.ts), each run on a
 * fresh database of one throwaway cluster, against the scripted OpenAI-compatible server on
 * 127.0.0.1 (in this process; it counts the chat requests in flight). Printed side by side:
 *   wall    launch returned → bench finished (finalize included), as the app's progress would show it
 *   ideal   trials × latency / concurrency (target at 4 workers: wall ≤ 1.10 × ideal)
 *   peak    the model server's most chat requests in flight at once, against the per-provider limit
 *           (BENCHWORK_PROVIDER_CONCURRENCY given to the launch and the workers; never exceeded)
 *   load    the 1-minute load average before and after the run (the machine is shared)
 * An unmeasured warm-up bench (`--warmup`, default 1,000 trials) runs first on each fleet, so the
 * figure is of warm workers, as in a deployment.
 *
 * Run: `npx tsx bench/pg-workers.ts [--trials 20000] [--latency 50] [--concurrency 256]
 * [--provider-limit 256] [--workers 1,2,4] [--slots N] [--warmup 1000]` (`--trials 2000` for a quick
 * run; `--slots` sets BENCHWORK_WORKER_SLOTS, else the worker's default). Starts its own cluster
 * unless BENCHWORK_TEST_DATABASE_URL names one.
 */
import { mkdtempSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { closeStore, openPgStore } from "../db/pg/store";
import { createTestDatabase, stopOwnCluster } from "../db/pg/test-support/database";
import { getBenchProgress } from "../db/queries/benches";
import { launchFromRequest } from "../server/bench/prepare";
import { stopJobQueue } from "../server/bench/trial-jobs";
import { LOAD_CASES_MAX, loadRequest, seedLoadSuite, startLoadModelServer, waitUntil } from "../server/bench/test-support/load-bench";
import { WorkerFleet } from "../server/bench/test-support/worker-fleet";

const args = process.argv.slice(2);
/** `--name value`, or `def`. */
function arg(name: string, def: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : def;
}
/** `--name` as a whole number ≥ `min`; exits 2 naming the flag otherwise. */
function whole(name: string, def: number, min: number): number {
  const raw = arg(name, String(def));
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    console.error(`bench/pg-workers.ts: --${name}: expected a whole number ≥ ${min}, got "${raw}"`);
    process.exit(2);
  }
  return n;
}

const TRIALS = whole("trials", 20_000, 1);
const LATENCY = whole("latency", 50, 0);
const CONCURRENCY = whole("concurrency", 256, 1);
const PROVIDER_LIMIT = whole("provider-limit", 256, 1);
const WARMUP = whole("warmup", 1_000, 0);
const SLOTS = args.includes("--slots") ? whole("slots", 1, 1) : null;
const FLEETS = arg("workers", "1,2,4")
  .split(",")
  .map((s) => Number(s.trim()));
if (FLEETS.some((n) => !Number.isInteger(n) || n < 1)) {
  console.error(`bench/pg-workers.ts: --workers: expected worker counts like 1,2,4, got "${arg("workers", "")}"`);
  process.exit(2);
}
/** Cap on waiting for one bench (ms): 20× the ideal, at least 10 minutes; only so a stuck run ends. */
const CAP_MS = Math.max(600_000, 20 * ((TRIALS * LATENCY) / CONCURRENCY));
const ideal = (TRIALS * LATENCY) / CONCURRENCY / 1000;

interface Run {
  workers: number;
  wallS: number;
  peak: number;
  done: number;
  error: number;
  skipped: number;
  loadBefore: number;
  loadAfter: number;
}

/** One fleet of `workers` processes on a fresh database: warm-up bench, then the measured one. */
async function measure(workers: number): Promise<Run> {
  const database = await createTestDatabase();
  const db = openPgStore(database.url, 4);
  const model = await startLoadModelServer({ latencyMs: LATENCY });
  const finished = new Map<number, () => void>();
  const fleet = new WorkerFleet({
    env: {
      BENCHWORK_DATABASE_URL: database.url,
      BENCHWORK_DB: path.join(mkdtempSync(path.join(tmpdir(), "benchwork-pg-workers-")), "unused.db"),
      BENCHWORK_PROVIDER_CONCURRENCY: String(PROVIDER_LIMIT),
      ...(SLOTS !== null ? { BENCHWORK_WORKER_SLOTS: String(SLOTS) } : {}),
    },
    onBenchFinished: (id) => finished.get(id)?.(),
  });
  try {
    const suite = await seedLoadSuite(db, { cases: Math.min(TRIALS, LOAD_CASES_MAX), baseUrl: model.server.url });
    await fleet.start(workers);
    const env = { BENCHWORK_PROVIDER_CONCURRENCY: String(PROVIDER_LIMIT) };
    /** Launches `trials` trials (the New bench action's path) and waits until the bench has ended. */
    const run = async (trials: number) => {
      const { id } = await launchFromRequest(db, loadRequest(suite, { trials, concurrency: CONCURRENCY }), { env });
      const t0 = performance.now();
      // A worker prints `bench #N finished` as it finalizes; a 1 s poll covers anything else.
      const p = await waitUntil(
        `bench #${id} (${trials} trials, ${workers} workers) to end`,
        async () => {
          await Promise.race([new Promise<void>((r) => finished.set(id, r)), new Promise((r) => setTimeout(r, 1_000))]);
          const p = (await getBenchProgress(db, id))!;
          return p.status === "queued" || p.status === "running" ? null : p;
        },
        { timeoutMs: CAP_MS, intervalMs: 0, detail: async () => JSON.stringify(await getBenchProgress(db, id)) },
      );
      return { p, wallS: (performance.now() - t0) / 1000 };
    };
    if (WARMUP > 0) await run(Math.min(WARMUP, suite.caseKeys.length));
    model.server.requests.reset(); // the peak from here on
    const loadBefore = loadavg()[0];
    const { p, wallS } = await run(TRIALS);
    return {
      workers,
      wallS,
      peak: model.server.requests.peakInFlight,
      done: p.done,
      error: p.error,
      skipped: p.skipped,
      loadBefore,
      loadAfter: loadavg()[0],
    };
  } finally {
    await fleet.stop();
    await model.close();
    await stopJobQueue(db);
    await closeStore(db);
    await database.drop();
  }
}

console.log(
  `PostgreSQL, ${TRIALS.toLocaleString("en-US")} trials at ${LATENCY} ms latency, bench concurrency ${CONCURRENCY}, provider limit ${PROVIDER_LIMIT}, ` +
    `worker slots ${SLOTS ?? "default"}, warm-up ${Math.min(WARMUP, TRIALS, LOAD_CASES_MAX)} trials per fleet; ${availableParallelism()} cores`,
);
const runs: Run[] = [];
try {
  for (const n of FLEETS) {
    const r = await measure(n);
    runs.push(r);
    console.log(`${n} worker${n > 1 ? "s" : ""}: ${r.wallS.toFixed(2)} s (${r.done} done, ${r.error} errors, ${r.skipped} skipped)`);
  }
} finally {
  await stopOwnCluster();
}

const row = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(8) : c.padStart(14))).join(" ");
console.log("");
console.log(row(["workers", "wall s", "ideal s", "wall / ideal", "trials/s", "peak in flight", "provider limit", "load 1m", "trials"]));
for (const r of runs)
  console.log(
    row([
      String(r.workers),
      r.wallS.toFixed(2),
      ideal.toFixed(2),
      ideal > 0 ? (r.wallS / ideal).toFixed(3) : "n/a",
      ((r.done + r.error + r.skipped) / r.wallS).toFixed(0),
      String(r.peak),
      String(PROVIDER_LIMIT),
      `${r.loadBefore.toFixed(1)}→${r.loadAfter.toFixed(1)}`,
      `${r.done}/${TRIALS}${r.error ? ` (${r.error} err)` : ""}`,
    ]),
  );
const over = runs.filter((r) => r.peak > PROVIDER_LIMIT);
console.log(
  `targets: wall ≤ 1.10 × ideal at 4 workers; peak in flight ≤ provider limit (${over.length === 0 ? "held in every run" : `EXCEEDED with ${over.map((r) => r.workers).join(", ")} workers`})`,
);
process.exit(0);
