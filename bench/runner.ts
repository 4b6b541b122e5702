/**
 * Runner throughput and footprint (issue #5): a loopback OpenAI-compatible server (its own
 * process) with a fixed latency, and the real worker and SQLite store running N trials with a
 * `contains` check. Prints wall time, trials per second, peak RSS, database bytes and disk bytes
 * written per trial, and the time to load the first page of the results matrix.
 *
 * Run: `npx tsx bench/runner.ts [--trials 10000] [--latency 0] [--concurrency 64] [--extra-workers N] [--no-record]`
 * (the script re-runs itself with the heap flags of `npm run worker`)
 * or `npx tsx bench/runner.ts --suite` for the set: 10,000 @ 0 ms, 10,000 @ 50 ms ×64, 20,000 @ 0 ms.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const arg = (name: string, def: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};

/** The heap flags `npm run worker` uses: V8 otherwise lets garbage pile up to several hundred MB. */
const WORKER_NODE_FLAGS = ["--max-old-space-size=256", "--max-semi-space-size=16"];

if (!process.execArgv.some((a) => a.startsWith("--max-old-space-size"))) {
  const r = spawnSync(process.execPath, [...WORKER_NODE_FLAGS, "--import", "tsx", "bench/runner.ts", ...args], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}

if (args.includes("--suite")) {
  // Each scenario in a fresh process, so peak RSS is per scenario.
  for (const [trials, latency, conc] of [
    [10_000, 0, 64],
    [10_000, 50, 64],
    [20_000, 0, 64],
  ]) {
    const r = spawnSync(process.execPath, [...WORKER_NODE_FLAGS, "--import", "tsx", "bench/runner.ts", "--trials", String(trials), "--latency", String(latency), "--concurrency", String(conc), ...args.filter((a) => a !== "--suite")], { stdio: "inherit" });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  process.exit(0);
}

const TRIALS = Number(arg("trials", "10000"));
const LATENCY = Number(arg("latency", "0"));
const CONCURRENCY = Number(arg("concurrency", "64"));
/** Worker processes besides this one (`npm run worker` processes on the same database file). */
const EXTRA_WORKERS = Number(arg("extra-workers", "0"));
const PORT = Number(arg("port", String(4300 + Math.floor(Math.random() * 500))));
const OUT = "bench/.out/runner";
mkdirSync(OUT, { recursive: true });
const file = path.join(OUT, `runner-${TRIALS}-${LATENCY}.db`);
for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });

const { openDatabase, migrateDatabase } = await import("../db/client");
const { addCases } = await import("../db/queries/cases");
const { createModelConfig } = await import("../db/queries/models");
const { createPrompt, createSystem } = await import("../db/queries/systems");
const { getBenchProgress } = await import("../db/queries/benches");
const { matrixRows, selectMatrix } = await import("../db/queries/bench-matrix");
const { launchFromRequest } = await import("../server/bench/prepare");
const { startBenchWorker } = await import("../server/worker");
const { emptyCaseContent } = await import("../lib/library/case-content");

