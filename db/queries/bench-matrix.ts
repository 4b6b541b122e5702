/**
 * The results matrix of a bench: one row per included case, one cell per candidate, from counts
 * kept in trial columns (no JSON parsing), so a 20,000-trial bench loads quickly. Filters and
 * sorting run over all rows; the page then takes its slice.
 */
import type { Db } from "../client";
import { NOT_RERUN } from "./rerun-sql";
import { cellVerdict, type CaseCell } from "@/lib/bench/aggregate";

/**
 * SQL sums of trials by verdict, as `trialVerdict` reads a trial from its check counts: `scored`
 * (a verdict: fully passed or failed), `passed` (fully passed), `errors` (the trial or one of its
 * checks errored; `hasErrors`). Over the rows of `trials` in the query's group.
 */
export const TRIAL_VERDICT_SUMS = `sum(failed_checks > 0 OR (status = 'done' AND error_checks = 0 AND passed_checks > 0)) AS scored,
              sum(status = 'done' AND failed_checks = 0 AND error_checks = 0 AND passed_checks > 0) AS passed,
              sum(status = 'error' OR error_checks > 0) AS errors`;

/** One matrix row: a case and its cell per candidate id. */
export interface MatrixRow {
  benchCaseId: number;
  position: number;
  caseId: number;
  caseKey: string;
  caseRevisionId: number;
  source: string;
  /** `budgetSkipped`: trials of the cell the spend cap kept from starting (issue #16 §4), absent when none. */
  cells: Record<number, CaseCell & { firstTrialId: number | null; budgetSkipped?: number }>;
}

function cellOf(r: {
  total: number;
  errors: number;
  skipped: number;
  pending: number;
  scored: number;
  passed: number;
  failedChecks: number;
  firstTrialId: number;
  budgetSkipped?: number;
}): CaseCell & { firstTrialId: number; budgetSkipped?: number } {
  return {
    ...(r.budgetSkipped ? { budgetSkipped: r.budgetSkipped } : {}),
    verdict: cellVerdict(r),
    passedTrials: r.passed,
    scoredTrials: r.scored,
    errorTrials: r.errors,
    trials: r.total,
    failedChecks: r.failedChecks,
    firstTrialId: r.firstTrialId,
  };
}

/** Every row of the matrix, in manifest order. */
export function matrixRows(db: Db, benchId: number): MatrixRow[] {
  const cases = db.$client
    .prepare(
      "SELECT id, position, case_id AS caseId, case_key AS caseKey, case_revision_id AS rev, source FROM bench_cases WHERE bench_id = ? AND included = 1 ORDER BY position",
    )
    .all(benchId) as CaseRow[];
  return withCells(db, benchId, cases, null);
}

/**
 * One page of the matrix in manifest order (what `selectMatrix` gives for filter `all` and sort
 * `position`), reading only that page's cases and their trials' counts: the results page's first
 * view of a 2,000-case bench reads 50 rows, not 2,000 (issue #16, speed).
 * @param page 1-based, clamped to [1, pageCount]
 */
export function matrixPage(db: Db, benchId: number, page: number, pageSize: number): { rows: MatrixRow[]; total: number; page: number; pageCount: number } {
  const total = (db.$client.prepare("SELECT count(*) AS n FROM bench_cases WHERE bench_id = ? AND included = 1").get(benchId) as { n: number }).n;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const p = Math.min(Math.max(1, page), pageCount);
  const cases = db.$client
    .prepare(
      "SELECT id, position, case_id AS caseId, case_key AS caseKey, case_revision_id AS rev, source FROM bench_cases WHERE bench_id = ? AND included = 1 ORDER BY position LIMIT ? OFFSET ?",
    )
    .all(benchId, pageSize, (p - 1) * pageSize) as CaseRow[];
  return {
    rows: withCells(
      db,
      benchId,
      cases,
      cases.map((c) => c.id),
    ),
    total,
    page: p,
    pageCount,
  };
}

