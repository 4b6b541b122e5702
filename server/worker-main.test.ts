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
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const code = await new Promise<number | null>((r) => child.on("exit", r));
  clearTimeout(timer);
  return { code, err };
}

describe("npm run worker: bad settings", () => {
  it("names BENCHWORK_TRIAL_THREADS and its bad value, and exits 2", async () => {
    const { code, err } = await runWorker({ BENCHWORK_TRIAL_THREADS: "two" });
    expect(code).toBe(2);
    expect(err.trim()).toBe('benchwork worker: BENCHWORK_TRIAL_THREADS: expected a whole number from 0 to 64, got "two"');
  }, 30_000);
  it("names BENCHWORK_WORKER_POLL_MS and its bad value, and exits 2", async () => {
    const { code, err } = await runWorker({ BENCHWORK_WORKER_POLL_MS: "soon" });
    expect(code).toBe(2);
    expect(err.trim()).toBe('benchwork worker: BENCHWORK_WORKER_POLL_MS: expected a whole number of ms from 10 to 60000, got "soon"');
  }, 30_000);
});
