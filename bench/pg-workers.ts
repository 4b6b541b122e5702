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
 *   cpu     CPU time (user + system, from /proc) during the run, in µs per trial, by process: the
 *           worker processes; PostgreSQL (its postmaster and every backend: live children's times plus
 *           the reaped ones' that /proc adds to the postmaster); this process (the scripted model
 *           server, the launch, the relay below unless `--no-relay`); and their total (the target
 *           at 4 workers on 2 cores needs the total ≲ 400 µs)
 *   rss     the largest peak RSS (VmHWM, all threads) of the worker processes, in MB (issue #5: < 300 MB)
 *   lock waiters  backends of the run's database waiting on a lock (a row another transaction holds),
 *           mean over samples every 20 ms, and the statement most often seen waiting
 *   held    claims held (trial_claims rows), mean over samples every 20 ms, as a share of the bench's
 *           concurrency: below 1, slots stood free between a stored result and the next claim
 *   in call chat requests in flight at the model server, mean over samples every 10 ms, as a share of
 *           the bench's concurrency: wall ≈ ideal / in call; held − in call is slot time outside a
 *           model call (the claim's reply, the trial's own work, the result waiting and its store)
 *   trips   round trips to PostgreSQL of the worker processes during the run, per trial (they
 *           connect through a counting relay, bench/pg-wire-count.ts: every Query and Sync message;
 *           `--no-relay` connects them directly, so the relay's CPU is not on the machine, and prints n/a)
 * An unmeasured warm-up bench (`--warmup`, default 1,000 trials) runs first on each fleet, so the
 * figure is of warm workers, as in a deployment.
 *
 * Run: `npx tsx bench/pg-workers.ts [--trials 20000] [--latency 50] [--concurrency 256]
 * [--provider-limit 256] [--workers 1,2,4] [--slots N] [--warmup 1000] [--before DIR] [--cpu-prof DIR] [--no-relay]`
 * (`--trials 2000` for a quick run; `--slots` sets BENCHWORK_WORKER_SLOTS, else the worker's
 * default). `--before DIR` also runs the workers of another checkout (e.g. `git worktree add DIR
 * <commit>` with its node_modules) on each fleet size, alternating with this one's, and prints both;
 * the launch and the scripted server are this checkout's in both. `--cpu-prof DIR` writes each
 * worker process's CPU profile there (BENCHWORK_BUNDLE_READABLE=1 keeps them readable). Starts its
 * own cluster unless BENCHWORK_TEST_DATABASE_URL names one.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { closeStore, openPgStore } from "../db/pg/store";
import { createTestDatabase, stopOwnCluster } from "../db/pg/test-support/database";
import { getBenchProgress } from "../db/queries/benches";
import { launchFromRequest } from "../server/bench/prepare";
import { stopJobQueue } from "../server/bench/trial-jobs";
import { LOAD_CASES_MAX, loadRequest, seedLoadSuite, startLoadModelServer, waitUntil } from "../server/bench/test-support/load-bench";
import { WorkerFleet } from "../server/bench/test-support/worker-fleet";
import { startPgWireCounter } from "./pg-wire-count";

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
const BEFORE = args.includes("--before") ? path.resolve(arg("before", "")) : null;
if (BEFORE !== null && !existsSync(path.join(BEFORE, "package.json"))) {
  console.error(`bench/pg-workers.ts: --before: "${BEFORE}" is not a checkout (no package.json)`);
  process.exit(2);
}
const CPU_PROF = args.includes("--cpu-prof") ? path.resolve(arg("cpu-prof", "")) : null;
const RELAY = !args.includes("--no-relay");
/** Clock ticks per second of /proc's CPU times. */
const CLK_TCK = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/** CPU time (user + system) of processes so far, in µs, from /proc; null where /proc is missing. */
function cpuMicros(pids: number[]): number | null {
  let ticks = 0;
  for (const pid of pids) {
    const file = `/proc/${pid}/stat`;
    if (!existsSync(file)) return null;
    // Fields after the command name (which may hold spaces): state is 3rd, utime 14th, stime 15th.
    const fields = readFileSync(file, "utf8").split(") ")[1].split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks / CLK_TCK) * 1e6;
}

/** The largest peak resident set (VmHWM) of processes so far, in MB; null where /proc is missing. */
function peakRssMb(pids: number[]): number | null {
  let kb = 0;
  for (const pid of pids) {
    const file = `/proc/${pid}/status`;
    if (!existsSync(file)) return null;
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(file, "utf8"));
    if (!m) return null;
    kb = Math.max(kb, Number(m[1]));
  }
  return kb / 1024;
}

/**
 * CPU time (user + system) of a PostgreSQL cluster so far, in µs: its postmaster's own, its reaped
 * children's (a backend that exited is added to its parent's cutime/cstime), and its live children's.
 * null where /proc is missing.
 */
function clusterCpuMicros(postmaster: number): number | null {
  const stat = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    } catch {
      return null; // gone between listing and reading: its time is in the postmaster's cutime by now
    }
  };
  const own = stat(postmaster);
  if (!own) return null;
  // After the command name: utime 14th, stime 15th, cutime 16th, cstime 17th field; ppid is the 4th.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const f = stat(Number(name));
    if (f && Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
  }
  return (ticks / CLK_TCK) * 1e6;
}

