/**
 * Runner throughput and footprint (issue #5): a loopback OpenAI-compatible server (its own
 * process) with a fixed latency, and the real worker — the `npm run worker` command, its own
 * process, on the same SQLite file — running N trials with a `contains` check. Prints wall time,
 * trials per second, the worker's peak RSS (VmHWM, all its threads), database bytes and disk bytes
 * written per trial, and the time to load the first page of the results matrix.
 *
 * Run: `npx tsx bench/runner.ts [--trials 10000] [--latency 0] [--concurrency 64] [--warmup 2000] [--extra-workers N] [--profile]`
 * or `npx tsx bench/runner.ts --suite` for the issue's set: 10,000 @ 0 ms, 10,000 @ 50 ms ×64, 20,000 @ 0 ms.
 * An unmeasured warm-up bench (`--warmup`, 2,000 trials) runs first, as on a worker that has been
 * up for a while. Environment: BENCHWORK_TRIAL_THREADS is passed on to the worker (default: one
 * per core).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const arg = (name: string, def: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};

if (args.includes("--suite")) {
  // Each scenario in a fresh process.
  for (const [trials, latency, conc] of [
    [10_000, 0, 64],
    [10_000, 50, 64],
    [20_000, 0, 64],
  ]) {
    const r = spawnSync(process.execPath, ["--import", "tsx", "bench/runner.ts", "--trials", String(trials), "--latency", String(latency), "--concurrency", String(conc), ...args.filter((a) => a !== "--suite")], { stdio: "inherit" });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  process.exit(0);
}

const TRIALS = Number(arg("trials", "10000"));
const LATENCY = Number(arg("latency", "0"));
const CONCURRENCY = Number(arg("concurrency", "64"));
/** Worker processes besides the first (more `npm run worker` processes on the same database file). */
const EXTRA_WORKERS = Number(arg("extra-workers", "0"));
/** Trials of an unmeasured warm-up bench run first on the same worker (0: none). */
const WARMUP = Number(arg("warmup", "2000"));
const PORT = Number(arg("port", String(4300 + Math.floor(Math.random() * 500))));
const OUT = "bench/.out/runner";
mkdirSync(OUT, { recursive: true });
const file = path.join(OUT, `runner-${TRIALS}-${LATENCY}.db`);
for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });

/** The worker command exactly as `npm run worker` runs it (environment, node flags, script), from package.json. */
function workerCommand(): { env: Record<string, string>; args: string[] } {
  const script = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.worker;
  const parts = script.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(parts[0] ?? "")) {
    const [k, ...v] = parts.shift()!.split("=");
    env[k] = v.join("=");
  }
  if (parts[0] !== "node") throw new Error(`package.json scripts.worker should run "node": ${script}`);
  return { env, args: parts.slice(1) };
}

const { openDatabase, migrateDatabase } = await import("../db/client");
const { addCases } = await import("../db/queries/cases");
const { createModelConfig } = await import("../db/queries/models");
const { createPrompt, createSystem } = await import("../db/queries/systems");
const { getBenchProgress } = await import("../db/queries/benches");
const { matrixRows, selectMatrix } = await import("../db/queries/bench-matrix");
const { launchFromRequest } = await import("../server/bench/prepare");
const { emptyCaseContent } = await import("../lib/library/case-content");

