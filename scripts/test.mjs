#!/usr/bin/env node
/**
 * `npm test`: unit tests (Vitest) then end-to-end tests (Playwright in Debian's Chromium against
 * the production build), and one closing line `tests: N passed, M failed` counting both.
 * Exits non-zero when anything failed or a suite could not run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

process.env.NEXT_TELEMETRY_DISABLED ??= "1";
const only = process.argv[2]; // "unit" | "e2e" | undefined
const bin = (name) => path.join("node_modules", ".bin", name);
mkdirSync(".test-results", { recursive: true });

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env: process.env });
  return r.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

let passed = 0;
let failed = 0;
const notes = [];

if (only !== "e2e") {
  const out = ".test-results/vitest.json";
  rmSync(out, { force: true });
  const code = run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile=${out}`]);
  const r = readJson(out);
  if (r) {
    passed += r.numPassedTests ?? 0;
    failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  }
  if (!r || (code !== 0 && (r.numFailedTests ?? 0) === 0 && (r.numRuntimeErrorTestSuites ?? 0) === 0)) {
    failed += 1;
    notes.push(`vitest exited with ${code} without reporting a failed test`);
  }
}

if (only !== "unit") {
  const out = "e2e/.artifacts/results.json";
  rmSync(out, { force: true });
  const code = run(bin("playwright"), ["test"]);
  const r = existsSync(out) ? readJson(out) : null;
  if (r?.stats) {
    passed += (r.stats.expected ?? 0) + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected ?? 0;
  }
  if (!r?.stats || (code !== 0 && (r.stats.unexpected ?? 0) === 0)) {
    failed += 1;
    notes.push(`playwright exited with ${code} without reporting a failed test (server start or build failure?)`);
  }
}

for (const n of notes) console.log(`note: ${n}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
