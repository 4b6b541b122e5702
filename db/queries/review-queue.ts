/**
 * What the review mode reads of a bench's trials (issue 18): per finished trial, whether a check
 * failed, whether a human verdict contradicts its judge, and whether a judged check is still
 * unreviewed — from SQL, without parsing every trial's checks in JavaScript.
 */
import type { Db } from "../client";

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
export function reviewQueueRows(db: Db, benchId: number): ReviewQueueRow[] {
  const rows = db.$client
    .prepare(
      `SELECT t.id AS trialId, t.candidate_id AS candidateId, bc.case_revision_id AS caseRevisionId, t.failed_checks > 0 AS failed,
              EXISTS (SELECT 1 FROM human_verdicts hv, json_each(t.checks) k WHERE hv.trial_id = t.id AND json_extract(k.value, '$.key') = hv.check_key
                        AND json_extract(k.value, '$.kind') = 'judge'
                        AND ((hv.verdict = 'pass' AND json_extract(k.value, '$.verdict') = 'failed') OR (hv.verdict = 'fail' AND json_extract(k.value, '$.verdict') = 'passed'))) AS disagrees,
              EXISTS (SELECT 1 FROM json_each(t.checks) k WHERE json_extract(k.value, '$.kind') = 'judge'
                        AND NOT EXISTS (SELECT 1 FROM human_verdicts hv WHERE hv.trial_id = t.id AND hv.check_key = json_extract(k.value, '$.key'))) AS unreviewed,
              (SELECT count(*) FROM json_each(t.checks) k WHERE json_extract(k.value, '$.kind') = 'judge') AS judged
       FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id JOIN bench_candidates c ON c.id = t.candidate_id
       WHERE t.bench_id = ? AND t.checks IS NOT NULL
       ORDER BY bc.position, c.position, t.repeat`,
    )
    .all(benchId) as { trialId: number; candidateId: number; caseRevisionId: number; failed: number; disagrees: number; unreviewed: number; judged: number }[];
  return rows.map((r) => ({ ...r, failed: r.failed === 1, disagrees: r.disagrees === 1, unreviewed: r.unreviewed === 1 }));
}