type CaseRow = { id: number; position: number; caseId: number; caseKey: string; rev: number; source: string };

/** Matrix rows of `cases` with their cells; `only` limits the trial counts read to those bench cases (null: every case of the bench). */
function withCells(db: Db, benchId: number, cases: CaseRow[], only: number[] | null): MatrixRow[] {
  const some = only ? "AND t.bench_case_id IN (SELECT value FROM json_each(?))" : "";
  const params = only ? [benchId, JSON.stringify(only)] : [benchId];
  const cells = db.$client
    .prepare(
      `SELECT bench_case_id AS bc, candidate_id AS cand, count(*) AS total,
              sum(status = 'skipped') AS skipped, sum(status IN ('queued', 'running')) AS pending,
              ${TRIAL_VERDICT_SUMS},
              sum(failed_checks) AS failedChecks, min(id) AS firstTrialId
       FROM trials t WHERE t.bench_id = ? ${some} AND ${NOT_RERUN} GROUP BY bench_case_id, candidate_id`,
    )
    .all(...params) as {
    bc: number;
    cand: number;
    total: number;
    errors: number;
    skipped: number;
    pending: number;
    scored: number;
    passed: number;
    failedChecks: number;
    firstTrialId: number;
    budgetSkipped: number;
  }[];
  const byCase = new Map<number, MatrixRow>();
  const rows = cases.map((c) => {
    const row: MatrixRow = {
      benchCaseId: c.id,
      position: c.position,
      caseId: c.caseId,
      caseKey: c.caseKey,
      caseRevisionId: c.rev,
      source: c.source,
      cells: {},
    };
    byCase.set(c.id, row);
    return row;
  });
  // Trials the spend cap kept from starting, apart: the counts above come from an index (trials_matrix) without the error text.
  const budget = db.$client
    .prepare(
      // By status first: else SQLite walks every trial row of the bench for the grouping's order.
      `SELECT bench_case_id AS bc, candidate_id AS cand, count(*) AS n FROM trials t INDEXED BY trials_bench_status
       WHERE t.bench_id = ? ${some} AND t.status = 'skipped' AND t.error LIKE 'budget%' AND ${NOT_RERUN} GROUP BY bench_case_id, candidate_id`,
    )
    .all(...params) as { bc: number; cand: number; n: number }[];
  const budgetSkipped = new Map(budget.map((b) => [`${b.bc}|${b.cand}`, b.n]));
  for (const x of cells) {
    const row = byCase.get(x.bc);
    if (!row) continue;
    x.budgetSkipped = budgetSkipped.get(`${x.bc}|${x.cand}`) ?? 0;
    row.cells[x.cand] = cellOf(x);
  }
  return rows;
}

/** Matrix filters of the results page. */
export type MatrixFilter = "all" | "failures" | "errors" | "regressions" | "changed";
export type MatrixSort = "position" | "case" | "failures";

/**
 * Filters, sorts and pages matrix rows.
 * - `failures`: a candidate failed (or partly failed) the case;
 * - `errors`: a trial of the case errored, or a check of it did (for any candidate);
 * - `regressions`: the case holds a regression of some candidate (keys from the bench summary);
 * - `changed`: the candidates' verdicts differ.
 */
