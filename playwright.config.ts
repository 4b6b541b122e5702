import { defineConfig } from "@playwright/test";
import { e2ePorts } from "./scripts/e2e-ports.mjs";

// Playwright evaluates this file in its runner and again in every worker: the runner picks free
// ports (unless E2E_PORT / E2E_MODEL_PORT are set) and stores them in its environment, which the
// workers and the web server inherit, so all of them agree.
const ports = await e2ePorts();
/** Port of the throwaway production server the e2e tests drive. */
export const E2E_PORT = ports.appPort;
/** Port of the scripted OpenAI-compatible model server the e2e server starts. */
export const E2E_MODEL_PORT = ports.modelPort;
/** Port of the same app on a throwaway PostgreSQL store (issue 20). */
export const E2E_PG_PORT = ports.pgAppPort;
/** `BENCHWORK_SKIP_PG=1` leaves the PostgreSQL server and its project out on purpose (as in the unit run). */
const withPostgres = process.env.BENCHWORK_SKIP_PG !== "1";
/**
 * Specs that also run against the PostgreSQL store. Left out: specs that read the SQLite file
 * directly; postgres.spec.ts runs a bench there (through pg-boss and the server's job worker).
 */
const POSTGRES_SPECS = ["library.spec.ts", "activity.spec.ts", "evaluators.spec.ts", "postgres.spec.ts"];

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "e2e/.artifacts/results.json" }]],
  outputDir: "e2e/.artifacts/test-results",
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    { name: "sqlite", testIgnore: ["postgres.spec.ts"] },
    ...(withPostgres ? [{ name: "postgres", testMatch: POSTGRES_SPECS, use: { baseURL: `http://127.0.0.1:${E2E_PG_PORT}` } }] : []),
  ],
  webServer: [
    {
      command: "node scripts/e2e-server.mjs",
      url: `http://127.0.0.1:${E2E_PORT}/`,
      timeout: 400_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: { E2E_PORT: String(E2E_PORT), E2E_MODEL_PORT: String(E2E_MODEL_PORT), E2E_PG_PORT: String(E2E_PG_PORT) },
    },
    ...(withPostgres
      ? [
          {
            command: "node scripts/e2e-server.mjs --store postgres",
            url: `http://127.0.0.1:${E2E_PG_PORT}/`,
            timeout: 500_000,
            reuseExistingServer: false,
            stdout: "pipe" as const,
            stderr: "pipe" as const,
            env: { E2E_PORT: String(E2E_PORT), E2E_MODEL_PORT: String(E2E_MODEL_PORT), E2E_PG_PORT: String(E2E_PG_PORT) },
          },
        ]
      : []),
  ],
});
