/**
 * Correcting the expected result from a reviewed trial (issue 18): a new revision of the trial's
 * case through the library's case revision code, for future benches; the benches that already ran
 * keep the revision they pinned.
 */
import type { Author } from "@/lib/audit/author";
import type { Db } from "@/db/client";
import { getTrial } from "@/db/queries/bench-matrix";
import { getCase, saveCaseRevision } from "@/db/queries/cases";
import { LibraryError } from "@/lib/library/errors";

/**
 * Saves `expected` as the expected result of the case of trial `trialId` (bench `benchId`).
 * @param baseRevision the case revision number the reviewer saw (a case edited meanwhile is a conflict)
 * @returns the case ID and its new revision number
 * @throws LibraryError `not_found` (unknown trial, or of another bench), `removed`, `conflict`,
 *   `unchanged`, `not_allowed` (a generated case: customize it first) — from the case revision code
 */
export async function correctExpectedFromTrial(
  db: Db,
  benchId: number,
  trialId: number,
  expected: string,
  baseRevision: number,
  author?: Author | null,
): Promise<{ caseKey: string; revisionNumber: number }> {
  const trial = await getTrial(db, trialId);
  if (!trial || Number(trial.bench_id) !== benchId) throw new LibraryError("not_found", `Trial #${trialId} is not a trial of bench #${benchId}.`);
  const c = await getCase(db, Number(trial.caseId));
  if (!c) throw new LibraryError("not_found", `The case of trial #${trialId} no longer exists.`);
  if (c.removedAt != null) throw new LibraryError("removed", `Case ${c.caseKey} was removed; its expected result cannot be corrected.`);
  const { input, notes, history, variables, context } = c.content;
  const r = await saveCaseRevision(db, c.id, baseRevision, { input, expected, notes, history, variables, context }, author);
  return { caseKey: c.caseKey, revisionNumber: r.revisionNumber };
}
