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

const env = { ...process.env, BENCHWORK_DB: db, PORT: process.env.E2E_PORT ?? "3107", NEXT_TELEMETRY_DISABLED: "1" };
const child = spawn(process.execPath, ["scripts/start.mjs"], { stdio: "inherit", env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 1));
