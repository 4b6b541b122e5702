/**
 * Idle job workers on PostgreSQL (issue #20, "Performance"): what N `npm run worker` processes cost
 * while no bench is open, and how soon a launch is picked up. On a fresh database of a throwaway
 * cluster, for this checkout ("after") and, with `--before DIR`, another one's workers ("before"),
 * alternating, `--rounds` times each:
 *   idle cpu   CPU time (user + system, /proc) over `--idle-seconds` with nothing to do, in ms per
 *              second per worker process, and PostgreSQL's (postmaster and backends) in ms per second
 *   pickup     launch returned → the scripted model server saw the bench's first request, in ms, for
 *              each of `--launches` one-trial benches launched after `--gap-seconds` idle (median, max)
 *   load       the 1-minute load average before and after (the machine is shared)
 * Run: `npx tsx bench/pg-idle.ts [--workers 2] [--idle-seconds 20] [--launches 5] [--gap-seconds 3]
 * [--rounds 2] [--before DIR]`. Starts its own cluster unless BENCHWORK_TEST_DATABASE_URL names one.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { closeStore, openPgStore } from "../db/pg/store";
import { createTestDatabase, stopOwnCluster } from "../db/pg/test-support/database";
import { getBenchProgress } from "../db/queries/benches";
import { launchFromRequest } from "../server/bench/prepare";
import { stopJobQueue } from "../server/bench/trial-jobs";
import { loadRequest, seedLoadSuite, startLoadModelServer, waitUntil } from "../server/bench/test-support/load-bench";
import { WorkerFleet } from "../server/bench/test-support/worker-fleet";

const args = process.argv.slice(2);
/** `--name` as a whole number ≥ `min` (else `def`); exits 2 naming the flag when it is not one. */
function whole(name: string, def: number, min: number): number {
  const i = args.indexOf(`--${name}`);
  const raw = i >= 0 ? args[i + 1] : String(def);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    console.error(`bench/pg-idle.ts: --${name}: expected a whole number ≥ ${min}, got "${raw}"`);
    process.exit(2);
  }
  return n;
}
const WORKERS = whole("workers", 2, 1);
const IDLE_S = whole("idle-seconds", 20, 1);
const LAUNCHES = whole("launches", 5, 1);
const GAP_S = whole("gap-seconds", 3, 0);
const ROUNDS = whole("rounds", 2, 1);
const BEFORE = args.includes("--before") ? path.resolve(args[args.indexOf("--before") + 1] ?? "") : null;
if (BEFORE !== null && !existsSync(path.join(BEFORE, "package.json"))) {
  console.error(`bench/pg-idle.ts: --before: "${BEFORE}" is not a checkout (no package.json)`);
  process.exit(2);
}
const CLK_TCK = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/** A /proc stat's fields after the command name (utime is [11], stime [12], cutime [13], cstime [14], ppid [1]); null when gone. */
function stat(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  } catch {
    return null;
  }
}
/** CPU ms (user + system) of processes so far. */
const cpuMs = (pids: number[]) => pids.reduce((a, p) => a + Number(stat(p)?.[11] ?? 0) + Number(stat(p)?.[12] ?? 0), 0) * (1000 / CLK_TCK);
/** CPU ms of a cluster so far: its postmaster (with reaped children) and live backends. */
function clusterMs(postmaster: number): number {
  const own = stat(postmaster)!;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const f = stat(Number(name));
    if (f && Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks * (1000 / CLK_TCK);
}
async function postmasterPid(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const dir = await client.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir").finally(() => client.end());
  return Number(readFileSync(path.join(dir.rows[0].dir, "postmaster.pid"), "utf8").split("\n")[0]);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Row {
  code: string;
  workerMsPerS: number;
  pgMsPerS: number;
  pickups: number[];
  load: string;
}

async function measure(code: string, root: string | undefined): Promise<Row> {
  const database = await createTestDatabase();
  const db = openPgStore(database.url, 2);
  const model = await startLoadModelServer({ latencyMs: 0 });
  const fleet = new WorkerFleet({
    env: { BENCHWORK_DATABASE_URL: database.url, BENCHWORK_DB: path.join(mkdtempSync(path.join(tmpdir(), "benchwork-pg-idle-")), "unused.db") },
    root,
  });
  try {
    const suite = await seedLoadSuite(db, { cases: 1, baseUrl: model.server.url });
    await fleet.start(WORKERS);
    await sleep(3_000); // past the workers' start (pg-boss's first maintenance)
    const load0 = loadavg()[0];
    const postmaster = await postmasterPid(database.url);
    const w0 = cpuMs(fleet.pids);
    const p0 = clusterMs(postmaster);
    await sleep(IDLE_S * 1000);
    const workerMsPerS = (cpuMs(fleet.pids) - w0) / IDLE_S / WORKERS;
    const pgMsPerS = (clusterMs(postmaster) - p0) / IDLE_S;
    const pickups: number[] = [];
    for (let i = 0; i < LAUNCHES; i++) {
      await sleep(GAP_S * 1000);
      const seen = model.server.requests.count;
      const { id } = await launchFromRequest(db, loadRequest(suite, { trials: 1, concurrency: 1 }), { env: {} });
      const t0 = performance.now();
      await model.server.requests.until((n) => n > seen);
      pickups.push(performance.now() - t0);
      await waitUntil(`bench #${id} to end`, async () => ((await getBenchProgress(db, id))!.status === "finished" ? true : null), {
        timeoutMs: 60_000,
        intervalMs: 20,
      });
    }
    return { code, workerMsPerS, pgMsPerS, pickups, load: `${load0.toFixed(1)}→${loadavg()[0].toFixed(1)}` };
  } finally {
    await fleet.stop();
    await model.close();
    await stopJobQueue(db);
    await closeStore(db);
    await database.drop();
  }
}

console.log(`PostgreSQL, ${WORKERS} idle workers, ${IDLE_S} s idle, ${LAUNCHES} launches ${GAP_S} s apart, ${ROUNDS} rounds`);
const rows: Row[] = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    const order: [string, string | undefined][] = BEFORE
      ? [
          ["before", BEFORE],
          ["after", undefined],
        ]
      : [["after", undefined]];
    if (r % 2 === 1) order.reverse();
    for (const [code, root] of order) {
      const row = await measure(code, root);
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
} finally {
  await stopOwnCluster();
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(["code", "worker ms/s each", "postgres ms/s", "pickup ms median", "pickup ms max", "load 1m"].join(" | "));
for (const r of rows)
  console.log([r.code, r.workerMsPerS.toFixed(1), r.pgMsPerS.toFixed(1), med(r.pickups).toFixed(0), Math.max(...r.pickups).toFixed(0), r.load].join(" | "));
process.exit(0);
