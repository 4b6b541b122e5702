/**
 * The counts the paired statistics read (issue #16), straight from the trial count columns so a
 * large bench is not parsed again: per candidate and case revision, trials that passed (a scored
 * check and no failed one) of trials with a scored check; and, for a few case revisions only (the
 * ones with a broken check), per-check tallies parsed from the stored checks.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../client";
import { benchCases, trials } from "../schema";
import type { CaseTally } from "@/lib/bench/stats/paired";
import type { CheckTally } from "@/lib/bench/stats/regression-status";
import type { CheckRecord } from "@/lib/bench/types";
import type { SideTallies } from "@/lib/bench/stats/tallies";
import { IN_RESULTS } from "./rerun-sql";
import { countWhere, isPostgres, rawRows } from "../dialect";
import { applyHumanVerdicts } from "@/lib/review/overlay";
import { parseHumanOverlay } from "./human-verdicts";
import { trialsIndexedBy } from "./trials-from";

/**
 * Case tallies of every candidate of bench `benchId` (optionally one candidate).
 * @returns per candidate id, per case revision id (ascending on both stores: the statistics read them in
 *   that order), `{ passed, scored }` (cases whose trials were all unscored, errored or unrun have `scored: 0`)
 */
export async function benchCaseTallies(db: Db, benchId: number, candidateId?: number): Promise<Map<number, Map<number, CaseTally>>> {
  // Raw SQL from drizzle fragments: no per-field row mapping over the ~4,000 groups of a 20,000-trial
  // bench (the statistics' time budget, issue #16). Every value is a number on both stores.
  const rows = await rawRows<{ c: number; r: number; scored: number; passed: number }>(
    db,
    sql`SELECT ${trials.candidateId} AS "c", ${benchCases.caseRevisionId} AS "r",
           ${countWhere(sql`${trials.passedChecks} + ${trials.failedChecks} > 0`)} AS "scored",
           ${countWhere(sql`${trials.passedChecks} + ${trials.failedChecks} > 0 AND ${trials.failedChecks} = 0`)} AS "passed"
        FROM ${trials} JOIN ${benchCases} ON ${benchCases.id} = ${trials.benchCaseId}
        WHERE ${trials.benchId} = ${benchId} ${candidateId ? sql`AND ${trials.candidateId} = ${candidateId}` : sql``} AND ${IN_RESULTS}
        GROUP BY ${trials.candidateId}, ${benchCases.caseRevisionId}
        ORDER BY ${trials.candidateId}, ${benchCases.caseRevisionId}`,
  );
  const out = new Map<number, Map<number, CaseTally>>();
  for (const x of rows) {
    let m = out.get(x.c);
    if (!m) out.set(x.c, (m = new Map()));
    m.set(x.r, { passed: x.passed, scored: x.scored });
  }
  return out;
}

/** A case of one candidate: its tally, its `done` trials and their mean cost (USD) and latency (ms) (null when none had one). */
export interface CaseFigures extends CaseTally {
  done: number;
  costUsd: number | null;
  latencyMs: number | null;
}

/** `avg(expr)` as a float on both stores (PostgreSQL's `avg` is numeric, which its driver returns as text). */
function avgOf(db: Db, expr: SQL): SQL {
  return isPostgres(db) ? sql`avg(${expr})::float8` : sql`avg(${expr})`;
}

/** `column IN (the ids)`, the ids as one JSON parameter (there can be thousands: no list of placeholders). */
function inIds(db: Db, column: SQLWrapper, ids: Iterable<number>): SQL {
  const json = JSON.stringify([...ids]);
  return isPostgres(db)
    ? sql`${column} IN (SELECT (jsonb_array_elements_text(${json}::jsonb))::int)`
    : sql`${column} IN (SELECT value FROM json_each(${json}))`;
}

