/** Types of test-results.mjs. */
/** One suite's share of `npm test`'s closing line. */
export interface SuiteResult {
  passed: number;
  failed: number;
  /** Why a failure was counted without a failed test (printed before the closing line). */
  notes: string[];
}
export declare const SUITES: readonly ["typecheck", "unit", "e2e"];
/** The suites to run for `npm test [arg]`. @throws Error naming an unknown suite */
export declare function suitesToRun(arg: string | undefined): string[];
/** `tsc --noEmit`: 1 passed when clean, 1 failed per type error. */
export declare function typecheckResult(code: number | null, output: string): SuiteResult;
/** Vitest's JSON report (null when none was written). */
export declare function vitestResult(code: number | null, report: { numPassedTests?: number; numFailedTests?: number; numRuntimeErrorTestSuites?: number } | null): SuiteResult;
/** Playwright's JSON report (null when none was written). */
export declare function playwrightResult(code: number | null, report: { stats?: { expected?: number; flaky?: number; unexpected?: number } } | null): SuiteResult;
