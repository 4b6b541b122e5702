/**
 * What the review mode reads of a bench's trials (issue 18): per finished trial, whether a check
 * failed, whether a human verdict contradicts its judge, and whether a judged check is still
 * unreviewed — from SQL, without parsing every trial's checks in JavaScript.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { isPostgres, jsonText, rawRows } from "../dialect";
import { benchCandidates, benchCases, trials } from "../schema";

/** One trial as the review filters read it. */
export interface ReviewQueueRow {
  trialId: number;
  candidateId: number;
  caseRevisionId: number;
  /** A scored check failed (human verdicts applied). */
  failed: boolean;
  disagrees: boolean;
  unreviewed: boolean;
  /** Judged checks (criteria) of the trial, whatever their recorded verdict. */
  judged: number;
}

/** The bench's trials that have checks, in manifest order, then candidate, then repeat. */
export async function reviewQueueRows(db: Db, benchId: number): Promise<ReviewQueueRow[]> {
  // The trial's checks (a JSON array) as a table `k` of `value`s, per store.
  const checks = isPostgres(db) ? sql`jsonb_array_elements(${trials.checks}::jsonb) k(value)` : sql`json_each(${trials.checks}) k`;
  const k = (key: string) => jsonText(db, sql.raw("k.value"), key);
  const rows = await rawRows<{
    trialId: number;
    candidateId: number;
    caseRevisionId: number;
    failed: unknown;
    disagrees: unknown;
    unreviewed: unknown;
    judged: number;
  }>(
    db,
    sql`SELECT ${trials.id} AS "trialId", ${trials.candidateId} AS "candidateId", ${benchCases.caseRevisionId} AS "caseRevisionId", ${trials.failedChecks} > 0 AS "failed",
              EXISTS (SELECT 1 FROM human_verdicts hv, ${checks} WHERE hv.trial_id = ${trials.id} AND ${k("key")} = hv.check_key
                        AND ${k("kind")} = 'judge'
                        AND ((hv.verdict = 'pass' AND ${k("verdict")} = 'failed') OR (hv.verdict = 'fail' AND ${k("verdict")} = 'passed'))) AS "disagrees",
              EXISTS (SELECT 1 FROM ${checks} WHERE ${k("kind")} = 'judge'
                        AND NOT EXISTS (SELECT 1 FROM human_verdicts hv WHERE hv.trial_id = ${trials.id} AND hv.check_key = ${k("key")})) AS "unreviewed",
              (SELECT count(*) FROM ${checks} WHERE ${k("kind")} = 'judge') AS "judged"
       FROM ${trials} JOIN ${benchCases} ON ${benchCases.id} = ${trials.benchCaseId} JOIN ${benchCandidates} ON ${benchCandidates.id} = ${trials.candidateId}
       WHERE ${trials.benchId} = ${benchId} AND ${trials.checks} IS NOT NULL
       ORDER BY ${benchCases.position}, ${benchCandidates.position}, ${trials.repeat}`,
  );
  // Booleans are 1/0 on SQLite, true/false on PostgreSQL.
  const yes = (v: unknown) => v === 1 || v === true;
  return rows.map((r) => ({ ...r, judged: Number(r.judged), failed: yes(r.failed), disagrees: yes(r.disagrees), unreviewed: yes(r.unreviewed) }));
}