function writtenBytes(): number | null {
  try {
    const m = /write_bytes:\s*(\d+)/.exec(readFileSync("/proc/self/io", "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

// The model server, in its own process.
const server: ChildProcess = spawn(process.execPath, ["--import", "tsx", "e2e/fixtures/scripted-model-server.ts", "--port", String(PORT), "--latency", String(LATENCY)], { stdio: ["ignore", "pipe", "inherit"] });
await new Promise<void>((resolve, reject) => {
  server.stdout!.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
  server.on("exit", (c) => reject(new Error(`model server exited ${c}`)));
});
process.on("exit", () => server.kill());

const db = openDatabase(file);
migrateDatabase(db);
await createSystem(db, { id: "load", name: "Load" });
const promptId = await createPrompt(db, { systemId: "load", name: "p", systemPrompt: "Answer briefly." });
const CASES = Math.min(TRIALS, 5_000);
const repeats = Math.ceil(TRIALS / CASES);
const list = Array.from({ length: CASES }, (_, i) => ({
  systemId: "load",
  promptId,
  caseKey: `load-${i}`,
  source: "custom" as const,
  content: { ...emptyCaseContent(), input: `Question number ${i}: what is the answer?`, expected: "Scripted answer", evaluators: [{ kind: "contains" }] },
}));
await addCases(db, list);
const model = await createModelConfig(db, { name: "loopback", provider: "openai-compatible", modelId: "scripted-1", baseUrl: `http://127.0.0.1:${PORT}/v1` });

const workerEnv = { BENCHWORK_PROVIDER_CONCURRENCY: String(Math.max(64, CONCURRENCY)) };
const extra: ChildProcess[] = Array.from({ length: EXTRA_WORKERS }, () =>
  spawn(process.execPath, [...WORKER_NODE_FLAGS, "--import", "tsx", "server/worker-main.ts"], { env: { ...process.env, ...workerEnv, BENCHWORK_DB: file }, stdio: "ignore" }),
);
process.on("exit", () => extra.forEach((w) => w.kill()));
// Extra workers are long-running processes in a deployment: wait until they are up before launching.
for (let i = 0; i < 200 && EXTRA_WORKERS > 0; i++) {
  const n = (db.$client.prepare("SELECT count(*) AS n FROM workers").get() as { n: number }).n;
  if (n >= EXTRA_WORKERS) break;
  await new Promise((r) => setTimeout(r, 100));
}
const diskBefore = writtenBytes();
const t0 = performance.now();
const { id } = await launchFromRequest(db, {
  systemId: "load",
  promptId,
  candidates: [{ kind: "model", modelConfigId: model }],
  baseline: { kind: "none" },
  selection: { kind: "all" },
  budget: null,
  repeats,
  concurrency: CONCURRENCY,
  timeoutSeconds: 60,
  maxSteps: 1,
  judgeModelConfigId: null,
  launchKey: `runner-${Date.now()}`,
});
const tLaunched = performance.now();
let peakRss = process.memoryUsage().rss;
let peakHeap = process.memoryUsage().heapUsed;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 100);

// --profile: CPU profile of the run phase only (written to bench/.out/runner/run.cpuprofile).
const inspector = args.includes("--profile") ? await import("node:inspector/promises") : null;
const session = inspector ? new inspector.Session() : null;
if (session) {
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
}
const worker = startBenchWorker(db, { env: workerEnv, pollMs: 50, keepRecord: !args.includes("--no-record") });
let p = (await getBenchProgress(db, id))!;
while (p.status === "queued" || p.status === "running") {
  await new Promise((r) => setTimeout(r, 100));
  p = (await getBenchProgress(db, id))!;
}
const tDone = performance.now();
if (session) {
  const { profile } = await session.post("Profiler.stop");
  (await import("node:fs")).writeFileSync(path.join(OUT, "run.cpuprofile"), JSON.stringify(profile));
}
await worker.stop(1000);
clearInterval(sampler);
db.$client.pragma("wal_checkpoint(TRUNCATE)");
const diskAfter = writtenBytes();
const total = p.done + p.error + p.skipped;
const runSeconds = (tDone - tLaunched) / 1000;
const ideal = (TRIALS * LATENCY) / CONCURRENCY / 1000;

const m0 = performance.now();
const rows = matrixRows(db, id);
selectMatrix(rows, { filter: "all", sort: "position", page: 1, pageSize: 50, regressionCases: new Set() });
const matrixMs = performance.now() - m0;
const m1 = performance.now();
selectMatrix(matrixRows(db, id), { filter: "failures", sort: "failures", page: 1, pageSize: 50, regressionCases: new Set() });
const matrixFilteredMs = performance.now() - m1;

const dbBytes = statSync(file).size + (existsSync(file + "-wal") ? statSync(file + "-wal").size : 0);
console.log(`\n== ${TRIALS.toLocaleString("en-US")} trials, latency ${LATENCY} ms, concurrency ${CONCURRENCY}, ${1 + EXTRA_WORKERS} worker process${EXTRA_WORKERS ? "es" : ""} ==`);
console.log(`trials: ${p.done} done, ${p.error} errors, ${p.skipped} skipped (of ${p.total})`);
console.log(`launch (plan + store ${TRIALS} queued trials): ${((tLaunched - t0) / 1000).toFixed(2)} s`);
console.log(`run (launch → finished, incl. finalize): ${runSeconds.toFixed(2)} s → ${(total / runSeconds).toFixed(0)} trials/s`);
if (LATENCY > 0) console.log(`ideal (trials × latency / concurrency): ${ideal.toFixed(2)} s → ratio ${(runSeconds / ideal).toFixed(3)} (target ≤ 1.15)`);
console.log(`peak RSS (worker process): ${(peakRss / 1024 / 1024).toFixed(0)} MB (maxRSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB, peak JS heap used ${(peakHeap / 1024 / 1024).toFixed(0)} MB)`);
console.log(`database: ${(dbBytes / 1024 / 1024).toFixed(1)} MB (${(dbBytes / TRIALS).toFixed(0)} bytes per trial, cases included)`);
if (diskBefore !== null && diskAfter !== null) console.log(`disk written during the run: ${((diskAfter - diskBefore) / 1024 / 1024).toFixed(1)} MB (${((diskAfter - diskBefore) / total).toFixed(0)} bytes per trial, target ≤ 5,120)`);
console.log(`results matrix, first page: ${matrixMs.toFixed(1)} ms (failures filter, sorted: ${matrixFilteredMs.toFixed(1)} ms; target < 200 ms)`);
server.kill();
process.exit(0);
