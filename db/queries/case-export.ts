/** A prompt's library (or a whole system's) with full content, for CSV/JSONL export. */
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { caseRevisions, cases, prompts } from "../schema";
import { decodeContent } from "@/lib/library/content-codec";
import type { ExportCase } from "@/lib/datasets/library-export";

/**
 * Live cases with their current content, by prompt name then creation order.
 * @param systemId the system
 * @param promptId only this prompt's library; every prompt when undefined
 */
export async function listCasesForExport(db: Db, systemId: string, promptId?: number): Promise<ExportCase[]> {
  const conds = [eq(cases.systemId, systemId), isNull(cases.removedAt)];
  if (promptId !== undefined) conds.push(eq(cases.promptId, promptId));
  const rows = await db
    .select({
      caseKey: cases.caseKey,
      promptName: prompts.name,
      source: cases.source,
      status: cases.status,
      input: caseRevisions.input,
      expected: caseRevisions.expected,
      details: caseRevisions.details,
    })
    .from(cases)
    .innerJoin(caseRevisions, eq(caseRevisions.id, cases.currentRevisionId))
    .innerJoin(prompts, eq(prompts.id, cases.promptId))
    .where(and(...conds))
    .orderBy(asc(prompts.name), asc(cases.createdAt), asc(cases.id));
  return rows.map((r) => ({
    caseKey: r.caseKey,
    promptName: r.promptName,
    source: r.source,
    status: r.status,
    content: decodeContent(r.input, r.expected, r.details),
  }));
}
