/**
 * How `npm test` (scripts/test.mjs) counts each suite in its closing line `tests: N passed,
 * M failed`. A suite that fails without saying what failed (could not start, crashed) counts as one
 * failed test, so the closing line never reads as green when something did not run.
 */

/** The suites `npm test` knows, in the order it runs them. */
export const SUITES = ["typecheck", "unit", "e2e"];

/**
 * Which suites to run.
 * @param arg `npm test`'s first argument: absent (all), one suite or a comma list
 * @throws Error naming an unknown suite
 */
export function suitesToRun(arg) {
  if (!arg) return [...SUITES];
  const asked = arg.split(",").map((s) => s.trim());
  for (const s of asked) if (!SUITES.includes(s)) throw new Error(`unknown test suite ${JSON.stringify(s)}: use typecheck, unit or e2e (or a comma list)`);
  return SUITES.filter((s) => asked.includes(s));
}

/**
 * `tsc --noEmit`: one passed test when clean, one failed test per type error.
 * @param code tsc's exit code (null when killed)
 * @param output what tsc printed
 */
export function typecheckResult(code, output) {
  if (code === 0) return { passed: 1, failed: 0, notes: [] };
  // Errors in files look like `path(line,col): error TS1234: …`; global ones (bad tsconfig) have no file.
  const errors = output.split("\n").filter((l) => /^\S.*\(\d+,\d+\): error TS\d+:/.test(l)).length;
  if (errors > 0) return { passed: 0, failed: errors, notes: [`tsc --noEmit: ${errors} type error${errors === 1 ? "" : "s"}`] };
  return { passed: 0, failed: 1, notes: [`tsc --noEmit exited with ${code} without reporting a type error`] };
}

/**
 * Vitest's JSON report (`--reporter=json`), or null when it wrote none.
 * @param code vitest's exit code
 */
export function vitestResult(code, report) {
  const r = { passed: report?.numPassedTests ?? 0, failed: (report?.numFailedTests ?? 0) + (report?.numRuntimeErrorTestSuites ?? 0), notes: [] };
  if (!report || (code !== 0 && r.failed === 0)) {
    r.failed += 1;
    r.notes.push(`vitest exited with ${code} without reporting a failed test`);
  }
  return r;
}

/**
 * Playwright's JSON report, or null when it wrote none.
 * @param code playwright's exit code
 */
export function playwrightResult(code, report) {
  const stats = report?.stats;
  const r = { passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0), failed: stats?.unexpected ?? 0, notes: [] };
  if (!stats || (code !== 0 && r.failed === 0)) {
    r.failed += 1;
    r.notes.push(`playwright exited with ${code} without reporting a failed test (server start or build failure?)`);
  }
  return r;
}
