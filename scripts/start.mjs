#!/usr/bin/env node
/**
 * `npm start`: one command from a fresh clone to a running app.
 * 1. builds the production bundle when .next is missing or older than the sources (build-app.mjs:
 *    without Next's type-check, with progress lines), and the worker's bundles when dist/worker is
 *    (worker-bundles.mjs);
 * 2. migrates the store (PostgreSQL at BENCHWORK_DATABASE_URL, else the SQLite file BENCHWORK_DB,
 *    default data/benchwork.db) and seeds the demo workspace
 *    the first time (never twice, never over user data);
 * 3. serves on PORT (default 3000), on 127.0.0.1 only unless BENCHWORK_HOST names another address
 *    (then only with authentication configured: BENCHWORK_AUTH_SECRET and a user; else it refuses
 *    to start with one line).
 * `--dev` skips the build and runs `next dev`.
 */
import { spawnSync, spawn } from "node:child_process";
import path from "node:path";
import { buildIsCurrent, markBuilt } from "./build-state.mjs";
import Database from "better-sqlite3";
import { exposureRefusal, nextServerCommand } from "./listen.mjs";
import { buildApp } from "./build-app.mjs";
import { ensureWorkerBundles } from "./worker-bundles.mjs";
import { seedCommand } from "./seed-command.mjs";

const dev = process.argv.includes("--dev");
// No network here or in CI: keep Next.js from trying to send telemetry.
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
let server;
try {
  server = nextServerCommand({ dev, env: process.env });
} catch (e) {
  console.error(`benchwork: ${e.message}`);
  process.exit(2);
}
const bin = (name) => path.join("node_modules", ".bin", name);

/** Runs a step; a failed one ends `npm start` with its exit code (`quiet`: the step's own stderr said why, in one line). */
function run(cmd, args, { quiet = false } = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env: process.env });
  if (r.status !== 0) {
    if (!quiet || r.status === null) console.error(`\n${cmd} ${args.join(" ")} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status || 1);
  }
}

/** Accounts in the store the seed step migrated: PostgreSQL (BENCHWORK_DATABASE_URL) or the SQLite file. */
async function countUsers() {
  const url = process.env.BENCHWORK_DATABASE_URL?.trim();
  if (url) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: url });
    // A connection PostgreSQL drops is the query's error; unheard, pg would also throw it out of the event loop.
    client.on("error", () => undefined);
    await client.connect();
    try {
      return Number((await client.query("SELECT count(*) AS n FROM users")).rows[0].n);
    } finally {
      await client.end();
    }
  }
  const sqlite = new Database(process.env.BENCHWORK_DB?.trim() || "data/benchwork.db", { readonly: true, fileMustExist: true });
  try {
    return sqlite.prepare("SELECT count(*) AS n FROM users").get().n;
  } finally {
    sqlite.close();
  }
}

if (!dev) {
  if (buildIsCurrent()) console.log("benchwork: production build is current");
  else {
    const code = await buildApp();
    if (code !== 0) process.exit(code);
    markBuilt();
  }
  // The worker's bundles (trial threads, `npm run worker`): built when missing or stale, saying so.
  await ensureWorkerBundles({ root: process.cwd() }).catch((e) => {
    console.error(`benchwork: the worker's bundles did not build:\n${e.message}`);
    process.exit(1);
  });
}

// The seed step says an unreachable store in one line (db/seed/cli.ts) and exits 1: nothing to add.
const [seedCmd, seedArgs] = await seedCommand({ dev, root: process.cwd() });
run(seedCmd, seedArgs, { quiet: true });

// Beyond loopback only with accounts (issue 19). The seed step has migrated the database.
const userCount = await countUsers();
const refusal = exposureRefusal({ env: process.env, userCount });
if (refusal) {
  console.error(`benchwork: ${refusal}`);
  process.exit(2);
}

if (server.warning) console.warn(server.warning);
const child = spawn(bin("next"), server.args, { stdio: "inherit", env: process.env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
