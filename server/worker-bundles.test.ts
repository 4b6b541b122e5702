/**
 * Production needs no esbuild at run time (issue 20): once the worker's bundles are built (as
 * `npm run build` and `npm start` do), `npm run worker` and the server's worker thread start, load
 * their trial threads and take their place in the queue with esbuild made impossible to load.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase } from "@/db/client";
import { seedCommand } from "../scripts/seed-command.mjs";
import { ensureWorkerBundles } from "../scripts/worker-bundles.mjs";
import { REPO_ROOT, workerCommand } from "./bench/test-support/worker-fleet";

const forbidEsbuild = fileURLToPath(new URL("../scripts/test-support/forbid-esbuild.mjs", import.meta.url));
let dir: string;

beforeAll(async () => {
  // The build step (it builds only when the bundles are missing or older than the sources).
  await ensureWorkerBundles({ root: REPO_ROOT });
  dir = mkdtempSync(path.join(tmpdir(), "benchwork-worker-bundles-"));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `child` until its output says it is ready (its trial threads loaded, the loop claiming), then stops it. */
async function runUntilReady(child: ChildProcessWithoutNullStreams, ready: RegExp) {
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on("exit", r));
  let code: number | null | undefined;
  void exited.then((c) => (code = c));
  let readyWhileRunning = false;
  try {
    while (code === undefined && !ready.test(out)) await new Promise((r) => setTimeout(r, 100));
    readyWhileRunning = code === undefined;
  } finally {
    child.kill("SIGTERM");
  }
  await exited;
  return { out, err, readyWhileRunning };
}

describe("the server's worker thread on built bundles", () => {
  it("starts with its trial threads without loading esbuild", async () => {
    // The server's start migrates the store before the worker thread starts (npm start's seed step).
    const db = path.join(dir, "server.db");
    const store = openDatabase(db);
    migrateDatabase(store);
    store.$client.close();
    // What server/in-server-worker.ts does in the Next.js server: a thread on server/worker-thread.mjs.
    const start = [
      `import { Worker } from "node:worker_threads";`,
      `const thread = new Worker(${JSON.stringify(path.join(REPO_ROOT, "server", "worker-thread.mjs"))}, { workerData: { root: ${JSON.stringify(REPO_ROOT)} } });`,
      `thread.on("message", (m) => console.log(m));`,
      `process.on("SIGTERM", () => thread.postMessage("stop"));`,
      `thread.on("message", (m) => m === "stopped" && process.exit(0));`,
    ].join("\n");
    const script = path.join(dir, "server-thread.mjs");
    writeFileSync(script, start);
    const child = spawn(process.execPath, ["--import", forbidEsbuild, script], {
      cwd: REPO_ROOT,
      env: { ...process.env, BENCHWORK_DB: db, BENCHWORK_TRIAL_THREADS: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const { out, err, readyWhileRunning } = await runUntilReady(child, /^ready$/m);
    expect(err).toBe("");
    expect(out).not.toMatch(/building them now/);
    expect(out.trim().split("\n")).toEqual(["ready", "stopped"]);
    expect(readyWhileRunning).toBe(true);
  }, 120_000);
});

describe("the import worker on built bundles", () => {
  it("parses an upload without loading esbuild", async () => {
    // What server/parse-bounded.ts does for an upload: the bundle's path, then a thread on server/import-worker.mjs.
    const start = [
      `import { Worker } from "node:worker_threads";`,
      `import { workerBundle } from ${JSON.stringify(path.join(REPO_ROOT, "scripts", "worker-bundles.mjs"))};`,
      `const root = ${JSON.stringify(REPO_ROOT)};`,
      `const entry = await workerBundle(root, "import-parser");`,
      `const bytes = new TextEncoder().encode("input,expected\\nhello,world\\n");`,
      `const thread = new Worker(${JSON.stringify(path.join(REPO_ROOT, "server", "import-worker.mjs"))}, { workerData: { op: "parse", bytes, fileName: "cases.csv", options: {}, root, entry } });`,
      `thread.on("message", (m) => console.log(JSON.stringify(m)));`,
    ].join("\n");
    const script = path.join(dir, "import-thread.mjs");
    writeFileSync(script, start);
    const child = spawn(process.execPath, ["--import", forbidEsbuild, script], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(err).toBe("");
    expect(code).toBe(0);
    const reply = JSON.parse(out) as { ok: boolean; value: { columns: string[]; rows: string[][] } };
    expect(reply.ok).toBe(true);
    expect(reply.value.columns).toEqual(["input", "expected"]);
    expect(reply.value.rows).toEqual([["hello", "world"]]);
  }, 120_000);
});

describe("npm start's seed step on built bundles", () => {
  it("migrates and seeds the demo workspace without loading esbuild", async () => {
    const db = path.join(dir, "seed.db");
    const [cmd, args] = await seedCommand({ dev: false, root: REPO_ROOT });
    expect(cmd).toBe(process.execPath);
    const child = spawn(cmd, ["--import", forbidEsbuild, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, BENCHWORK_DB: db },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toMatch(/^demo workspace: seeded 3 systems, \d+ cases, \d+ criteria into .*seed\.db in \d+ ms$/m);
    const sqlite = new Database(db, { readonly: true });
    expect((sqlite.prepare("SELECT count(*) AS n FROM systems").get() as { n: number }).n).toBe(3);
    sqlite.close();
  }, 120_000);

  it("runs the TypeScript through tsx under npm run dev (no bundles built)", async () => {
    expect(await seedCommand({ dev: true, root: REPO_ROOT })).toEqual([path.join("node_modules", ".bin", "tsx"), ["db/seed/cli.ts"]]);
  });
});

describe("npm run worker on built bundles", () => {
  it("starts with its trial threads without loading esbuild", async () => {
    const db = path.join(dir, "w.db");
    const command = workerCommand();
    const child = spawn(process.execPath, ["--import", forbidEsbuild, ...command.args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...command.env, BENCHWORK_DB: db, BENCHWORK_TRIAL_THREADS: "1", BENCHWORK_WORKER_POLL_MS: "50" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const { out, err, readyWhileRunning } = await runUntilReady(child, /running/);
    expect(err).toBe("");
    expect(out).not.toMatch(/building them now/);
    expect(out).toMatch(new RegExp(`^\\S+Z benchwork worker ${child.pid} running on .*w\\.db$`, "m"));
    expect(readyWhileRunning).toBe(true);
  }, 120_000);
});
