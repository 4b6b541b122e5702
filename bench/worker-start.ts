/**
 * The worker's start time (issue 20): from spawning `npm run worker` (its exact command, from
 * package.json) to the first trial claimed (the bench's `started_at`), with a bench already queued,
 * side by side in one run, alternating:
 * - `built`: the bundles in dist/worker are current (built ahead by `npm run build` / `npm start`):
 *   the worker loads them without esbuild;
 * - `at-start`: the bundles are missing (their stamp removed before the start), so the worker builds
 *   its two (its own and its trial threads') with esbuild first, as in a fresh clone — what every
 *   start did before the bundles were built ahead;
 * - `before` (with `--before COMMIT`, e.g. the commit before the bundles were built ahead): that
 *   commit's `npm run worker`, from a copy of its tracked files (`git archive`, in the temporary
 *   folder, removed at the end) with this checkout's node_modules, on the same database.
 * Each start runs one small bench (`--trials`, default 20) against an in-process scripted model
 * server (0 ms latency) and then stops the worker. Prints each round, then the median and range per
 * mode and the load average (figures on a busy machine: compare the modes, not the absolute times).
 *
 * Run: `npx tsx bench/worker-start.ts [--rounds 5] [--trials 20] [--before COMMIT]`. It leaves the
 * bundles built. Measured on the shared 2-core machine at load 24 (4 rounds, `--before 0dff6c6`):
 * before 9.2 s [6.1–9.3], built 3.7 s [3.5–3.8], at-start 9.0 s [7.3–9.3] (median [range]).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { BUNDLE_DIR, ensureWorkerBundles } from "../scripts/worker-bundles.mjs";
import { REPO_ROOT, workerCommand } from "../server/bench/test-support/worker-fleet";

const args = process.argv.slice(2);
const arg = (name: string, def: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const ROUNDS = Number(arg("rounds", "5"));
const TRIALS = Number(arg("trials", "20"));
const BEFORE = arg("before", "");

const { openDatabase, migrateDatabase } = await import("../db/client");
const { createModelConfig } = await import("../db/queries/models");
const { createPrompt, createSystem } = await import("../db/queries/systems");
const { launchFromRequest } = await import("../server/bench/prepare");
const { addContainsCases, modelBenchRequest } = await import("../server/bench/test-support/model-bench");
const { startScriptedModelServer } = await import("../e2e/fixtures/scripted-model-server");

const OUT = path.join(REPO_ROOT, "bench", ".out", "worker-start");
mkdirSync(OUT, { recursive: true });
const file = path.join(OUT, "worker-start.db");
for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });

const server = await startScriptedModelServer({ port: 0, host: "127.0.0.1" });
const db = openDatabase(file);
migrateDatabase(db);
await createSystem(db, { id: "start", name: "Start" });
const promptId = await createPrompt(db, { systemId: "start", name: "p", systemPrompt: "Answer briefly." });
await addContainsCases(db, {
  systemId: "start",
  promptId,
  cases: Array.from({ length: TRIALS }, (_, i) => ({ key: `start-${i}`, input: `Question ${i}?`, expected: "Scripted answer" })),
});
const model = await createModelConfig(db, { name: "loopback", provider: "openai-compatible", modelId: "scripted-1", baseUrl: `${server.url}` });

type Mode = "built" | "at-start" | "before";

/** A copy of the tracked files of `commit` with this checkout's node_modules (the worker's code then). */
function checkoutOf(commit: string): string {
  // Outside the checkout: its TypeScript must not join this one's type-check or lint.
  const dir = path.join(tmpdir(), `benchwork-worker-start-${commit}`);
  if (!existsSync(path.join(dir, "package.json"))) {
    mkdirSync(dir, { recursive: true });
    const archive = spawnSync("git", ["archive", commit], { cwd: REPO_ROOT, maxBuffer: 1 << 30 });
    if (archive.status !== 0) throw new Error(`git archive ${commit}: ${archive.stderr.toString()}`);
    const tar = spawnSync("tar", ["-x", "-C", dir], { input: archive.stdout });
    if (tar.status !== 0) throw new Error(`tar: ${tar.stderr.toString()}`);
    symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"));
  }
  return dir;
}
const beforeRoot = BEFORE ? checkoutOf(BEFORE) : null;

/** One start: queue a bench, spawn the worker, wait until it has finished the bench; ms to the first claim. */
async function startOnce(mode: Mode, round: number): Promise<number> {
  if (mode === "built") await ensureWorkerBundles({ root: REPO_ROOT });
  else if (mode === "at-start") rmSync(path.join(REPO_ROOT, BUNDLE_DIR, "manifest.json"), { force: true });
  const root = mode === "before" ? beforeRoot! : REPO_ROOT;
  const { id } = await launchFromRequest(
    db,
    modelBenchRequest({ systemId: "start", promptId, modelConfigIds: [model], concurrency: 8, launchKey: `start-${mode}-${round}-${Date.now()}` }),
  );
  const command = workerCommand(root);
  const spawnedAt = Date.now();
  const worker = spawn(process.execPath, command.args, {
    cwd: root,
    env: { ...process.env, ...command.env, BENCHWORK_DB: file, BENCHWORK_WORKER_POLL_MS: "50" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    worker.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes(`bench #${id} finished`)) resolve();
    });
    worker.on("exit", (c) => reject(new Error(`the worker exited (${c}) before finishing bench #${id}:\n${out}`)));
  });
  worker.kill("SIGTERM");
  await new Promise((r) => worker.once("exit", r));
  const row = db.$client.prepare("SELECT started_at AS s FROM benches WHERE id = ?").get(id) as { s: number };
  const built = /building them now/.test(out);
  if (mode !== "before" && built !== (mode === "at-start"))
    throw new Error(`mode ${mode}: the worker ${built ? "built" : "did not build"} its bundles:\n${out}`);
  return row.s - spawnedAt;
}

const modes: Mode[] = BEFORE ? ["before", "built", "at-start"] : ["built", "at-start"];
const times: Record<Mode, number[]> = { built: [], "at-start": [], before: [] };
// Alternating (A B A B …), the order rotated each round, so a change of load hits every mode.
for (let r = 0; r < ROUNDS; r++) {
  const order = modes.map((_, i) => modes[(i + r) % modes.length]);
  for (const mode of order) {
    const ms = await startOnce(mode, r);
    times[mode].push(ms);
    console.log(`round ${r + 1} ${mode.padEnd(8)} spawn → first trial claimed: ${ms} ms (load ${loadavg()[0].toFixed(1)})`);
  }
}
await ensureWorkerBundles({ root: REPO_ROOT });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`\n== spawn → first trial claimed, median [min–max] of ${ROUNDS} starts, ${TRIALS}-trial bench ==`);
for (const mode of modes) console.log(`${mode.padEnd(8)} ${median(times[mode])} ms [${Math.min(...times[mode])}–${Math.max(...times[mode])}]`);
console.log(
  `load average (1, 5, 15 min): ${loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")} on ${(await import("node:os")).cpus().length} cores`,
);
db.$client.close();
await server.close();
if (beforeRoot) rmSync(beforeRoot, { recursive: true, force: true });
