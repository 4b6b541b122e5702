#!/usr/bin/env node
/**
 * The server the e2e tests drive: the production build (built when stale) on a throwaway
 * database that is deleted first, so every e2e run starts from a freshly seeded demo workspace.
 * `--store postgres`: the same build on a throwaway PostgreSQL cluster (pg-cluster.mjs) on
 * E2E_PG_PORT (issue 20); it waits for the SQLite server to answer first, so only one of them builds.
 */
import { rmSync, mkdirSync } from "node:fs";
import { spawn } from "node:child_process";
import { e2ePorts } from "./e2e-ports.mjs";
import { startCluster } from "./pg-cluster.mjs";

if (process.argv.includes("--store") && process.argv[process.argv.indexOf("--store") + 1] === "postgres") await servePostgres();

const dir = "e2e/.artifacts";
mkdirSync(dir, { recursive: true });
const db = `${dir}/e2e.db`;
for (const suffix of ["", "-wal", "-shm"]) rmSync(db + suffix, { force: true });

// Playwright passes the ports it chose; run by hand, free ones are picked (and printed).
const given = Boolean(process.env.E2E_PORT && process.env.E2E_MODEL_PORT);
const { appPort, modelPort } = await e2ePorts(process.env);
if (!given) console.log(`e2e server: app on http://127.0.0.1:${appPort}/, scripted model server on http://127.0.0.1:${modelPort}/v1`);

// The scripted OpenAI-compatible model server: live benches in e2e go over real HTTP to it.
const models = spawn(
  "node_modules/.bin/tsx",
  ["e2e/fixtures/scripted-model-server.ts", "--port", String(modelPort), "--script", "e2e/fixtures/model-scripts/e2e.json"],
  { stdio: "inherit" },
);

// The key policy (README, "Model keys"): e2e/models.spec.ts saves a configuration whose key
// variable is bound to the scripted server, so the key may go there and nowhere else.
const keys = { E2E_SCRIPTED_API_KEY: "e2e-scripted-key", BENCHWORK_KEY_HOSTS: `E2E_SCRIPTED_API_KEY=http://127.0.0.1:${modelPort}` };
const env = { ...process.env, ...keys, BENCHWORK_DB: db, PORT: String(appPort), NEXT_TELEMETRY_DISABLED: "1" };
const child = spawn(process.execPath, ["scripts/start.mjs"], { stdio: "inherit", env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => (child.kill(sig), models.kill(sig)));
child.on("exit", (code) => (models.kill(), process.exit(code ?? 1)));
models.on("exit", (code) => {
  if (code) console.error(`scripted model server exited with ${code}`);
});

/** The app on a fresh PostgreSQL cluster (demo workspace seeded by start.mjs), stopped with the process. */
async function servePostgres() {
  const { appPort, modelPort, pgAppPort } = await e2ePorts(process.env);
  // The SQLite server builds the bundle when it is stale; start after it answers (then it is built).
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${appPort}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const cluster = await startCluster();
  const keys = { E2E_SCRIPTED_API_KEY: "e2e-scripted-key", BENCHWORK_KEY_HOSTS: `E2E_SCRIPTED_API_KEY=http://127.0.0.1:${modelPort}` };
  const env = { ...process.env, ...keys, BENCHWORK_DATABASE_URL: cluster.url, PORT: String(pgAppPort), NEXT_TELEMETRY_DISABLED: "1" };
  const app = spawn(process.execPath, ["scripts/start.mjs"], { stdio: "inherit", env });
  const stop = async (code) => {
    await cluster.stop().catch(() => undefined);
    process.exit(code ?? 1);
  };
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => app.kill(sig));
  app.on("exit", (code) => void stop(code));
  await new Promise(() => {});
}
