/** Types of test-results.mjs. */
/** One suite's share of `npm test`'s closing line. */
export interface SuiteResult {
  passed: number;
  failed: number;
  /** Why a failure was counted without a failed test (printed before the closing line). */
  notes: string[];
}
export declare const SUITES: readonly ["typecheck", "lint", "unit", "e2e"];
/** The suites to run for `npm test [arg]`. @throws Error naming an unknown suite */
export declare function suitesToRun(arg: string | undefined): string[];
/** `tsc --noEmit`: 1 passed when clean, 1 failed per type error. */
export declare function typecheckResult(code: number | null, output: string): SuiteResult;
/** Vitest's JSON report (null when none was written). */
export declare function vitestResult(
  code: number | null,
  report: { numPassedTests?: number; numFailedTests?: number; numRuntimeErrorTestSuites?: number } | null,
): SuiteResult;
/** Playwright's JSON report (null when none was written). */
export declare function playwrightResult(
  code: number | null,
  report: { stats?: { expected?: number; flaky?: number; unexpected?: number } } | null,
): SuiteResult;
/** ESLint's JSON report: 1 passed when clean, 1 failed per problem (null when none was written). */
export declare function eslintResult(
  code: number | null,
  report: { filePath: string; messages?: { line?: number; ruleId?: string | null; message: string }[] }[] | null,
): SuiteResult;
/** `prettier --check .`: 1 passed when clean, 1 failed per unformatted file. */
export declare function prettierResult(code: number | null, output: string): SuiteResult;
