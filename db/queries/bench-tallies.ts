/**
 * The counts the paired statistics read (issue #16), straight from the trial count columns so a
 * large bench is not parsed again: per candidate and case revision, trials that passed (a scored
 * check and no failed one) of trials with a scored check; and, for a few case revisions only (the
 * ones with a broken check), per-check tallies parsed from the stored checks.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { benchCases, trials } from "../schema";
import type { CaseTally } from "@/lib/bench/stats/paired";
import type { CheckRecord } from "@/lib/bench/types";
import { benchTallies, type SideTallies } from "@/lib/bench/stats/tallies";
import { IN_RESULTS } from "./rerun-sql";
import { countWhere, isPostgres, rawRows } from "../dialect";
import { applyHumanVerdicts } from "@/lib/review/overlay";
import { humanOverlaySql, parseHumanOverlay } from "./human-verdicts";

/**
 * Case tallies of every candidate of bench `benchId` (optionally one candidate).
 * @returns per candidate id, per case revision id, `{ passed, scored }` (cases whose trials were
 *   all unscored, errored or unrun have `scored: 0`)
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
        GROUP BY ${trials.candidateId}, ${benchCases.caseRevisionId}`,
  );
  const out = new Map<number, Map<number, CaseTally>>();
  for (const x of rows) {
    let m = out.get(x.c);
    if (!m) out.set(x.c, (m = new Map()));
    m.set(x.r, { passed: x.passed, scored: x.scored });
  }
  return out;
}

/**
 * Per-check tallies (case revision id → check key → `{ passed, scored }`) of one candidate, over the
 * trials of the given case revisions only.
 * @param o.confirmOnly count only the trials a confirm round added (`trials.rerun = 'confirm'`)
 */
export async function benchCheckTallies(
  db: Db,
  benchId: number,
  candidateId: number,
  caseRevisionIds: ReadonlySet<number>,
  o: { confirmOnly?: boolean } = {},
): Promise<SideTallies["checks"]> {
  if (caseRevisionIds.size === 0) return new Map();
  // The revisions as one JSON parameter (there can be thousands: no list of placeholders).
  const ids = JSON.stringify([...caseRevisionIds]);
  const inRevisions = isPostgres(db)
    ? sql`${benchCases.caseRevisionId} IN (SELECT (jsonb_array_elements_text(${ids}::jsonb))::int)`
    : sql`${benchCases.caseRevisionId} IN (SELECT value FROM json_each(${ids}))`;
  const rows = await rawRows<{ candidateId: number; caseRevisionId: number; checks: string; human: string | null }>(
    db,
    sql`SELECT ${trials.candidateId} AS "candidateId", ${benchCases.caseRevisionId} AS "caseRevisionId", ${trials.checks} AS "checks", ${humanOverlaySql(db)} AS "human"
        FROM ${trials} JOIN ${benchCases} ON ${benchCases.id} = ${trials.benchCaseId}
        WHERE ${trials.benchId} = ${benchId} AND ${trials.candidateId} = ${candidateId} AND ${trials.checks} IS NOT NULL AND ${inRevisions}
          ${o.confirmOnly ? sql`AND ${trials.rerun} = 'confirm'` : sql``}`,
  );
  const parsed = function* () {
    for (const r of rows)
      yield {
        candidateId: r.candidateId,
        caseRevisionId: r.caseRevisionId,
        checks: applyHumanVerdicts(JSON.parse(r.checks) as CheckRecord[], parseHumanOverlay(r.human)),
      };
  };
  return benchTallies(parsed()).get(candidateId)?.checks ?? new Map();
}