/** Bytes a process has caused to be written to storage (/proc/PID/io), or null where unavailable. */
function writtenBytes(pid: number | "self" = "self"): number | null {
  try {
    const m = /write_bytes:\s*(\d+)/.exec(readFileSync(`/proc/${pid}/io`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Peak resident set size of a process in bytes (VmHWM: all its threads), or null. */
function peakRss(pid: number): number | null {
  try {
    const m = /VmHWM:\s*(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
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
const list = Array.from({ length: CASES }, (_, i) => ({
  systemId: "load",
  promptId,
  caseKey: `load-${i}`,
  source: "custom" as const,
  content: { ...emptyCaseContent(), input: `Question number ${i}: what is the answer?`, expected: "Scripted answer", evaluators: [{ kind: "contains" }] },
}));
await addCases(db, list);
const model = await createModelConfig(db, { name: "loopback", provider: "openai-compatible", modelId: "scripted-1", baseUrl: `http://127.0.0.1:${PORT}/v1` });

const command = workerCommand();
const workerEnv = {
  ...process.env,
  ...command.env,
  BENCHWORK_DB: file,
  BENCHWORK_PROVIDER_CONCURRENCY: String(Math.max(64, CONCURRENCY)),
  BENCHWORK_WORKER_POLL_MS: "50",
};
const profileFlags = args.includes("--profile") ? ["--cpu-prof", `--cpu-prof-dir=${path.join(OUT, "prof")}`] : [];
const workers: ChildProcess[] = Array.from({ length: 1 + EXTRA_WORKERS }, () => spawn(process.execPath, [...profileFlags, ...command.args], { env: workerEnv, stdio: ["ignore", "ignore", "inherit"] }));
process.on("exit", () => workers.forEach((w) => w.kill("SIGKILL")));
// Workers are long-running processes in a deployment: wait until they are up before launching.
for (let i = 0; i < 300; i++) {
  const n = (db.$client.prepare("SELECT count(*) AS n FROM workers").get() as { n: number }).n;
  if (n >= workers.length) break;
  if (i === 299) throw new Error("the worker processes did not start");
  await new Promise((r) => setTimeout(r, 100));
}
/** Plans and launches a bench of `trials` trials over the cases (the app's launch path). */
const launch = (trials: number, key: string) =>
  launchFromRequest(db, {
    systemId: "load",
    promptId,
    candidates: [{ kind: "model", modelConfigId: model }],
    baseline: { kind: "none" },
    selection: { kind: "all" },
    budget: trials >= CASES ? null : trials,
    repeats: Math.ceil(trials / CASES),
    concurrency: CONCURRENCY,
    timeoutSeconds: 60,
    maxSteps: 1,
    judgeModelConfigId: null,
    launchKey: key,
  });

/** Waits until bench `id` has ended; polls every 20 ms. */
async function waitFor(id: number) {
  let p = (await getBenchProgress(db, id))!;
  while (p.status === "queued" || p.status === "running") {
    await new Promise((r) => setTimeout(r, 20));
    p = (await getBenchProgress(db, id))!;
  }
  return p;
}

// Warm-up: a worker that has run before has its code compiled by V8's optimizing JIT; the first
// seconds after a start run much slower (measured: trial threads' event loops at 80–90% with
// 150 ms stalls). The measured bench is the one after, as on a long-running worker.
if (WARMUP > 0) {
  const w = await launch(WARMUP, `runner-warmup-${Date.now()}`);
  const wp = await waitFor(w.id);
  console.log(`warm-up bench: ${wp.done} trials done, not measured`);
}

const diskBefore = [writtenBytes(), ...workers.map((w) => writtenBytes(w.pid!))];
const t0 = performance.now();
const { id } = await launch(TRIALS, `runner-${Date.now()}`);
const tLaunched = performance.now();
const p = await waitFor(id);
const tDone = performance.now();
db.$client.pragma("wal_checkpoint(TRUNCATE)");
const diskAfter = [writtenBytes(), ...workers.map((w) => writtenBytes(w.pid!))];
const peaks = workers.map((w) => peakRss(w.pid!));
for (const w of workers) w.kill("SIGTERM");
await Promise.all(workers.map((w) => new Promise((r) => w.once("exit", r))));
const written = diskBefore.every((b) => b !== null) && diskAfter.every((a) => a !== null) ? diskAfter.reduce((sum, a, i) => sum + a! - diskBefore[i]!, 0) : null;
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
const threads = process.env.BENCHWORK_TRIAL_THREADS ?? "default";
console.log(`peak RSS per worker process (VmHWM, ${threads} trial threads): ${peaks.map((b) => (b === null ? "n/a" : `${(b / 1024 / 1024).toFixed(0)} MB`)).join(", ")} (target < 300 MB)`);
console.log(`database: ${(dbBytes / 1024 / 1024).toFixed(1)} MB (${(dbBytes / TRIALS).toFixed(0)} bytes per trial, cases included)`);
if (written !== null) console.log(`disk written during launch + run (this process and the workers): ${(written / 1024 / 1024).toFixed(1)} MB (${(written / total).toFixed(0)} bytes per trial, target ≤ 5,120)`);
console.log(`results matrix, first page: ${matrixMs.toFixed(1)} ms (failures filter, sorted: ${matrixFilteredMs.toFixed(1)} ms; target < 200 ms)`);
server.kill();
process.exit(0);
