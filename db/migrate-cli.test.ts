/**
 * `npm run db:migrate` and the seed step of `npm start` on a PostgreSQL store they cannot reach
 * (tester's report #3): one line on stderr naming the store and PostgreSQL's reason, exit 1 (README).
 * Before, the error with its stack and the driver's error object (~30 lines).
 */
import { expect, it } from "vitest";
import { spawn } from "node:child_process";
import { closedPort } from "@/e2e/fixtures/closed-port";

it.each([
  ["npm run db:migrate", "db/migrate-cli.ts"],
  ["the seed step of npm start (db/seed/cli.ts)", "db/seed/cli.ts"],
])(
  "%s on an unreachable PostgreSQL store prints one line and exits 1",
  async (_name, script) => {
    const port = await closedPort();
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, BENCHWORK_DATABASE_URL: `postgres://bw:s3cret-pw@127.0.0.1:${port}/benchwork` },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr.trimEnd().split("\n")).toEqual([
      `benchwork: cannot connect to the PostgreSQL store 127.0.0.1:${port}/benchwork: connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
    expect(stdout).toBe("");
    expect(code).toBe(1);
  },
  60_000,
);
