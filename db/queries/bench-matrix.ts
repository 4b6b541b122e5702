/**
 * The results matrix of a bench: one row per included case, one cell per candidate, from counts
 * kept in trial columns (no JSON parsing), so a 20,000-trial bench loads quickly. Filters and
 * sorting run over all rows; the page then takes its slice.
 */
import { and, asc, count, desc, eq, getTableColumns, isNotNull, like, ne, sql, type Column } from "drizzle-orm";
import type { Db } from "../client";
import { benchCandidates, benchCases, benches, caseRevisions, trials } from "../schema";
import { countWhere, isPostgres, rawRows } from "../dialect";
import { first } from "../rows";
import { NOT_RERUN, NOT_SKIPPED_ERROR_RERUN } from "./rerun-sql";
import { trialsColumn, trialsIndexedBy } from "./trials-from";
import { cellVerdict, type CaseCell } from "@/lib/bench/aggregate";
import type { RepeatTrial } from "@/lib/bench/rerun/repeat-label";

/**
 * Counts of trials by verdict, as `trialVerdict` reads a trial from its check counts: `scored`
 * (a verdict: fully passed or failed), `passed` (fully passed), `errors` (the trial or one of its
 * checks errored; `hasErrors`). Over the rows of `trials` in the query's group; spread into a select.
 */
export const TRIAL_VERDICT_SUMS = {
  scored: countWhere(sql`${trials.failedChecks} > 0 OR (${trials.status} = 'done' AND ${trials.errorChecks} = 0 AND ${trials.passedChecks} > 0)`),
  passed: countWhere(sql`${trials.status} = 'done' AND ${trials.failedChecks} = 0 AND ${trials.errorChecks} = 0 AND ${trials.passedChecks} > 0`),
  errors: countWhere(sql`${trials.status} = 'error' OR ${trials.errorChecks} > 0`),
};

/** `sum(column)` of an integer column as a number (0 for no rows) on both stores. */
export function sumOf(column: Column) {
  return sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);
}

/** One matrix row: a case and its cell per candidate id. */
export interface MatrixRow {
  benchCaseId: number;
  position: number;
  caseId: number;
  caseKey: string;
  caseRevisionId: number;
  source: string;
  /**
   * `budgetSkipped`: trials of the cell the spend cap kept from starting (issue #16 §4), absent when none.
   * `rerunning`: while a rerun inside the bench (Confirm, Rerun errored trials) still has trials of the
   * cell to run, how many are `left` of the rerun's `trials` in the cell; absent otherwise.
   * `errorsRerun`: errored trials of the cell an error rerun replaced (out of its counts), absent when none.
   */
  cells: Record<number, MatrixCell>;
}

/** A matrix cell: see {@link MatrixRow.cells}. */
export type MatrixCell = CaseCell & { firstTrialId: number | null; budgetSkipped?: number; rerunning?: RerunningCell; errorsRerun?: number };

/** The rerun trials of a cell while its rerun runs: `left` (queued or running) of the round's `trials` in the cell. */
export interface RerunningCell {
  left: number;
  trials: number;
}

function cellOf(
  r: {
    total: number;
    errors: number;
    skipped: number;
    pending: number;
    scored: number;
    passed: number;
    failedChecks: number;
    firstTrialId: number;
  },
  budgetSkipped: number,
  rerunning: RerunningCell | undefined,
): MatrixCell & { firstTrialId: number } {
  // A rerun reopens a finished bench, so its trials are the cell's only pending ones: the cell keeps the
  // verdict of its finished trials and says the rest is being rerun, not "pending" (issue #16).
  const finished = r.total - r.pending;
  const verdict = rerunning && finished > 0 ? cellVerdict({ ...r, total: finished, pending: 0 }) : cellVerdict(r);
  return {
    ...(budgetSkipped ? { budgetSkipped } : {}),
    ...(rerunning ? { rerunning } : {}),
    verdict,
    passedTrials: r.passed,
    scoredTrials: r.scored,
    errorTrials: r.errors,
    trials: r.total,
    failedChecks: r.failedChecks,
    firstTrialId: r.firstTrialId,
  };
}

/** Every row of the matrix, in manifest order. */
export async function matrixRows(db: Db, benchId: number): Promise<MatrixRow[]> {
  return withCells(db, benchId, await includedCases(db, benchId), null);
}

