#!/usr/bin/env node
/**
 * The server the e2e tests drive: the production build (built when stale) on a throwaway
 * database that is deleted first, so every e2e run starts from a freshly seeded demo workspace.
 */
import { rmSync, mkdirSync } from "node:fs";
import { spawn } from "node:child_process";

const dir = "e2e/.artifacts";
mkdirSync(dir, { recursive: true });
const db = `${dir}/e2e.db`;
for (const suffix of ["", "-wal", "-shm"]) rmSync(db + suffix, { force: true });

// The scripted OpenAI-compatible model server: live benches in e2e go over real HTTP to it.
const modelPort = process.env.E2E_MODEL_PORT ?? "4010";
const models = spawn("node_modules/.bin/tsx", ["e2e/fixtures/scripted-model-server.ts", "--port", modelPort, "--script", "e2e/fixtures/model-scripts/e2e.json"], { stdio: "inherit" });

// The key policy (README, "Model keys"): e2e/models.spec.ts saves a configuration whose key
// variable is bound to the scripted server, so the key may go there and nowhere else.
const keys = { E2E_SCRIPTED_API_KEY: "e2e-scripted-key", BENCHWORK_KEY_HOSTS: `E2E_SCRIPTED_API_KEY=http://127.0.0.1:${modelPort}` };
const env = { ...process.env, ...keys, BENCHWORK_DB: db, PORT: process.env.E2E_PORT ?? "3107", NEXT_TELEMETRY_DISABLED: "1" };
const child = spawn(process.execPath, ["scripts/start.mjs"], { stdio: "inherit", env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => (child.kill(sig), models.kill(sig)));
child.on("exit", (code) => (models.kill(), process.exit(code ?? 1)));
models.on("exit", (code) => {
  if (code) console.error(`scripted model server exited with ${code}`);
});
