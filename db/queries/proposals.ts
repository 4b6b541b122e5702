/**
 * Generation runs and their proposals (issue 17): stored as generated, reviewed one by one.
 * A run and all its proposals are written in one transaction; a decision changes only the
 * proposal's status and the criterion or case it made.
 */
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { transaction } from "../transaction";
import type { Tx } from "../write-transaction";
import { generationRuns, proposals } from "../schema";
import { LibraryError } from "@/lib/library/errors";
import type { CriterionProposal, DroppedItem, GenerationResult, ScenarioProposal } from "@/lib/generate/types";

/** Review state of a proposal. */
export type ProposalStatus = "proposed" | "accepted" | "customized" | "dismissed";

/** A stored proposal with its run's provenance. */
export type ProposalRow = {
  id: number;
  runId: string;
  systemId: string;
  promptId: number;
  position: number;
  status: ProposalStatus;
  criterionId: number | null;
  caseId: number | null;
  createdAt: number;
  decidedAt: number | null;
  /** Generator model of the run, `provider:modelId`. */
  model: string;
  promptRevisionId: number;
  generatorRevision: string;
} & ({ kind: "criterion"; content: CriterionProposal } | { kind: "scenario"; content: ScenarioProposal });

/** A stored run. */
export interface GenerationRunRow {
  id: string;
  systemId: string;
  promptId: number;
  promptRevisionId: number;
  model: string;
  generatorRevision: string;
  requestedCriteria: number;
  requestedScenarios: number;
  dropped: DroppedItem[];
  diversity: GenerationResult["diversity"];
  usage: GenerationResult["usage"];
  concepts: { concepts: GenerationResult["concepts"]; personas: GenerationResult["personas"] };
  durationMs: number;
  createdAt: number;
}

const columns = {
  id: proposals.id,
  runId: proposals.runId,
  systemId: proposals.systemId,
  promptId: proposals.promptId,
  kind: proposals.kind,
  position: proposals.position,
  status: proposals.status,
  content: proposals.content,
  criterionId: proposals.criterionId,
  caseId: proposals.caseId,
  createdAt: proposals.createdAt,
  decidedAt: proposals.decidedAt,
  model: generationRuns.model,
  promptRevisionId: generationRuns.promptRevisionId,
  generatorRevision: generationRuns.generatorRevision,
};

const decode = (r: Omit<ProposalRow, "content" | "kind"> & { kind: "criterion" | "scenario"; content: string }): ProposalRow =>
  ({ ...r, content: JSON.parse(r.content) }) as ProposalRow;

/**
 * Stores a generated batch: the run and one proposal per kept criterion and scenario (status
 * `proposed`), all or nothing.
 * @returns the new proposals' ids, criteria first, in batch order
 */
export async function insertGenerationRun(
  db: Db,
  run: { systemId: string; promptId: number; result: GenerationResult; requestedCriteria: number; requestedScenarios: number; durationMs: number; now: number },
): Promise<number[]> {
  const r = run.result;
  return transaction(db, async (tx) => {
    await tx.insert(generationRuns).values({
      id: r.runId,
      systemId: run.systemId,
      promptId: run.promptId,
      promptRevisionId: r.promptRevisionId,
      model: r.model,
      generatorRevision: r.generatorRevision,
      requestedCriteria: run.requestedCriteria,
      requestedScenarios: run.requestedScenarios,
      dropped: JSON.stringify(r.dropped),
      diversity: JSON.stringify(r.diversity),
      usage: JSON.stringify(r.usage),
      concepts: JSON.stringify({ concepts: r.concepts, personas: r.personas }),
      durationMs: run.durationMs,
      createdAt: run.now,
    });
    const rows = [
      ...r.criteria.map((c, i) => ({ kind: "criterion" as const, position: i, content: JSON.stringify(c) })),
      ...r.scenarios.map((s, i) => ({ kind: "scenario" as const, position: i, content: JSON.stringify(s) })),
    ];
    if (rows.length === 0) return [];
    // One statement; neither store promises RETURNING in VALUES order, so sort by batch position.
    const made = await tx
      .insert(proposals)
      .values(rows.map((p) => ({ ...p, runId: r.runId, systemId: run.systemId, promptId: run.promptId, createdAt: run.now })))
      .returning({ id: proposals.id, kind: proposals.kind, position: proposals.position });
    const rank = (m: (typeof made)[number]) => (m.kind === "criterion" ? 0 : r.criteria.length) + m.position;
    return made.sort((x, y) => rank(x) - rank(y)).map((m) => m.id);
  });
}

