/**
 * Production needs no esbuild at run time (issue 20): once the worker's bundles are built (as
 * `npm run build` and `npm start` do), `npm run worker` starts, loads its trial threads and takes
 * its place in the queue with esbuild made impossible to load.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/** Rows of the queue's `workers` table (a worker registers once its trial threads have loaded). */
function registeredWorkers(db: string): number {
  const sqlite = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return (sqlite.prepare("SELECT count(*) AS n FROM workers").get() as { n: number }).n;
  } catch {
    return 0; // not migrated yet
  } finally {
    sqlite.close();
  }
}

describe("npm run worker on built bundles", () => {
  it("starts with its trial threads without loading esbuild", async () => {
    const db = path.join(dir, "w.db");
    const command = workerCommand();
    const child = spawn(process.execPath, ["--import", forbidEsbuild, ...command.args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...command.env, BENCHWORK_DB: db, BENCHWORK_TRIAL_THREADS: "1", BENCHWORK_WORKER_POLL_MS: "50" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => child.on("exit", r));
    let code: number | null | undefined;
    void exited.then((c) => (code = c));
    let registered = 0;
    try {
      // Until it has registered in the queue (after its trial thread loaded) or died.
      while (code === undefined && registered === 0) {
        await new Promise((r) => setTimeout(r, 100));
        if (out.includes("running")) registered = registeredWorkers(db);
      }
    } finally {
      child.kill("SIGTERM");
    }
    await exited;
    expect(err).toBe("");
    expect(out).not.toMatch(/building them now/);
    expect(out).toMatch(new RegExp(`^benchwork worker ${child.pid} running on .*w\\.db$`, "m"));
    expect(registered).toBe(1);
  }, 120_000);
});