/**
 * The grouped read behind {@link benchCaseFigures}: per bench case and candidate, from the covering
 * index `trials_matrix` (every column it reads is in the index: no trial row, with its output and
 * checks, is read; issue #16's statistics budget). Grouped by bench case (the index's order, so no
 * sort) rather than joined to the case revisions: those come from the manifest in a second, small
 * read. With `byRevision`, joined and grouped by case revision instead (a manifest that lists one
 * case revision twice). Exported for the test that checks the plan.
 */
export function caseFiguresSql(db: Db, benchId: number, o: { neverRerun?: boolean; byRevision?: boolean } = {}): SQL {
  const done = sql`${trials.status} = 'done'`;
  // As few aggregates as the figures need: evaluating them over every trial is most of the query's time.
  return sql`SELECT ${trials.candidateId} AS "c", ${o.byRevision ? benchCases.caseRevisionId : trials.benchCaseId} AS "k",
           ${countWhere(sql`${trials.passedChecks} + ${trials.failedChecks} > 0`)} AS "scored",
           ${countWhere(sql`${trials.passedChecks} + ${trials.failedChecks} > 0 AND ${trials.failedChecks} = 0`)} AS "passed",
           ${countWhere(done)} AS "done",
           ${avgOf(db, sql`CASE WHEN ${done} THEN ${trials.costUsd} END`)} AS "cost",
           ${avgOf(db, sql`CASE WHEN ${done} THEN ${trials.latencyMs} END`)} AS "latency"
        FROM ${trialsIndexedBy(db, "trials_matrix")} ${o.byRevision ? sql`JOIN ${benchCases} ON ${benchCases.id} = ${trials.benchCaseId}` : sql``}
        WHERE ${trials.benchId} = ${benchId} ${o.neverRerun ? sql`` : sql`AND ${IN_RESULTS}`}
        GROUP BY ${o.byRevision ? benchCases.caseRevisionId : trials.benchCaseId}, ${trials.candidateId}`;
}

/**
 * Case tallies (as {@link benchCaseTallies}) and the mean cost and latency of the `done` trials (as
 * `benchCaseCosts`) of every candidate of bench `benchId`, from one grouped read over the trials
 * that count in the results (the finalize reads both, and each query walks every trial of the
 * bench) and the manifest's case revisions.
 * @param o.neverRerun no rerun ever added trials to the bench (`rerun_base` 0): every trial counts in the
 *   results, and the per-trial check for a rerun replacing it is skipped
 * @returns per candidate id (ascending), per case revision id (ascending, as the separate queries order them), its figures
 */
export async function benchCaseFigures(db: Db, benchId: number, o: { neverRerun?: boolean } = {}): Promise<Map<number, Map<number, CaseFigures>>> {
  // Raw SQL from drizzle fragments (no per-field row mapping over the ~4,000 groups of a 20,000-trial
  // bench); counts are numbers on both stores, the means floats.
  type Row = { c: number; k: number; scored: number; passed: number; done: number; cost: number | null; latency: number | null };
  const manifest = await rawRows<{ k: number; r: number }>(
    db,
    sql`SELECT ${benchCases.id} AS "k", ${benchCases.caseRevisionId} AS "r" FROM ${benchCases} WHERE ${benchCases.benchId} = ${benchId}`,
  );
  const revisionOf = new Map(manifest.map((m) => [m.k, m.r]));
  // A launch lists each case revision once; should a manifest list one twice, its bench cases count as one case.
  const byRevision = new Set(revisionOf.values()).size < revisionOf.size;
  const rows = await rawRows<Row>(db, caseFiguresSql(db, benchId, { ...o, byRevision }));
  const byCandidate = new Map<number, [number, CaseFigures][]>();
  for (const x of rows) {
    let list = byCandidate.get(x.c);
    if (!list) byCandidate.set(x.c, (list = []));
    list.push([byRevision ? x.k : revisionOf.get(x.k)!, { passed: x.passed, scored: x.scored, done: x.done, costUsd: x.cost, latencyMs: x.latency }]);
  }
  const out = new Map<number, Map<number, CaseFigures>>();
  for (const c of [...byCandidate.keys()].sort((a, b) => a - b)) out.set(c, new Map(byCandidate.get(c)!.sort((a, b) => a[0] - b[0])));
  return out;
}

