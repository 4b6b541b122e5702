/**
 * The reviewed set as a calibration dataset (issue 18): one row per human verdict on a judged
 * criterion over the benches of a prompt, with the judge's recorded verdict and reason, the judge
 * model, the case's input and expected result as the bench pinned them, and the trial's output.
 */
import type { Db } from "@/db/client";
import { reviewedJudgedChecks } from "@/db/queries/human-verdicts";
import type { ExportRow } from "@/lib/import/export";

/** The export's columns, in order. */
export const REVIEWED_COLUMNS = [
  "bench",
  "trial",
  "caseId",
  "caseRevision",
  "candidate",
  "criterionId",
  "criterion",
  "judgeModel",
  "judgeVerdict",
  "judgeReason",
  "humanVerdict",
  "note",
  "reviewer",
  "reviewedAt",
  "input",
  "expected",
  "output",
] as const;

/** The rows of the reviewed set of prompt `promptId`, oldest verdict first; `caseRevision` is the revision number (1, 2, …); `reviewedAt` as ISO 8601 (UTC). */
export async function reviewedSetRows(db: Db, promptId: number): Promise<ExportRow[]> {
  return (await reviewedJudgedChecks(db, promptId)).map((r) => ({
    bench: r.benchId,
    trial: r.trialId,
    caseId: r.caseKey,
    caseRevision: r.caseRevisionNumber,
    candidate: r.candidate,
    criterionId: r.criterionId,
    criterion: r.label,
    judgeModel: r.judgeModel,
    judgeVerdict: r.judgeVerdict,
    judgeReason: r.judgeReason,
    humanVerdict: r.human,
    note: r.note,
    reviewer: r.reviewer,
    reviewedAt: new Date(r.reviewedAt).toISOString(),
    input: r.input,
    expected: r.expected,
    output: r.output,
  }));
}
