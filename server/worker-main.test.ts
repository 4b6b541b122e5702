/** `npm run worker` with bad settings: one clear line naming the variable, exit code 2, nothing started. */
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

async function runWorker(env: Record<string, string>): Promise<{ code: number | null; err: string }> {
  const db = path.join(mkdtempSync(path.join(tmpdir(), "benchwork-worker-env-")), "w.db");
  const child = spawn(process.execPath, ["scripts/worker.mjs"], { env: { ...process.env, BENCHWORK_DB: db, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  // A safety net only (just under the test's timeout): a worker that never exits fails the test, however slow its start.
  const timer = setTimeout(() => child.kill("SIGKILL"), 55_000);
  const code = await new Promise<number | null>((r) => child.on("exit", r));
  clearTimeout(timer);
  return { code, err };
}

describe("npm run worker: bad settings", () => {
  it("names BENCHWORK_TRIAL_THREADS and its bad value, and exits 2", async () => {
    const { code, err } = await runWorker({ BENCHWORK_TRIAL_THREADS: "two" });
    expect(code).toBe(2);
    expect(err.trim()).toBe('benchwork worker: BENCHWORK_TRIAL_THREADS: expected a whole number from 0 to 64, got "two"');
  }, 60_000);
  it("names BENCHWORK_WORKER_POLL_MS and its bad value, and exits 2", async () => {
    const { code, err } = await runWorker({ BENCHWORK_WORKER_POLL_MS: "soon" });
    expect(code).toBe(2);
    expect(err.trim()).toBe('benchwork worker: BENCHWORK_WORKER_POLL_MS: expected a whole number of ms from 10 to 60000, got "soon"');
  }, 60_000);
});

describe("npm run worker: stopping", () => {
  // `kill` of the npm process left the worker running (npm signals its shell, which did not pass it on).
  it("stops the worker when the npm process is told to stop", async () => {
    const db = path.join(mkdtempSync(path.join(tmpdir(), "benchwork-worker-stop-")), "w.db");
    const npm = spawn("npm", ["run", "--silent", "worker"], {
      env: { ...process.env, BENCHWORK_DB: db, BENCHWORK_TRIAL_THREADS: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      let out = "";
      npm.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        // A worker's lines carry their time (UTC, ISO 8601): a tester could not tell when a worker's outage lines were written.
        const m = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z benchwork worker (\d+) running/m.exec(out);
        if (m) resolve(Number(m[1]));
      });
      npm.on("exit", (c) => reject(new Error(`npm run worker exited ${c}`)));
    });
    npm.kill("SIGTERM");
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // Look until it is gone; give up (and kill it) only just before the test's own timeout.
    for (let i = 0; i < 500 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    const stillAlive = alive();
    if (stillAlive) process.kill(pid, "SIGKILL");
    expect(stillAlive).toBe(false);
  }, 90_000);
});