/** One candidate's per-check tallies over all its trials, and over the trials a confirm round added. */
export interface CheckTalliesWithConfirm {
  all: SideTallies["checks"];
  confirm: SideTallies["checks"];
}

/**
 * Per-check tallies (case revision id → check key → `{ passed, scored }`) of several candidates of
 * bench `benchId`, in one pass over their trials: over all of a candidate's trials with checks, and
 * over the ones a confirm round added (`trials.rerun = 'confirm'`). A regression's status reads the
 * reference's, the candidate's and its confirm round's tallies of the broken checks.
 * Human verdicts are read once for the bench (usually none), not per trial.
 * @param wanted candidate id → the case revision ids to tally for it
 */
export async function benchCheckTalliesOf(
  db: Db,
  benchId: number,
  wanted: ReadonlyMap<number, ReadonlySet<number>>,
): Promise<Map<number, CheckTalliesWithConfirm>> {
  const out = new Map<number, CheckTalliesWithConfirm>();
  const revs = new Set<number>();
  for (const [c, set] of wanted) {
    if (set.size === 0) continue;
    out.set(c, { all: new Map(), confirm: new Map() });
    for (const r of set) revs.add(r);
  }
  if (revs.size === 0) return out;
  // The same overlay text as humanOverlaySql, grouped once over the bench's verdicts (not a subquery per trial).
  const overlay = isPostgres(db)
    ? sql`jsonb_agg(jsonb_build_object('checkKey', hv.check_key, 'verdict', hv.verdict, 'at', hv.created_at, 'id', hv.id))`
    : sql`json_group_array(json_object('checkKey', hv.check_key, 'verdict', hv.verdict, 'at', hv.created_at, 'id', hv.id))`;
  const overlays = await rawRows<{ id: number; human: string }>(
    db,
    sql`SELECT hv.trial_id AS "id", ${overlay} AS "human"
        FROM ${trials} JOIN human_verdicts hv ON hv.trial_id = trials.id WHERE ${trials.benchId} = ${benchId} GROUP BY hv.trial_id`,
  );
  const human = new Map(overlays.map((h) => [h.id, h.human]));
  const rows = await rawRows<{ id: number; c: number; r: number; checks: string; confirm: number | boolean | null }>(
    db,
    sql`SELECT ${trials.id} AS "id", ${trials.candidateId} AS "c", ${benchCases.caseRevisionId} AS "r", ${trials.checks} AS "checks",
           ${trials.rerun} = 'confirm' AS "confirm"
        FROM ${trials} JOIN ${benchCases} ON ${benchCases.id} = ${trials.benchCaseId}
        WHERE ${trials.benchId} = ${benchId} AND ${trials.checks} IS NOT NULL AND ${inIds(db, trials.candidateId, out.keys())}
          AND ${inIds(db, benchCases.caseRevisionId, revs)}`,
  );
  const add = (byRev: SideTallies["checks"], rev: number, key: string, passed: boolean) => {
    let byKey = byRev.get(rev);
    if (!byKey) byRev.set(rev, (byKey = new Map()));
    let ct = byKey.get(key);
    if (!ct) byKey.set(key, (ct = { passed: 0, scored: 0 } satisfies CheckTally));
    ct.scored++;
    if (passed) ct.passed++;
  };
  for (const { id, c: candidateId, r: rev, checks, confirm } of rows) {
    if (!wanted.get(candidateId)!.has(rev)) continue;
    const side = out.get(candidateId)!;
    const h = human.get(id);
    const parsed = JSON.parse(checks) as CheckRecord[];
    for (const c of h ? applyHumanVerdicts(parsed, parseHumanOverlay(h)) : parsed) {
      if (c.verdict !== "passed" && c.verdict !== "failed") continue;
      add(side.all, rev, c.key, c.verdict === "passed");
      if (confirm) add(side.confirm, rev, c.key, c.verdict === "passed");
    }
  }
  return out;
}
