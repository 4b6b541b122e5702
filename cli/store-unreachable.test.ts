/**
 * The `benchwork` process on a PostgreSQL store it cannot reach (issue 20): the store commands say
 * so in one line on stderr — the store (no credentials) and PostgreSQL's reason — and exit 1, with
 * no stack trace under the line (before, main printed the error's stack).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { tempFiles } from "./testing";
import { closedPort } from "@/e2e/fixtures/closed-port";

/** Runs `benchwork ARGS` (cli/bin.mjs) with `env` added; resolves with its exit code and output. */
function benchwork(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["cli/bin.mjs", ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("benchwork on an unreachable PostgreSQL store", () => {
  // The tests compare stderr line by line: in a checkout whose cli/ changed since its bundles were
  // built, the first command would add the bundles' "building them now" line (seen as a flaky first test).
  beforeAll(() => {
    spawnSync(process.execPath, ["cli/bin.mjs", "--help"], { stdio: "ignore" });
  }, 180_000);
  const dir = tempFiles({ "faq.csv": "question,answer\nWhere is my order?,Ask for the order number\n" });

  it.each([
    ["dataset import", (file: string) => ["dataset", "import", file, "--system", "acme", "--name", "faq"]],
    ["user add", () => ["user", "add", "ana@example.com"]],
  ])(
    "%s prints one line naming the store and the reason, exit 1",
    async (_name, args) => {
      const port = await closedPort();
      // A SQLite file the command must not create or use instead.
      const sqlite = path.join(dir, `untouched-${port}.db`);
      const r = await benchwork(args(path.join(dir, "faq.csv")), {
        BENCHWORK_DATABASE_URL: `postgres://bw:s3cret-pw@127.0.0.1:${port}/benchwork`,
        BENCHWORK_DB: sqlite,
      });
      expect(r.stderr.trimEnd().split("\n")).toEqual([
        `benchwork: cannot connect to the PostgreSQL store 127.0.0.1:${port}/benchwork: connect ECONNREFUSED 127.0.0.1:${port}`,
      ]);
      expect(r.stderr).not.toContain("s3cret-pw");
      expect(r.stdout).toBe("");
      expect(r.code).toBe(1);
      expect(existsSync(sqlite)).toBe(false);
    },
    60_000,
  );

  it("bench run prints the same line and exits 2 (a broken database, README), storing nothing", async () => {
    const port = await closedPort();
    const sqlite = path.join(dir, `untouched-bench-${port}.db`);
    const r = await benchwork(["bench", "run", "--system", "acme", "--prompt", "agent", "--candidate", "model:m"], {
      BENCHWORK_DATABASE_URL: `postgres://bw:s3cret-pw@127.0.0.1:${port}/benchwork`,
      BENCHWORK_DB: sqlite,
    });
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      `benchwork: cannot connect to the PostgreSQL store 127.0.0.1:${port}/benchwork: connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
    expect(r.stdout).toBe("");
    expect(r.code).toBe(2);
    expect(existsSync(sqlite)).toBe(false);
  }, 60_000);
});
