/**
 * Runner throughput and footprint (issue #5): a loopback OpenAI-compatible server (its own
 * process) with a fixed latency, and the real worker — the `npm run worker` command, its own
 * process, on the same SQLite file — running N trials with a `contains` check. Prints wall time,
 * trials per second, the worker's peak RSS (VmHWM, all its threads), database bytes and disk bytes
 * written per trial, and the time to load the first page of the results matrix.
 *
 * Run: `npx tsx bench/runner.ts [--trials 10000] [--latency 0] [--concurrency 64] [--warmup 2000] [--extra-workers N] [--profile] [--wal-frames]`
 * or `npx tsx bench/runner.ts --suite [--repeat 3]` for the issue's set (10,000 @ 0 ms, 10,000 @ 50 ms
 * ×64, 20,000 @ 0 ms), each run `--repeat` times, with the median and range of each figure.
 * An unmeasured warm-up bench (`--warmup`, 2,000 trials) runs first, as on a worker that has been
 * up for a while. `BENCH_TIMELINE=1` also prints where the time outside the trials goes (launch,
 * claim, first trial, finalize) and how much of the bench's slot time its trials filled.
 * Environment: BENCHWORK_TRIAL_THREADS is passed on to the worker (default: one per core). Diagnostics: `BENCH_NODE_FLAGS="--trace-gc"` adds node flags to the worker process,
 * `BENCH_WORKER_LOG=FILE` appends its standard output to FILE, and `BENCHWORK_BUNDLE_READABLE=1`
 * keeps line breaks in the worker's bundles so a `--profile` reads by source module. The model
 * server's CPU per request is printed too: it shares the machine with the worker.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { walCommits, walFrameCount } from "./wal-frames";

const args = process.argv.slice(2);
const arg = (name: string, def: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};

if (args.includes("--suite")) {
  // Each scenario in a fresh process, `--repeat` times (default 3): single runs on a shared 2-core
  // machine vary by ±10%, so the summary gives the median and the range.
  const repeat = Number(arg("repeat", "3"));
  const rest = args.filter((a, i) => a !== "--suite" && a !== "--repeat" && args[i - 1] !== "--repeat");
  const results: Record<string, number>[] = [];
  for (const [trials, latency, conc] of [
    [10_000, 0, 64],
    [10_000, 50, 64],
    [20_000, 0, 64],
  ]) {
    for (let k = 0; k < repeat; k++) {
      const r = spawnSync(
        process.execPath,
        ["--import", "tsx", "bench/runner.ts", "--trials", String(trials), "--latency", String(latency), "--concurrency", String(conc), ...rest],
        { stdio: ["inherit", "pipe", "inherit"] },
      );
      const out = r.stdout.toString();
      process.stdout.write(out.replace(/^RESULT .*\n?/m, ""));
      if (r.status !== 0) process.exit(r.status ?? 1);
      results.push(JSON.parse(/^RESULT (.*)$/m.exec(out)![1]) as Record<string, number>);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`\n== summary: median [min–max] of ${repeat} runs per scenario ==`);
  for (const [trials, latency] of [
    [10_000, 0],
    [10_000, 50],
    [20_000, 0],
  ]) {
    const rs = results.filter((x) => x.trials === trials && x.latency === latency);
    const f = (k: string, d = 0) =>
      `${median(rs.map((x) => x[k])).toFixed(d)} [${Math.min(...rs.map((x) => x[k])).toFixed(d)}–${Math.max(...rs.map((x) => x[k])).toFixed(d)}]`;
    const speed = latency > 0 ? `ratio ${f("ratio", 3)} (target ≤ 1.15)` : `${f("rate")} trials/s (target ≥ 2,000)`;
    console.log(
      `${trials.toLocaleString("en-US")} @ ${latency} ms: ${speed}; peak RSS ${f("rssMb")} MB (< 300); ${f("bytesPerTrial")} bytes written per trial (≤ 5,120); matrix first page ${f("matrixMs", 1)} ms (< 200)`,
    );
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
  if (parts[0] === "exec") parts.shift(); // the shell hands its process to node (signals reach it)
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

/** User and system (kernel) CPU time of a process in ms (all threads; /proc/PID/stat), or null. */
function cpuSplitMs(pid: number): { user: number; system: number } | null {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return { user: (Number(f[11]) * 1000) / 100, system: (Number(f[12]) * 1000) / 100 }; // utime, stime in clock ticks (USER_HZ = 100)
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
const server: ChildProcess = spawn(
  process.execPath,
  ["--import", "tsx", "e2e/fixtures/scripted-model-server.ts", "--port", String(PORT), "--latency", String(LATENCY)],
  { stdio: ["ignore", "pipe", "inherit"] },
);
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
const profileFlags = [
  ...(args.includes("--profile") ? ["--cpu-prof", `--cpu-prof-dir=${path.join(OUT, "prof")}`] : []),
  ...(process.env.BENCH_NODE_FLAGS?.split(" ").filter(Boolean) ?? []),
];
const finishedWaiters = new Map<number, (v: unknown) => void>();
let up = 0;
const workers: ChildProcess[] = Array.from({ length: 1 + EXTRA_WORKERS }, () => {
  const w = spawn(process.execPath, [...profileFlags, ...command.args], { env: workerEnv, stdio: ["ignore", "pipe", "inherit"] });
  w.stdout!.on("data", (d: Buffer) => {
    if (process.env.BENCH_WORKER_LOG) appendFileSync(process.env.BENCH_WORKER_LOG, d);
    if (/benchwork worker \d+ running/.test(d.toString())) up++;
    for (const m of d.toString().matchAll(/bench #(\d+) finished/g)) finishedWaiters.get(Number(m[1]))?.(null);
  });
  return w;
});
process.on("exit", () => workers.forEach((w) => w.kill("SIGKILL")));
// Workers are long-running processes in a deployment: wait until they say they are up before launching.
for (let i = 0; i < 600 && up < workers.length; i++) {
  if (i === 599) throw new Error("the worker processes did not start");
  await new Promise((r) => setTimeout(r, 100));
}
/** Plans and launches a bench of `trials` trials over the cases (the app's launch path). */
const launch = (trials: number, key: string) =>
  launchFromRequest(
    db,
    {
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
    },
    // The provider's limit is enqueued with the bench's jobs: the launch's setting, as the worker's.
    { env: { BENCHWORK_PROVIDER_CONCURRENCY: workerEnv.BENCHWORK_PROVIDER_CONCURRENCY } },
  );

/**
 * Waits until bench `id` has ended: the worker prints `bench #N finished` the moment it finalizes
 * it (no polling load on the machine being measured); a slow poll covers anything else.
 */
async function waitFor(id: number) {
  let p = (await getBenchProgress(db, id))!;
  while (p.status === "queued" || p.status === "running") {
    await Promise.race([new Promise((r) => finishedWaiters.set(id, r)), new Promise((r) => setTimeout(r, 1_000))]);
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
/** CPU of the worker processes, then of the model server (last). */
const cpuBefore = [...workers.map((w) => cpuSplitMs(w.pid!)), cpuSplitMs(server.pid!)];
const t0 = performance.now();
const { id } = await launch(TRIALS, `runner-${Date.now()}`);
const tLaunched = performance.now();
const wallLaunched = Date.now();
// `--wal-frames`: a read snapshot from the launch on keeps every frame the run writes in the WAL (no
// checkpoint can restart it), so the pages each commit wrote can be counted at the end (bench/wal-frames.ts).
// The snapshot is an unfinished read (a statement stepped once): no transaction of our own to open.
const walReader = args.includes("--wal-frames") ? new Database(file, { readonly: true }) : null;
const walSnapshot = walReader?.prepare("SELECT id FROM benches").iterate();
walSnapshot?.next();
const walFrom = walReader ? walFrameCount(`${file}-wal`) : 0;
const p = await waitFor(id);
const tDone = performance.now();
const wallDone = Date.now();
if (walReader) {
  const w = walCommits(`${file}-wal`, walFrom, db.$client);
  walSnapshot?.return?.();
  walReader.close();
  const ended = p.done + p.error + p.skipped;
  console.log(
    `WAL during the run: ${w.commits} commits, ${(ended / w.commits).toFixed(1)} trials and ${(w.frames / w.commits).toFixed(1)} pages (4 KB each) per commit → ${((w.frames * 4096) / ended).toFixed(0)} bytes per trial; pages per commit: ` +
      w.byName.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(", ") +
      " (no checkpoint ran meanwhile: the run's speed figures are not comparable)",
  );
}
if (process.env.BENCH_TIMELINE) {
  const b = db.$client.prepare("SELECT created_at c, started_at s, finished_at f FROM benches WHERE id = ?").get(id) as { c: number; s: number; f: number };
  const t = db.$client
    .prepare("SELECT min(started_at) s, max(finished_at) f, sum(finished_at - started_at) inTrials, count(*) n FROM trials WHERE bench_id = ?")
    .get(id) as { s: number; f: number; inTrials: number; n: number };
  console.log(
    `timeline ms: launch ${wallLaunched - b.c} | claim +${b.s - wallLaunched} | first trial +${t.s - b.s} | trials ${t.f - t.s} | last trial → finalized ${b.f - t.f} (finished_at is set before the results are computed) | → runner saw it ${wallDone - t.f}`,
  );
  // How busy the bench's slots were: a slot is held from its trial's claim to its result's store;
  // the time outside the trial's own run (started_at → finished_at) is the loop's (store, claim,
  // hand-off to and from the trial threads). Load-sensitive, but less than the ratio.
  const slotMs = CONCURRENCY * (t.f - t.s);
  console.log(
    `slots: ${((100 * t.inTrials) / slotMs).toFixed(1)}% of the bench's slot time inside trials (mean trial ${(t.inTrials / t.n).toFixed(1)} ms); ${((slotMs - t.inTrials) / t.n).toFixed(1)} ms per trial outside them`,
  );
}
db.$client.pragma("wal_checkpoint(TRUNCATE)");
const diskAfter = [writtenBytes(), ...workers.map((w) => writtenBytes(w.pid!))];
const peaks = workers.map((w) => peakRss(w.pid!));
const cpuAfter = [...workers.map((w) => cpuSplitMs(w.pid!)), cpuSplitMs(server.pid!)];
/** CPU ms process `i` used during the run (user, kernel), or null where /proc is unavailable. */
const cpuUsed = (i: number) =>
  cpuBefore[i] && cpuAfter[i] ? { user: cpuAfter[i]!.user - cpuBefore[i]!.user, system: cpuAfter[i]!.system - cpuBefore[i]!.system } : null;
const used = cpuBefore.map((_, i) => cpuUsed(i));
const serverCpuMs = used[workers.length] && used[workers.length]!.user + used[workers.length]!.system;
const workerCpuMs = used.slice(0, workers.length).every((u) => u) ? used.slice(0, workers.length).reduce((sum, u) => sum + u!.user + u!.system, 0) : null;
for (const w of workers) w.kill("SIGTERM");
await Promise.all(workers.map((w) => new Promise((r) => w.once("exit", r))));
const written =
  diskBefore.every((b) => b !== null) && diskAfter.every((a) => a !== null) ? diskAfter.reduce((sum, a, i) => sum + a! - diskBefore[i]!, 0) : null;
const total = p.done + p.error + p.skipped;
const runSeconds = (tDone - tLaunched) / 1000;
const ideal = (TRIALS * LATENCY) / CONCURRENCY / 1000;

const m0 = performance.now();
const rows = await matrixRows(db, id);
selectMatrix(rows, { filter: "all", sort: "position", page: 1, pageSize: 50, regressionCases: new Set() });
const matrixMs = performance.now() - m0;
const m1 = performance.now();
selectMatrix(await matrixRows(db, id), { filter: "failures", sort: "failures", page: 1, pageSize: 50, regressionCases: new Set() });
const matrixFilteredMs = performance.now() - m1;

const dbBytes = statSync(file).size + (existsSync(file + "-wal") ? statSync(file + "-wal").size : 0);
console.log(
  `\n== ${TRIALS.toLocaleString("en-US")} trials, latency ${LATENCY} ms, concurrency ${CONCURRENCY}, ${1 + EXTRA_WORKERS} worker process${EXTRA_WORKERS ? "es" : ""} ==`,
);
console.log(`trials: ${p.done} done, ${p.error} errors, ${p.skipped} skipped (of ${p.total})`);
console.log(`launch (plan + store ${TRIALS} queued trials): ${((tLaunched - t0) / 1000).toFixed(2)} s`);
console.log(`run (launch → finished, incl. finalize): ${runSeconds.toFixed(2)} s → ${(total / runSeconds).toFixed(0)} trials/s`);
if (LATENCY > 0) console.log(`ideal (trials × latency / concurrency): ${ideal.toFixed(2)} s → ratio ${(runSeconds / ideal).toFixed(3)} (target ≤ 1.15)`);
const threads = process.env.BENCHWORK_TRIAL_THREADS ?? "default";
if (workerCpuMs !== null)
  console.log(`worker CPU: ${(workerCpuMs / 1000).toFixed(2)} s for the run, ${((workerCpuMs / total) * 1000).toFixed(0)} µs per trial (all threads)`);
const perTrial = (ms: number) => ((ms / total) * 1000).toFixed(0);
console.log(
  `CPU per trial in µs, user + kernel: ${used.map((u, i) => `${i === workers.length ? "model server" : `worker ${i + 1}`} ${u ? `${perTrial(u.user)} user + ${perTrial(u.system)} kernel` : "n/a"}`).join("; ")}`,
);
if (serverCpuMs !== null) console.log(`model server CPU: ${(serverCpuMs / 1000).toFixed(2)} s (${perTrial(serverCpuMs)} µs per request)`);
console.log(
  `peak RSS per worker process (VmHWM, ${threads} trial threads): ${peaks.map((b) => (b === null ? "n/a" : `${(b / 1024 / 1024).toFixed(0)} MB`)).join(", ")} (target < 300 MB)`,
);
console.log(`database: ${(dbBytes / 1024 / 1024).toFixed(1)} MB (${(dbBytes / TRIALS).toFixed(0)} bytes per trial, cases included)`);
if (written !== null)
  console.log(
    `disk written during launch + run (this process and the workers): ${(written / 1024 / 1024).toFixed(1)} MB (${(written / total).toFixed(0)} bytes per trial, target ≤ 5,120)`,
  );
console.log(`results matrix, first page: ${matrixMs.toFixed(1)} ms (failures filter, sorted: ${matrixFilteredMs.toFixed(1)} ms; target < 200 ms)`);
// For --suite: one machine-readable line per run.
const peakMb = Math.max(...peaks.map((b) => (b ?? 0) / 1024 / 1024));
console.log(
  `RESULT ${JSON.stringify({ trials: TRIALS, latency: LATENCY, rate: total / runSeconds, ratio: ideal > 0 ? runSeconds / ideal : 0, rssMb: peakMb, cpuUsPerTrial: workerCpuMs === null ? NaN : (workerCpuMs / total) * 1000, bytesPerTrial: written === null ? NaN : written / total, matrixMs })}`,
);
server.kill();
process.exit(0);