export function selectMatrix(rows: MatrixRow[], o: { filter: MatrixFilter; sort: MatrixSort; page: number; pageSize: number; regressionCases: Set<string> }) {
  let list = rows;
  if (o.filter === "failures") list = list.filter((r) => Object.values(r.cells).some((c) => c.verdict === "failed" || c.verdict === "mixed"));
  else if (o.filter === "errors") list = list.filter((r) => Object.values(r.cells).some((c) => c.errorTrials > 0));
  else if (o.filter === "regressions") list = list.filter((r) => o.regressionCases.has(`${r.caseRevisionId}`));
  else if (o.filter === "changed")
    list = list.filter((r) => new Set(Object.values(r.cells).map((c) => (c.verdict === "mixed" ? "failed" : c.verdict))).size > 1);
  if (o.sort === "case") list = [...list].sort((a, b) => a.caseKey.localeCompare(b.caseKey));
  else if (o.sort === "failures") {
    const f = (r: MatrixRow) => Object.values(r.cells).reduce((a, c) => a + c.failedChecks, 0);
    list = [...list].sort((a, b) => f(b) - f(a) || a.position - b.position);
  }
  const total = list.length;
  const pageCount = Math.max(1, Math.ceil(total / o.pageSize));
  const page = Math.min(Math.max(1, o.page), pageCount);
  return { rows: list.slice((page - 1) * o.pageSize, page * o.pageSize), total, page, pageCount };
}

/** One trial with everything the trial view shows. */
export function getTrial(db: Db, trialId: number) {
  const t = db.$client
    .prepare(
      `SELECT t.*, bc.case_key AS caseKey, bc.case_id AS caseId, bc.case_revision_id AS caseRevisionId, c.label AS candidateLabel, c.kind AS candidateKind,
              r.input AS input, r.expected AS expected, r.details AS details, r.erased_at AS erasedAt,
              r.number AS caseRevisionNumber, r.author_email AS caseAuthorEmail, b.launched_by_email AS launchedByEmail
       FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id JOIN bench_candidates c ON c.id = t.candidate_id
       JOIN case_revisions r ON r.id = bc.case_revision_id JOIN benches b ON b.id = t.bench_id WHERE t.id = ?`,
    )
    .get(trialId) as Record<string, unknown> | undefined;
  return t ?? null;
}

/**
 * The trials of one case for one candidate in a bench (its repeats), in repeat order: the trial
 * view links between them.
 * @returns `{ id, repeat }` per trial (repeats count from 1)
 */
export function repeatTrials(db: Db, benchId: number, candidateId: number, benchCaseId: number): { id: number; repeat: number }[] {
  return db.$client
    .prepare("SELECT id, repeat FROM trials WHERE bench_id = ? AND candidate_id = ? AND bench_case_id = ? ORDER BY repeat")
    .all(benchId, candidateId, benchCaseId) as { id: number; repeat: number }[];
}

/**
 * A bench's trials as exported (one row per trial, in manifest order, then candidate, then
 * repeat): trial id, candidate label, case ID and revision, the case's input and expected result
 * (empty once the case's details were erased), repeat, status, check counts, output, the tool
 * calls (JSON text of `{ toolCallId?, toolName, input }`, null when the record was not kept),
 * finish reason, latency (ms), tokens, cost (USD), error, the checks as stored (JSON text, with
 * each check's verdict, label and reason), then `rerun` (`confirm` or `error` for a trial a rerun
 * inside the bench added, null for a planned one) and `rerunOf` (the errored trial an error rerun
 * reruns, else null) — last, so the earlier columns keep their places.
 */
export function exportTrialRows(db: Db, benchId: number): Record<string, unknown>[] {
  return db.$client
    .prepare(
      `SELECT t.id AS trial, c.label AS candidate, bc.case_key AS caseId, bc.case_revision_id AS caseRevision, r.input AS input, r.expected AS expected,
              t.repeat, t.status, t.passed_checks AS passedChecks, t.failed_checks AS failedChecks, t.unscored_checks AS unscoredChecks, t.error_checks AS errorChecks,
              t.output, CASE WHEN json_valid(t.record) THEN json_extract(t.record, '$.toolCalls') END AS toolCalls,
              t.finish_reason AS finishReason, t.latency_ms AS latencyMs, t.input_tokens AS inputTokens, t.output_tokens AS outputTokens,
              t.cost_usd AS costUsd, t.error, t.checks, t.rerun, t.rerun_of AS rerunOf
       FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id JOIN bench_candidates c ON c.id = t.candidate_id
       JOIN case_revisions r ON r.id = bc.case_revision_id
       WHERE t.bench_id = ? ORDER BY bc.position, c.position, t.repeat`,
    )
    .all(benchId) as Record<string, unknown>[];
}

