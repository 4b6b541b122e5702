/**
 * How `npm test` (scripts/test.mjs) counts each suite in its closing line `tests: N passed,
 * M failed`. A suite that fails without saying what failed (could not start, crashed) counts as one
 * failed test, so the closing line never reads as green when something did not run.
 */

/** The suites `npm test` knows, in the order it runs them. */
export const SUITES = ["typecheck", "lint", "unit", "e2e"];

/**
 * Which suites to run.
 * @param arg `npm test`'s first argument: absent (all), one suite or a comma list
 * @throws Error naming an unknown suite
 */
export function suitesToRun(arg) {
  if (!arg) return [...SUITES];
  const asked = arg.split(",").map((s) => s.trim());
  for (const s of asked)
    if (!SUITES.includes(s)) throw new Error(`unknown test suite ${JSON.stringify(s)}: use typecheck, lint, unit or e2e (or a comma list)`);
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
 * ESLint's JSON report (`--format json`): one passed test when clean, one failed test per problem
 * (errors and warnings alike: `npm run lint` allows no warning).
 * @param code eslint's exit code
 * @param report the parsed report (an array of files with their messages), or null when there is none
 */
export function eslintResult(code, report) {
  if (!Array.isArray(report)) return { passed: 0, failed: 1, notes: [`eslint exited with ${code} without a report`] };
  const problems = report.reduce((n, f) => n + (f.messages?.length ?? 0), 0);
  if (problems === 0 && code === 0) return { passed: 1, failed: 0, notes: [] };
  if (problems === 0) return { passed: 0, failed: 1, notes: [`eslint exited with ${code} without reporting a problem`] };
  return { passed: 0, failed: problems, notes: [`eslint: ${problems} problem${problems === 1 ? "" : "s"} (npm run lint)`] };
}

/**
 * `prettier --check .`: one passed test when every file is formatted, one failed test per file that is not.
 * @param code prettier's exit code
 * @param output what it printed (`[warn] path` per unformatted file)
 */
export function prettierResult(code, output) {
  if (code === 0) return { passed: 1, failed: 0, notes: [] };
  const files = output
    .split("\n")
    .map((l) => /^\[warn\] (.+)$/.exec(l)?.[1])
    .filter((f) => f !== undefined && !f.startsWith("Code style issues"));
  if (files.length === 0) return { passed: 0, failed: 1, notes: [`prettier --check exited with ${code} without naming a file`] };
  return {
    passed: 0,
    failed: files.length,
    notes: [
      `prettier: ${files.length} file${files.length === 1 ? "" : "s"} not formatted (npm run format): ${files.slice(0, 10).join(", ")}${files.length > 10 ? ", …" : ""}`,
    ],
  };
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
