/**
 * Retention (issue #5): cases that fail in a bench become regression candidates for the next bench
 * of the same prompt — source `retained`, labelled as an automatic regression candidate, not human
 * validation. A retained copy is refreshed when the same case fails again, unless the user
 * corrected it (their correction is never overwritten). Which candidate's failures count: the
 * recommended one, else the baseline, else the best-ranked — the answer the team would ship.
 */
import { randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../client";
import { isPostgres } from "../dialect";
import { first } from "../rows";
import { benchCases, caseRevisions, cases, trials } from "../schema";
import type { Recommendation } from "@/lib/bench/recommend";
import { decodeContent, encodeDetails, sameContent } from "@/lib/library/content-codec";

/** The case is a retained copy of case `caseId` (its origin's `fromCaseId`; SQLite's SQL as it was, for its speed). */
function fromCase(db: Db, caseId: number) {
  return isPostgres(db) ? sql`(${cases.origin}::jsonb ->> 'fromCaseId') = ${String(caseId)}` : sql`json_extract(${cases.origin}, '$.fromCaseId') = ${caseId}`;
}

/**
 * The live retained copy of case `caseId`, if any (at most one row). Served by the expression index
 * `retention_origin_index` on both stores: without it each lookup scanned every case, once per failing case.
 */
export function retainedCopyQuery(db: Db, caseId: number) {
  return db
    .select()
    .from(cases)
    .where(and(eq(cases.source, "retained"), isNull(cases.removedAt), fromCase(db, caseId)))
    .limit(1);
}

/**
 * Creates or refreshes retained copies of the cases the reference candidate failed, inside the
 * caller's open transaction (it starts none), so a bench's results and its retained cases are
 * stored together or not at all.
 * @returns how many retained cases were created or refreshed
 * @throws whatever a write throws; the caller's transaction then rolls back
 */
export async function retainFailingCasesIn(db: Db, benchId: number, recommendation: Recommendation, baselineCandidateId: number | null): Promise<number> {
  const candidateId = recommendation.recommendedCandidateId ?? baselineCandidateId ?? recommendation.candidates[0]?.candidateId;
  if (!candidateId) return 0;
  const failing = await db
    .selectDistinct({ caseId: benchCases.caseId, revId: benchCases.caseRevisionId })
    .from(trials)
    .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
    .where(and(eq(trials.benchId, benchId), eq(trials.candidateId, candidateId), sql`${trials.failedChecks} > 0`));
  let changed = 0;
  // Same connection as the caller's transaction: these statements run inside it.
  const tx = db;
  {
    const now = Date.now();
    for (const f of failing) {
      const original = await first(tx.select().from(cases).where(eq(cases.id, f.caseId)));
      if (!original || original.source === "retained" || original.removedAt != null) continue;
      const rev = await first(tx.select().from(caseRevisions).where(eq(caseRevisions.id, f.revId)));
      if (!rev || rev.erasedAt != null) continue;
      const content = decodeContent(rev.input, rev.expected, rev.details);
      const copy = await first(retainedCopyQuery(tx, f.caseId));
      const origin = JSON.stringify({ kind: "bench", benchId, fromCaseId: f.caseId, trialCaseRevisionId: f.revId });
      if (!copy) {
        let key = `${original.caseKey}~retained`;
        const taken = await first(
          tx
            .select({ id: cases.id })
            .from(cases)
            .where(and(eq(cases.promptId, original.promptId), eq(cases.caseKey, key), isNull(cases.removedAt)))
            .limit(1),
        );
        if (taken) key = `${key}-${randomBytes(3).toString("hex")}`;
        const { id } = (await first(
          tx
            .insert(cases)
            .values({
              caseKey: key,
              systemId: original.systemId,
              promptId: original.promptId,
              source: "retained",
              status: "active",
              origin,
              revisionNumber: 1,
              createdAt: now,
              updatedAt: now,
            })
            .returning({ id: cases.id }),
        ))!;
        const r = (await first(
          tx
            .insert(caseRevisions)
            .values({ caseId: id, number: 1, input: content.input, expected: content.expected, details: encodeDetails(content), createdAt: now })
            .returning({ id: caseRevisions.id }),
        ))!;
        await tx.update(cases).set({ currentRevisionId: r.id }).where(eq(cases.id, id));
        changed++;
      } else if (!copy.userCorrected) {
        const cur = (await first(tx.select().from(caseRevisions).where(eq(caseRevisions.id, copy.currentRevisionId!))))!;
        if (sameContent(decodeContent(cur.input, cur.expected, cur.details), content)) continue;
        const number = copy.revisionNumber + 1;
        const r = (await first(
          tx
            .insert(caseRevisions)
            .values({ caseId: copy.id, number, input: content.input, expected: content.expected, details: encodeDetails(content), createdAt: now })
            .returning({ id: caseRevisions.id }),
        ))!;
        await tx.update(cases).set({ currentRevisionId: r.id, revisionNumber: number, updatedAt: now, origin }).where(eq(cases.id, copy.id));
        changed++;
      }
    }
  }
  return changed;
}
