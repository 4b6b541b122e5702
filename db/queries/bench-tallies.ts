/**
 * The counts the paired statistics read (issue #16), straight from the trial count columns so a
 * large bench is not parsed again: per candidate and case revision, trials that passed (a scored
 * check and no failed one) of trials with a scored check; and, for a few case revisions only (the
 * ones with a broken check), per-check tallies parsed from the stored checks.
 */
import type { Db } from "../client";
import type { CaseTally } from "@/lib/bench/stats/paired";
import type { CheckRecord } from "@/lib/bench/types";
import { benchTallies, type SideTallies } from "@/lib/bench/stats/tallies";
import { IN_RESULTS } from "./rerun-sql";
import { applyHumanVerdicts } from "@/lib/review/overlay";
import { HUMAN_OVERLAY_SQL, parseHumanOverlay } from "./human-verdicts";

/**
 * Case tallies of every candidate of bench `benchId` (optionally one candidate).
 * @returns per candidate id, per case revision id, `{ passed, scored }` (cases whose trials were
 *   all unscored, errored or unrun have `scored: 0`)
 */
export function benchCaseTallies(db: Db, benchId: number, candidateId?: number): Map<number, Map<number, CaseTally>> {
  const rows = db.$client
    .prepare(
      `SELECT t.candidate_id AS c, bc.case_revision_id AS r,
              coalesce(sum(t.passed_checks + t.failed_checks > 0), 0) AS scored,
              coalesce(sum(t.passed_checks + t.failed_checks > 0 AND t.failed_checks = 0), 0) AS passed
       FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id
       WHERE t.bench_id = ? ${candidateId ? "AND t.candidate_id = ?" : ""} AND ${IN_RESULTS}
       GROUP BY t.candidate_id, bc.case_revision_id`,
    )
    .all(...(candidateId ? [benchId, candidateId] : [benchId])) as { c: number; r: number; scored: number; passed: number }[];
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
export function benchCheckTallies(
  db: Db,
  benchId: number,
  candidateId: number,
  caseRevisionIds: ReadonlySet<number>,
  o: { confirmOnly?: boolean } = {},
): SideTallies["checks"] {
  if (caseRevisionIds.size === 0) return new Map();
  const stmt = db.$client.prepare(
    `SELECT t.candidate_id AS candidateId, bc.case_revision_id AS caseRevisionId, t.checks AS checks, ${HUMAN_OVERLAY_SQL} AS human
     FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id
     WHERE t.bench_id = ? AND t.candidate_id = ? AND t.checks IS NOT NULL AND bc.case_revision_id IN (SELECT value FROM json_each(?))
     ${o.confirmOnly ? "AND t.rerun = 'confirm'" : ""}`,
  );
  const rows = function* () {
    for (const r of stmt.iterate(benchId, candidateId, JSON.stringify([...caseRevisionIds])) as Iterable<{
      candidateId: number;
      caseRevisionId: number;
      checks: string;
      human: string | null;
    }>)
      yield {
        candidateId: r.candidateId,
        caseRevisionId: r.caseRevisionId,
        checks: applyHumanVerdicts(JSON.parse(r.checks) as CheckRecord[], parseHumanOverlay(r.human)),
      };
  };
  return benchTallies(rows()).get(candidateId)?.checks ?? new Map();
}