/**
 * One page of the matrix in manifest order (what `selectMatrix` gives for filter `all` and sort
 * `position`), reading only that page's cases and their trials' counts: the results page's first
 * view of a 2,000-case bench reads 50 rows, not 2,000 (issue #16, speed).
 * @param page 1-based, clamped to [1, pageCount]
 */
export async function matrixPage(
  db: Db,
  benchId: number,
  page: number,
  pageSize: number,
): Promise<{ rows: MatrixRow[]; total: number; page: number; pageCount: number }> {
  const total = (await first(db.select({ n: count() }).from(benchCases).where(includedIn(benchId))))?.n ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const p = Math.min(Math.max(1, page), pageCount);
  const cases = await includedCases(db, benchId, { limit: pageSize, offset: (p - 1) * pageSize });
  return {
    rows: await withCells(
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

/** The included cases of bench `benchId`. */
function includedIn(benchId: number) {
  return and(eq(benchCases.benchId, benchId), eq(benchCases.included, true));
}

/** The included cases of bench `benchId` in manifest order (optionally one slice of them). */
async function includedCases(db: Db, benchId: number, slice?: { limit: number; offset: number }): Promise<CaseRow[]> {
  const q = db
    .select({
      id: benchCases.id,
      position: benchCases.position,
      caseId: benchCases.caseId,
      caseKey: benchCases.caseKey,
      rev: benchCases.caseRevisionId,
      source: benchCases.source,
    })
    .from(benchCases)
    .where(includedIn(benchId))
    .orderBy(benchCases.position);
  return slice ? q.limit(slice.limit).offset(slice.offset) : q;
}

/** Matrix rows of `cases` with their cells; `only` limits the trial counts read to those bench cases (null: every case of the bench). */
async function withCells(db: Db, benchId: number, cases: CaseRow[], only: number[] | null): Promise<MatrixRow[]> {
  // The bench cases as one JSON parameter (no list of placeholders).
  const json = JSON.stringify(only ?? []);
  const some = !only
    ? undefined
    : isPostgres(db)
      ? sql`${trials.benchCaseId} IN (SELECT (jsonb_array_elements_text(${json}::jsonb))::int)`
      : sql`${trials.benchCaseId} IN (SELECT value FROM json_each(${json}))`;
  // Run as raw SQL from the same fragments: drizzle's per-field row mapping cost a third more CPU
  // on the 4,000 cells of a 20,000-trial bench (results page speed, issue #16). Every value is a
  // number on both stores (PostgreSQL's int8 counts and sums too, db/pg/store.ts).
  const cells = await rawRows<{
    bc: number;
    cand: number;
    total: number;
    skipped: number;
    pending: number;
    scored: number;
    passed: number;
    errors: number;
    failedChecks: number;
    firstTrialId: number;
  }>(
    db,
    sql`SELECT ${trials.benchCaseId} AS "bc", ${trials.candidateId} AS "cand", count(*) AS "total",
           ${countWhere(sql`${trials.status} = 'skipped'`)} AS "skipped", ${countWhere(sql`${trials.status} IN ('queued', 'running')`)} AS "pending",
           ${TRIAL_VERDICT_SUMS.scored} AS "scored", ${TRIAL_VERDICT_SUMS.passed} AS "passed", ${TRIAL_VERDICT_SUMS.errors} AS "errors",
           coalesce(sum(${trials.failedChecks}), 0) AS "failedChecks", min(${trials.id}) AS "firstTrialId"
        FROM ${trials} WHERE ${trials.benchId} = ${benchId} ${some ? sql`AND ${some}` : sql``} AND ${NOT_RERUN} AND ${NOT_SKIPPED_ERROR_RERUN} GROUP BY ${trials.benchCaseId}, ${trials.candidateId}`,
  );
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
  const budget = await db
    .select({ bc: trialsColumn(trials.benchCaseId), cand: trialsColumn(trials.candidateId), n: count() })
    // By status first: else SQLite walks every trial row of the bench for the grouping's order.
    .from(trialsIndexedBy(db, "trials_bench_status"))
    .where(and(eq(trials.benchId, benchId), some, eq(trials.status, "skipped"), like(trials.error, "budget%"), NOT_RERUN))
    .groupBy(trials.benchCaseId, trials.candidateId);
  const budgetSkipped = new Map(budget.map((b) => [`${b.bc}|${b.cand}`, b.n]));
  const rerunning = await rerunningCells(db, benchId);
  // Errored trials an error rerun replaced (issue #16 §3): out of the counts above, hinted in their cell.
  // A skipped rerun (cancelled, or kept from starting by the cap) replaced nothing (rerun-sql.ts).
  const reruns = await db
    .select({ bc: trialsColumn(trials.benchCaseId), cand: trialsColumn(trials.candidateId), n: count() })
    // Through the partial index of reruns (few in any store): else SQLite walks every trial of the bench.
    .from(trialsIndexedBy(db, "trials_rerun_of"))
    .where(and(eq(trials.benchId, benchId), some, isNotNull(trials.rerunOf), ne(trials.status, "skipped")))
    .groupBy(trials.benchCaseId, trials.candidateId);
  const errorsRerun = new Map(reruns.map((r) => [`${r.bc}|${r.cand}`, r.n]));
  for (const x of cells) {
    const row = byCase.get(x.bc);
    if (!row) continue;
    const key = `${x.bc}|${x.cand}`;
    const n = errorsRerun.get(key);
    row.cells[x.cand] = { ...cellOf(x, budgetSkipped.get(key) ?? 0, rerunning.get(key)), ...(n ? { errorsRerun: n } : {}) };
  }
  return rows;
}

/**
 * The cells a rerun inside bench `benchId` is still running, by `benchCaseId|candidateId`: empty
 * unless the bench was reopened by a rerun and has not ended. The rerun's trials are the bench's
 * newest (trial_count − rerun_base, added in one transaction), so only those rows are read.
 */
async function rerunningCells(db: Db, benchId: number): Promise<Map<string, RerunningCell>> {
  const out = new Map<string, RerunningCell>();
  const b = await first(
    db.select({ status: benches.status, rerunBase: benches.rerunBase, trialCount: benches.trialCount }).from(benches).where(eq(benches.id, benchId)),
  );
  if (!b || (b.status !== "queued" && b.status !== "running") || b.rerunBase === 0 || b.trialCount <= b.rerunBase) return out;
  const round = await db
    .select({ bc: trials.benchCaseId, cand: trials.candidateId, status: trials.status })
    .from(trials)
    .where(eq(trials.benchId, benchId))
    .orderBy(desc(trials.id))
    .limit(b.trialCount - b.rerunBase);
  for (const t of round) {
    const key = `${t.bc}|${t.cand}`;
    const c = out.get(key) ?? { left: 0, trials: 0 };
    c.trials++;
    if (t.status === "queued" || t.status === "running") c.left++;
    out.set(key, c);
  }
  // A cell whose rerun trials have all ended is an ordinary cell again.
  for (const [key, c] of out) if (c.left === 0) out.delete(key);
  return out;
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

/** The columns of `trials` keyed by their SQL names (`bench_case_id` …), as the trial view reads a trial. */
const TRIAL_COLUMNS_BY_NAME = Object.fromEntries(Object.values(getTableColumns(trials)).map((c) => [c.name, c])) as Record<string, Column>;

/**
 * One trial with everything the trial view shows: every column of the trial under its SQL name
 * (`candidate_id`, `checks` as JSON text …), then its case, candidate, case revision and launcher.
 * @returns null for an unknown trial
 */
export async function getTrial(db: Db, trialId: number): Promise<Record<string, unknown> | null> {
  const t = await first(
    db
      .select({
        ...TRIAL_COLUMNS_BY_NAME,
        caseKey: benchCases.caseKey,
        caseId: benchCases.caseId,
        caseRevisionId: benchCases.caseRevisionId,
        candidateLabel: benchCandidates.label,
        candidateKind: benchCandidates.kind,
        input: caseRevisions.input,
        expected: caseRevisions.expected,
        details: caseRevisions.details,
        erasedAt: caseRevisions.erasedAt,
        caseRevisionNumber: caseRevisions.number,
        caseAuthorEmail: caseRevisions.authorEmail,
        launchedByEmail: benches.launchedByEmail,
      })
      .from(trials)
      .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
      .innerJoin(benchCandidates, eq(benchCandidates.id, trials.candidateId))
      .innerJoin(caseRevisions, eq(caseRevisions.id, benchCases.caseRevisionId))
      .innerJoin(benches, eq(benches.id, trials.benchId))
      .where(eq(trials.id, trialId)),
  );
  return (t as Record<string, unknown> | undefined) ?? null;
}

/**
 * The trials of one case for one candidate in a bench (its repeats), in repeat order: the trial
 * view links between them.
 * @returns `{ id, repeat }` per trial (repeats count from 1)
 */
export async function repeatTrials(db: Db, benchId: number, candidateId: number, benchCaseId: number): Promise<RepeatTrial[]> {
  return db
    .select({ id: trials.id, repeat: trials.repeat, rerun: trials.rerun, rerunOf: trials.rerunOf })
    .from(trials)
    .where(and(eq(trials.benchId, benchId), eq(trials.candidateId, candidateId), eq(trials.benchCaseId, benchCaseId)))
    .orderBy(trials.repeat);
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
export async function exportTrialRows(db: Db, benchId: number): Promise<Record<string, unknown>[]> {
  // The record is JSON text on SQLite (checked: an unreadable one exports no tool calls), jsonb on PostgreSQL.
  const toolCalls = isPostgres(db)
    ? sql<string | null>`(${trials.record}::jsonb -> 'toolCalls')`
    : sql<string | null>`CASE WHEN json_valid(${trials.record}) THEN json_extract(${trials.record}, '$.toolCalls') END`;
  return db
    .select({
      trial: trials.id,
      candidate: benchCandidates.label,
      caseId: benchCases.caseKey,
      caseRevision: benchCases.caseRevisionId,
      input: caseRevisions.input,
      expected: caseRevisions.expected,
      repeat: trials.repeat,
      status: trials.status,
      passedChecks: trials.passedChecks,
      failedChecks: trials.failedChecks,
      unscoredChecks: trials.unscoredChecks,
      errorChecks: trials.errorChecks,
      output: trials.output,
      toolCalls,
      finishReason: trials.finishReason,
      latencyMs: trials.latencyMs,
      inputTokens: trials.inputTokens,
      outputTokens: trials.outputTokens,
      costUsd: trials.costUsd,
      error: trials.error,
      checks: trials.checks,
      rerun: trials.rerun,
      rerunOf: trials.rerunOf,
    })
    .from(trials)
    .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
    .innerJoin(benchCandidates, eq(benchCandidates.id, trials.candidateId))
    .innerJoin(caseRevisions, eq(caseRevisions.id, benchCases.caseRevisionId))
    .where(eq(trials.benchId, benchId))
    .orderBy(benchCases.position, benchCandidates.position, trials.repeat);
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
export async function referenceTrials(
  db: Db,
  bench: { id: number; summary: { baselineCandidateId: number | null; referenceBenchId: number | null; referenceCandidateId: number | null } | null },
  trialId: number,
): Promise<ReferenceTrial[]> {
  const t = await first(
    db
      .select({ cand: trials.candidateId, bc: trials.benchCaseId, rep: trials.repeat, rev: benchCases.caseRevisionId })
      .from(trials)
      .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
      .where(and(eq(trials.id, trialId), eq(trials.benchId, bench.id))),
  );
  if (!t || !bench.summary) return [];
  const cols = {
    trialId: trials.id,
    benchId: trials.benchId,
    label: benchCandidates.label,
    status: trials.status,
    output: trials.output,
    error: trials.error,
    checks: trials.checks,
    passed: trials.passedChecks,
    failed: trials.failedChecks,
    unscored: trials.unscoredChecks,
    errors: trials.errorChecks,
  };
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
  // The same repeat when it has one, else its first.
  const sameRepeatFirst = [sql`CASE WHEN ${trials.repeat} = ${t.rep} THEN 0 ELSE 1 END`, asc(trials.repeat)];
  const out: ReferenceTrial[] = [];
  const { baselineCandidateId: base, referenceBenchId: refBench, referenceCandidateId: refCand } = bench.summary;
  if (base !== null && base !== t.cand) {
    const r = await first(
      db
        .select(cols)
        .from(trials)
        .innerJoin(benchCandidates, eq(benchCandidates.id, trials.candidateId))
        .where(and(eq(trials.benchId, bench.id), eq(trials.candidateId, base), eq(trials.benchCaseId, t.bc)))
        .orderBy(...sameRepeatFirst)
        .limit(1),
    );
    if (r) out.push(shape("baseline", r));
  }
  if (refBench !== null && refCand !== null) {
    const r = await first(
      db
        .select(cols)
        .from(trials)
        .innerJoin(benchCandidates, eq(benchCandidates.id, trials.candidateId))
        .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
        .where(and(eq(trials.benchId, refBench), eq(trials.candidateId, refCand), eq(benchCases.caseRevisionId, t.rev)))
        .orderBy(...sameRepeatFirst)
        .limit(1),
    );
    if (r) out.push(shape("last bench", r));
  }
  return out;
}