/** The pid of the postmaster serving `db` (read from its data directory's postmaster.pid; needs a superuser). */
async function postmasterPid(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const dir = await client.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir").finally(() => client.end());
  const file = path.join(dir.rows[0].dir, "postmaster.pid");
  return existsSync(file) ? Number(readFileSync(file, "utf8").split("\n")[0]) : null;
}
/** Cap on waiting for one bench (ms): 20× the ideal, at least 10 minutes; only so a stuck run ends. */
const CAP_MS = Math.max(600_000, 20 * ((TRIALS * LATENCY) / CONCURRENCY));
const ideal = (TRIALS * LATENCY) / CONCURRENCY / 1000;

interface Run {
  /** "after" (this checkout) or "before" (`--before`). */
  code: string;
  workers: number;
  cpuUsPerTrial: number | null;
  /** PostgreSQL's CPU µs per trial (postmaster and backends). */
  pgUsPerTrial: number | null;
  /** This process's CPU µs per trial (scripted model server, launch, relay). */
  selfUsPerTrial: number;
  /** The workers' largest peak RSS in MB. */
  rssMb: number | null;
  tripsPerTrial: number;
  wallS: number;
  peak: number;
  done: number;
  error: number;
  skipped: number;
  loadBefore: number;
  loadAfter: number;
  /** Backends of the run's database waiting on a lock, mean over samples every 20 ms. */
  lockWaiters: number;
  /** The statement most often seen waiting (its first words), or "". */
  lockWaitTop: string;
  /** Mean claims held (trial_claims rows, sampled every 20 ms) over the bench's concurrency. */
  held: number;
  /** Mean chat requests in flight at the model server (sampled every 10 ms) over the bench's concurrency. */
  inCall: number;
}

/**
 * Samples, every 20 ms on a connection of its own, the backends of `url`'s database waiting on a
 * heavyweight lock (`pg_stat_activity.wait_event_type = 'Lock'`: a row another transaction holds, …).
 */
async function sampleLockWaits(url: string): Promise<{ stop(): Promise<void>; meanWaiters(): number; top(): string; meanClaims(): number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let samples = 0;
  let waiters = 0;
  let claims = 0;
  const byStatement = new Map<string, number>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const r = await client.query<{ query: string }>(
        "SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 60) AS query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      const held = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM trial_claims");
      samples++;
      waiters += r.rowCount ?? 0;
      claims += held.rows[0].n;
      for (const { query } of r.rows) byStatement.set(query, (byStatement.get(query) ?? 0) + 1);
      await new Promise((res) => setTimeout(res, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await client.end();
    },
    meanWaiters: () => (samples ? waiters / samples : 0),
    meanClaims: () => (samples ? claims / samples : 0),
    top: () => [...byStatement].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "",
  };
}

