/**
 * Case and suite results and their stable JSON form (issue #6 runner contract).
 *
 * The JSON written by `benchwork run --json-output` is {@link SuiteResultJson}; the list written by
 * `--list --json-output` is {@link CaseListJson}. Both carry `schemaVersion` ({@link RESULT_SCHEMA_VERSION});
 * fields are only ever added, never renamed or removed, without a new version.
 */
import { RESULT_SCHEMA_VERSION, type CaseResult, type CaseSource, type Release, type ReleaseCase, type SuiteResult } from "./types";

/**
 * The `passed` rule: true only when there is no error, the case was neither skipped nor timed out,
 * at least one check ran, and every configured check passed (`judgePassed`, `reliabilityPassed`,
 * `evaluatorPassed` that are not null are all true). False when no check ran.
 */
export function casePassed(r: Omit<CaseResult, "passed">): boolean {
  if (r.error !== null || r.skipped || r.timedOut) return false;
  const verdicts = [r.judgePassed, r.reliabilityPassed, r.evaluatorPassed].filter((v) => v !== null);
  return verdicts.length > 0 && verdicts.every((v) => v === true);
}

/**
 * Aggregates case results.
 * @returns `total` (every result, skipped included), `passed`, `failed` (= total − passed), and
 *   `status`: `PASS` only when there is at least one result and every one passed (an empty
 *   selection is `FAIL`, so a mistyped selector cannot turn CI green)
 */
export function summarize(results: CaseResult[]): SuiteResult {
  const passed = results.filter((r) => r.passed).length;
  return { results, total: results.length, passed, failed: results.length - passed, status: results.length > 0 && passed === results.length ? "PASS" : "FAIL" };
}

/** Every check verdict unset: the state of a case before (or without) any check. */
export const NO_VERDICTS = {
  judgePassed: null,
  judgeReason: null,
  judgeScore: null,
  reliabilityPassed: null,
  evaluatorPassed: null,
  evaluatorScore: null,
  evaluatorMessage: null,
  evaluatorDetails: null,
} as const satisfies Partial<CaseResult>;

/** The result of a case that never ran because the suite was cancelled: skipped, failed, no session, no checks. */
export function skippedResult(c: Pick<ReleaseCase, "id" | "labels">): CaseResult {
  return {
    name: c.id,
    tags: [...c.labels],
    sessionId: "",
    durationSeconds: 0,
    ...NO_VERDICTS,
    output: null,
    toolsCalled: [],
    timedOut: false,
    skipped: true,
    error: null,
    passed: false,
  };
}

/** The `summary` block of {@link SuiteResultJson}. */
export interface SuiteSummaryJson {
  /** `PASS` only when every selected case passed; an empty selection is `FAIL`. */
  status: "PASS" | "FAIL";
  /** Selected cases (= `results.length`, skipped included). */
  total: number;
  passed: number;
  /** total − passed (skipped cases count as failed). */
  failed: number;
  /** Cases never run because the run was cancelled. */
  skipped: number;
  timedOut: number;
  /** Cases whose `error` is set. */
  errored: number;
  /** Wall time of the whole run, in seconds (3 decimals). */
  durationSeconds: number;
}

/** One entry of {@link SuiteResultJson} `results`: every {@link CaseResult} field plus the case's source. */
export interface CaseResultJson extends CaseResult {
  /** Where the case is (module, file, row for CSV/JSONL rows); null when unknown. */
  source: CaseSource | null;
}

/**
 * The machine-readable result of `benchwork run` (stable contract for CI consumers):
 * `{ schemaVersion: 1, release: { title, version, contentHash } | null, summary: {…}, results: [{…}, …] }`,
 * one result per selected case in selection order, skipped ones included.
 */
export interface SuiteResultJson {
  schemaVersion: typeof RESULT_SCHEMA_VERSION;
  release: { title: string; version: string; contentHash: string } | null;
  summary: SuiteSummaryJson;
  results: CaseResultJson[];
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Builds the JSON form of a suite result.
 * @param suite the aggregated result
 * @param meta the release it ran (for `release`), the cases (for `source`, matched by name) and the run's wall time in seconds
 */
export function suiteResultToJson(
  suite: SuiteResult,
  meta: {
    release?: Pick<Release, "title" | "version" | "contentHash"> | null;
    cases?: readonly Pick<ReleaseCase, "id" | "source">[];
    durationSeconds?: number;
  } = {},
): SuiteResultJson {
  const sources = new Map((meta.cases ?? []).map((c) => [c.id, c.source]));
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    release: meta.release ? { title: meta.release.title, version: meta.release.version, contentHash: meta.release.contentHash } : null,
    summary: {
      status: suite.status,
      total: suite.total,
      passed: suite.passed,
      failed: suite.failed,
      skipped: suite.results.filter((r) => r.skipped).length,
      timedOut: suite.results.filter((r) => r.timedOut).length,
      errored: suite.results.filter((r) => r.error !== null).length,
      durationSeconds: round3(meta.durationSeconds ?? suite.results.reduce((s, r) => s + r.durationSeconds, 0)),
    },
    results: suite.results.map((r) => ({
      name: r.name,
      tags: r.tags,
      sessionId: r.sessionId,
      durationSeconds: round3(r.durationSeconds),
      judgePassed: r.judgePassed,
      judgeReason: r.judgeReason,
      judgeScore: r.judgeScore,
      reliabilityPassed: r.reliabilityPassed,
      evaluatorPassed: r.evaluatorPassed,
      evaluatorScore: r.evaluatorScore,
      evaluatorMessage: r.evaluatorMessage,
      evaluatorDetails: r.evaluatorDetails,
      output: r.output,
      toolsCalled: r.toolsCalled,
      timedOut: r.timedOut,
      skipped: r.skipped,
      error: r.error,
      passed: r.passed,
      source: sources.get(r.name) ?? null,
    })),
  };
}

/** One entry of {@link CaseListJson}. */
export interface CaseListEntryJson {
  name: string;
  eval: string;
  tags: string[];
  tools: string[];
  source: CaseSource;
}

/** What `benchwork run --list --json-output PATH` writes: the selected cases, not run. */
export interface CaseListJson {
  schemaVersion: typeof RESULT_SCHEMA_VERSION;
  release: { title: string; version: string; contentHash: string } | null;
  total: number;
  cases: CaseListEntryJson[];
}

/** Builds the JSON list of selected cases. */
export function caseListToJson(cases: readonly ReleaseCase[], release?: Pick<Release, "title" | "version" | "contentHash"> | null): CaseListJson {
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    release: release ? { title: release.title, version: release.version, contentHash: release.contentHash } : null,
    total: cases.length,
    cases: cases.map((c) => ({ name: c.id, eval: c.evalId, tags: [...c.labels], tools: [...c.tools], source: c.source })),
  };
}