/** A trial shown beside another for comparison: the baseline's in the same bench, or the last bench's reference candidate's. */
export interface ReferenceTrial {
  role: "baseline" | "last bench";
  benchId: number;
  trialId: number;
  label: string;
  status: string;
  output: string | null;
  error: string | null;
  /** Verdict counts of its checks. */
  verdicts: { passed: number; failed: number; unscored: number; error: number };
  /** Its checks as stored (JSON text), for the per-check comparison. */
  checks: string | null;
}

/**
 * The trials to show beside trial `trialId` of `bench`: the baseline candidate's trial of the same
 * case (same repeat, else its first) when the trial is not the baseline's own, then the last
 * bench's reference candidate's trial of the same case revision (from the bench summary).
 * @returns at most one of each, in that order; empty when the trial is not of this bench
 */
export function referenceTrials(
  db: Db,
  bench: { id: number; summary: { baselineCandidateId: number | null; referenceBenchId: number | null; referenceCandidateId: number | null } | null },
  trialId: number,
): ReferenceTrial[] {
  const t = db.$client
    .prepare(
      "SELECT t.candidate_id AS cand, t.bench_case_id AS bc, t.repeat AS rep, bc.case_revision_id AS rev FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id WHERE t.id = ? AND t.bench_id = ?",
    )
    .get(trialId, bench.id) as { cand: number; bc: number; rep: number; rev: number } | undefined;
  if (!t || !bench.summary) return [];
  const cols = `t.id AS trialId, t.bench_id AS benchId, c.label, t.status, t.output, t.error, t.checks,
                t.passed_checks AS passed, t.failed_checks AS failed, t.unscored_checks AS unscored, t.error_checks AS errors`;
  type Row = {
    trialId: number;
    benchId: number;
    label: string;
    status: string;
    output: string | null;
    error: string | null;
    checks: string | null;
    passed: number | null;
    failed: number | null;
    unscored: number | null;
    errors: number | null;
  };
  const shape = (role: ReferenceTrial["role"], r: Row): ReferenceTrial => ({
    role,
    benchId: r.benchId,
    trialId: r.trialId,
    label: r.label,
    status: r.status,
    output: r.output,
    error: r.error,
    verdicts: { passed: r.passed ?? 0, failed: r.failed ?? 0, unscored: r.unscored ?? 0, error: r.errors ?? 0 },
    checks: r.checks,
  });
  const out: ReferenceTrial[] = [];
  const { baselineCandidateId: base, referenceBenchId: refBench, referenceCandidateId: refCand } = bench.summary;
  if (base !== null && base !== t.cand) {
    const r = db.$client
      .prepare(
        `SELECT ${cols} FROM trials t JOIN bench_candidates c ON c.id = t.candidate_id WHERE t.bench_id = ? AND t.candidate_id = ? AND t.bench_case_id = ? ORDER BY t.repeat = ? DESC, t.repeat LIMIT 1`,
      )
      .get(bench.id, base, t.bc, t.rep) as Row | undefined;
    if (r) out.push(shape("baseline", r));
  }
  if (refBench !== null && refCand !== null) {
    const r = db.$client
      .prepare(
        `SELECT ${cols} FROM trials t JOIN bench_candidates c ON c.id = t.candidate_id JOIN bench_cases bc ON bc.id = t.bench_case_id
         WHERE t.bench_id = ? AND t.candidate_id = ? AND bc.case_revision_id = ? ORDER BY t.repeat = ? DESC, t.repeat LIMIT 1`,
      )
      .get(refBench, refCand, t.rev, t.rep) as Row | undefined;
    if (r) out.push(shape("last bench", r));
  }
  return out;
}