/**
 * Proposals of a prompt, newest run first, batch order within a run.
 * @param o.status only this status (default: every status); `o.kind` only this kind
 */
export async function listProposals(db: Db, promptId: number, o: { status?: ProposalStatus; kind?: "criterion" | "scenario" } = {}): Promise<ProposalRow[]> {
  const where = [eq(proposals.promptId, promptId)];
  if (o.status) where.push(eq(proposals.status, o.status));
  if (o.kind) where.push(eq(proposals.kind, o.kind));
  const rows = await db
    .select(columns)
    .from(proposals)
    .innerJoin(generationRuns, eq(generationRuns.id, proposals.runId))
    .where(and(...where))
    .orderBy(desc(generationRuns.createdAt), asc(proposals.kind), asc(proposals.position));
  return rows.map(decode);
}

/** Proposals by id (any prompt), in id order. */
export async function proposalsByIds(db: Db, ids: number[]): Promise<ProposalRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(columns)
    .from(proposals)
    .innerJoin(generationRuns, eq(generationRuns.id, proposals.runId))
    .where(inArray(proposals.id, ids))
    .orderBy(asc(proposals.id));
  return rows.map(decode);
}

/** One run, or null. */
export async function getGenerationRun(db: Db, runId: string): Promise<GenerationRunRow | null> {
  const r = await first(db.select().from(generationRuns).where(eq(generationRuns.id, runId)));
  if (!r) return null;
  return { ...r, dropped: JSON.parse(r.dropped), diversity: JSON.parse(r.diversity), usage: JSON.parse(r.usage), concepts: JSON.parse(r.concepts) };
}

/** The most recent runs of a prompt, newest first (at most `limit`, default 5). */
export async function listGenerationRuns(db: Db, promptId: number, limit = 5): Promise<GenerationRunRow[]> {
  const ids = await db
    .select({ id: generationRuns.id })
    .from(generationRuns)
    .where(eq(generationRuns.promptId, promptId))
    .orderBy(desc(generationRuns.createdAt))
    .limit(limit);
  const out: GenerationRunRow[] = [];
  for (const { id } of ids) out.push((await getGenerationRun(db, id))!);
  return out;
}

/**
 * Reads a proposal inside a write transaction, refusing one already decided.
 * @throws LibraryError `not_found`; `conflict` when it was accepted, customized or dismissed already
 */
export async function openProposalTx(tx: Tx, id: number): Promise<ProposalRow> {
  const r = await first(tx.select(columns).from(proposals).innerJoin(generationRuns, eq(generationRuns.id, proposals.runId)).where(eq(proposals.id, id)));
  if (!r) throw new LibraryError("not_found", `Proposal #${id} does not exist.`);
  if (r.status !== "proposed") throw new LibraryError("conflict", `Proposal #${id} was already ${r.status}; nothing changed.`);
  return decode(r);
}

/** Records a decision inside a write transaction (with the criterion or case it made, if any). */
export async function decideProposalTx(
  tx: Tx,
  id: number,
  status: Exclude<ProposalStatus, "proposed">,
  made: { criterionId?: number; caseId?: number } = {},
): Promise<void> {
  await tx
    .update(proposals)
    .set({ status, decidedAt: Date.now(), criterionId: made.criterionId ?? null, caseId: made.caseId ?? null })
    .where(and(eq(proposals.id, id), eq(proposals.status, "proposed")));
}