/** One fleet of `workers` processes on a fresh database: warm-up bench, then the measured one. */
async function measure(workers: number, code: string, root: string | undefined): Promise<Run> {
  const database = await createTestDatabase();
  const relay = RELAY ? await startPgWireCounter(database.url) : null;
  const db = openPgStore(database.url, 4);
  const model = await startLoadModelServer({ latencyMs: LATENCY });
  const finished = new Map<number, () => void>();
  const fleet = new WorkerFleet({
    env: {
      BENCHWORK_DATABASE_URL: relay?.url ?? database.url,
      BENCHWORK_DB: path.join(mkdtempSync(path.join(tmpdir(), "benchwork-pg-workers-")), "unused.db"),
      BENCHWORK_PROVIDER_CONCURRENCY: String(PROVIDER_LIMIT),
      ...(SLOTS !== null ? { BENCHWORK_WORKER_SLOTS: String(SLOTS) } : {}),
    },
    onBenchFinished: (id) => finished.get(id)?.(),
    root,
    nodeArgs: CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", path.join(CPU_PROF, `${code}-${workers}`)] : [],
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
    relay?.reset();
    const postmaster = await postmasterPid(database.url);
    const cpu0 = cpuMicros(fleet.pids);
    const pg0 = postmaster === null ? null : clusterCpuMicros(postmaster);
    const self0 = process.cpuUsage();
    const loadBefore = loadavg()[0];
    const locks = await sampleLockWaits(database.url);
    let flightSamples = 0;
    let flightSum = 0;
    const flight = setInterval(() => {
      flightSamples++;
      flightSum += model.server.requests.inFlight;
    }, 10);
    const { p, wallS } = await run(TRIALS).finally(() => {
      clearInterval(flight);
      return locks.stop();
    });
    const cpu1 = cpuMicros(fleet.pids);
    const pg1 = postmaster === null ? null : clusterCpuMicros(postmaster);
    const self = process.cpuUsage(self0);
    return {
      code,
      workers,
      cpuUsPerTrial: cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / TRIALS : null,
      pgUsPerTrial: pg0 !== null && pg1 !== null ? (pg1 - pg0) / TRIALS : null,
      selfUsPerTrial: (self.user + self.system) / TRIALS,
      rssMb: peakRssMb(fleet.pids),
      tripsPerTrial: relay ? relay.roundTrips() / TRIALS : NaN,
      wallS,
      peak: model.server.requests.peakInFlight,
      done: p.done,
      error: p.error,
      skipped: p.skipped,
      loadBefore,
      loadAfter: loadavg()[0],
      lockWaiters: locks.meanWaiters(),
      lockWaitTop: locks.top(),
      held: locks.meanClaims() / CONCURRENCY,
      inCall: flightSamples ? flightSum / flightSamples / CONCURRENCY : 0,
    };
  } finally {
    await fleet.stop();
    await relay?.close();
    await model.close();
    await stopJobQueue(db);
    await closeStore(db);
    await database.drop();
  }
}

console.log(
  `PostgreSQL, ${TRIALS.toLocaleString("en-US")} trials at ${LATENCY} ms latency, bench concurrency ${CONCURRENCY}, provider limit ${PROVIDER_LIMIT}, ` +
    `worker slots ${SLOTS ?? "default"}, warm-up ${Math.min(WARMUP, TRIALS, LOAD_CASES_MAX)} trials per fleet; ${availableParallelism()} cores` +
    (BEFORE ? `; "before" = the workers of ${BEFORE}, alternating with this checkout's ("after")` : ""),
);
const runs: Run[] = [];
try {
  for (const [i, n] of FLEETS.entries()) {
    // Alternate which code goes first, so neither always runs on the machine the other left behind.
    const order: [string, string | undefined][] = BEFORE
      ? i % 2 === 0
        ? [
            ["before", BEFORE],
            ["after", undefined],
          ]
        : [
            ["after", undefined],
            ["before", BEFORE],
          ]
      : [["after", undefined]];
    for (const [code, root] of order) {
      const r = await measure(n, code, root);
      runs.push(r);
      console.log(`${code} ${n} worker${n > 1 ? "s" : ""}: ${r.wallS.toFixed(2)} s (${r.done} done, ${r.error} errors, ${r.skipped} skipped)`);
    }
  }
} finally {
  await stopOwnCluster();
}

const row = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(8) : c.padStart(14))).join(" ");
console.log("");
console.log(
  row([
    "code",
    "workers",
    "wall s",
    "ideal s",
    "wall / ideal",
    "trials/s",
    "workers µs/t",
    "postgres µs/t",
    "self µs/t",
    "total µs/t",
    "rss MB",
    "trips/trial",
    "peak in flight",
    "provider limit",
    "load 1m",
    "lock waiters",
    "held",
    "in call",
    "trials",
  ]),
);
for (const r of runs)
  console.log(
    row([
      r.code,
      String(r.workers),
      r.wallS.toFixed(2),
      ideal.toFixed(2),
      ideal > 0 ? (r.wallS / ideal).toFixed(3) : "n/a",
      ((r.done + r.error + r.skipped) / r.wallS).toFixed(0),
      r.cpuUsPerTrial === null ? "n/a" : r.cpuUsPerTrial.toFixed(0),
      r.pgUsPerTrial === null ? "n/a" : r.pgUsPerTrial.toFixed(0),
      r.selfUsPerTrial.toFixed(0),
      r.cpuUsPerTrial === null || r.pgUsPerTrial === null ? "n/a" : (r.cpuUsPerTrial + r.pgUsPerTrial + r.selfUsPerTrial).toFixed(0),
      r.rssMb === null ? "n/a" : r.rssMb.toFixed(0),
      Number.isNaN(r.tripsPerTrial) ? "n/a" : r.tripsPerTrial.toFixed(2),
      String(r.peak),
      String(PROVIDER_LIMIT),
      `${r.loadBefore.toFixed(1)}→${r.loadAfter.toFixed(1)}`,
      r.lockWaiters.toFixed(2),
      r.held.toFixed(3),
      r.inCall.toFixed(3),
      `${r.done}/${TRIALS}${r.error ? ` (${r.error} err)` : ""}`,
    ]),
  );
for (const r of runs) if (r.lockWaitTop) console.log(`${r.code} ${r.workers}: most seen waiting on a lock: ${r.lockWaitTop}`);
const over = runs.filter((r) => r.peak > PROVIDER_LIMIT);
console.log(
  `targets: wall ≤ 1.10 × ideal at 4 workers; peak in flight ≤ provider limit (${over.length === 0 ? "held in every run" : `EXCEEDED in ${over.map((r) => `${r.code} ${r.workers}`).join(", ")} workers`})`,
);
process.exit(0);
