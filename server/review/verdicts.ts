/**
 * Recording a human verdict (issue 18): checks the trial and the check exist, stores the verdict
 * beside the judge's record, rewrites the trial's verdict counts as scored with human verdicts, and
 * recomputes the bench's figures and recommendation when it has ended.
 */
import { recordActivityTx } from "@/db/queries/activity";
import type { Author } from "@/lib/audit/author";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { getBench } from "@/db/queries/benches";
import { computeBenchResults } from "@/db/queries/bench-results";
import { setTrialCounts, trialForVerdict, trialHumanVerdicts, updateBenchResults, upsertHumanVerdict } from "@/db/queries/human-verdicts";
import type { CheckRecord } from "@/lib/bench/types";
import { countVerdicts } from "@/lib/bench/score";
import { LibraryError } from "@/lib/library/errors";
import { applyHumanVerdicts, type HumanVerdictValue } from "@/lib/review/overlay";

/** Who reviews until accounts exist (#19 brings `currentActor()`). */
export const LOCAL_REVIEWER = "local";

/** A verdict as a reviewer gives it. `note` at most 2,000 characters (validated by the shell). */
export interface HumanVerdictInput {
  trialId: number;
  checkKey: string;
  verdict: HumanVerdictValue;
  note: string;
}

/**
 * Stores `v` for `reviewer` at `now` (ms) and rescores.
 * @param benchId the bench the page shows: a trial of another bench is refused
 * @returns the trial's verdict counts as now scored
 * @throws LibraryError `not_found` for an unknown trial or one of another bench; `validation` when
 *   the trial has no recorded checks yet or no criterion (judged check) with key `checkKey`
 */
export async function recordHumanVerdict(
  db: Db,
  benchId: number,
  v: HumanVerdictInput,
  o: { reviewer?: string; now?: number; author?: Author | null } = {},
): Promise<{ passed: number; failed: number; unscored: number; error: number }> {
  // The reviewer is the signed-in actor's e-mail (issue 19); "local" in single-user mode.
  const reviewer = o.reviewer ?? o.author?.email ?? LOCAL_REVIEWER;
  const now = o.now ?? Date.now();
  const counts = await transaction(db, async (tx) => {
    const t = await trialForVerdict(tx, v.trialId);
    if (!t || t.benchId !== benchId)
      throw new LibraryError("not_found", `Trial #${v.trialId} is not a trial of bench #${benchId}.`, { trialId: "Unknown trial." });
    if (!t.checks)
      throw new LibraryError("validation", `Trial #${v.trialId} has no checks to review yet (status ${t.status}).`, { trialId: "Not scored yet." });
    const checks = JSON.parse(t.checks) as CheckRecord[];
    // Reviewers judge criteria (the judge's checks); static evaluators are not second-guessed here.
    if (!checks.some((c) => c.key === v.checkKey && c.kind === "judge"))
      throw new LibraryError("validation", `Trial #${v.trialId} has no criterion check “${v.checkKey}”.`, { checkKey: "Unknown criterion of this trial." });
    await upsertHumanVerdict(tx, { trialId: v.trialId, checkKey: v.checkKey, verdict: v.verdict, note: v.note, reviewer, createdAt: now });
    await recordActivityTx(tx, o.author, { action: "review.verdict", subjectType: "trial", subjectId: v.trialId, detail: `${v.checkKey}: ${v.verdict}` }, now);
    const n = countVerdicts(applyHumanVerdicts(checks, await trialHumanVerdicts(tx, v.trialId)));
    await setTrialCounts(tx, v.trialId, n);
    return n;
  });
  await rescoreBench(db, benchId);
  return counts;
}

/**
 * Recomputes an ended bench's summary and recommendation from its trials (human verdicts applied),
 * keeping what only the end of the run decides (the retained cases). A bench still running is left
 * to its own end. The regressions of later benches measured against this one are not recomputed.
 */
export async function rescoreBench(db: Db, benchId: number): Promise<void> {
  const bench = await getBench(db, benchId);
  if (!bench?.summary || bench.status === "queued" || bench.status === "running") return;
  const { summary, recommendation } = await computeBenchResults(db, benchId);
  await updateBenchResults(db, benchId, { ...summary, retained: bench.summary.retained }, recommendation);
}

/**
 * The bench `benchId` of system `systemId`, for the review's actions and routes.
 * @throws LibraryError `not_found` when there is none
 */
export async function requireBench(db: Db, systemId: string, benchId: number) {
  const bench = await getBench(db, benchId);
  if (!bench || bench.systemId !== systemId) throw new LibraryError("not_found", `Bench #${benchId} does not exist in system ${systemId}.`);
  return bench;
}
