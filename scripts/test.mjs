#!/usr/bin/env node
/**
 * `npm test [typecheck|lint|unit|e2e|a,b] [vitest filters…]`: the type-check (`tsc --noEmit`), the
 * linters (ESLint with no warning allowed, `prettier --check`), the unit
 * tests (Vitest; filters narrow them, e.g. `npm test unit lib/import`) and the end-to-end tests
 * (Playwright in Debian's Chromium against the production build), then one closing line
 * `tests: N passed, M failed` counting all of them (test-results.mjs says how).
 * Exits non-zero when anything failed or a suite could not run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { eslintResult, playwrightResult, prettierResult, suitesToRun, typecheckResult, vitestResult } from "./test-results.mjs";
import { startTestCluster } from "./test-pg.mjs";

process.env.NEXT_TELEMETRY_DISABLED ??= "1";
const [suiteArg, ...filters] = process.argv.slice(2);
let suites;
try {
  suites = suitesToRun(suiteArg);
} catch (e) {
  console.error(`npm test: ${e.message}`);
  process.exit(2);
}
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

const results = [];

if (suites.includes("typecheck")) {
  console.log("npm test: type-checking (tsc --noEmit)…");
  const r = spawnSync(bin("tsc"), ["--noEmit"], { env: process.env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  process.stdout.write(output);
  results.push(typecheckResult(r.error ? null : r.status, output));
}

if (suites.includes("lint")) {
  console.log("npm test: linting (eslint, prettier --check)…");
  const out = ".test-results/eslint.json";
  rmSync(out, { force: true });
  const code = run(bin("eslint"), [".", "--max-warnings", "0", "--format", "json", "--output-file", out]);
  const report = readJson(out);
  if (Array.isArray(report))
    for (const f of report)
      for (const m of f.messages ?? []) console.log(`${path.relative(".", f.filePath)}:${m.line ?? 0}: ${m.message} (${m.ruleId ?? "eslint"})`);
  results.push(eslintResult(code, report));
  const p = spawnSync(bin("prettier"), ["--check", "."], { env: process.env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const output = `${p.stdout ?? ""}${p.stderr ?? ""}`;
  process.stdout.write(output);
  results.push(prettierResult(p.error ? null : p.status, output));
}

if (suites.includes("unit")) {
  const out = ".test-results/vitest.json";
  rmSync(out, { force: true });
  // One throwaway PostgreSQL cluster for the suites that need it (BENCHWORK_TEST_DATABASE_URL).
  const cluster = await startTestCluster();
  const code = run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile=${out}`, ...filters]);
  await cluster.stop();
  results.push(vitestResult(code, readJson(out)));
}

if (suites.includes("e2e")) {
  const out = "e2e/.artifacts/results.json";
  rmSync(out, { force: true });
  const code = run(bin("playwright"), ["test"]);
  results.push(playwrightResult(code, existsSync(out) ? readJson(out) : null));
}

const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
for (const n of results.flatMap((r) => r.notes)) console.log(`note: ${n}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
