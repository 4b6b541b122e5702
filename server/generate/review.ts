/**
 * Workflow: review generated proposals (issue 17). Accept makes an active generated criterion or
 * case (origin `generated`, read-only with Customize, as the library shows generated items);
 * Customize makes a custom one from the proposal with the user's edits; Dismiss records the
 * decision. Each decision and what it makes are one transaction: a refused accept changes nothing.
 */
import type { Db } from "@/db/client";
import { addCaseTx } from "@/db/queries/cases";
import { addCriterionTx } from "@/db/queries/criteria";
import { decideProposalTx, listProposals, openProposalTx, type ProposalRow } from "@/db/queries/proposals";
import { transaction } from "@/db/transaction";
import { caseContentOf, criterionFieldsOf } from "@/lib/generate/accept";
import { LibraryError } from "@/lib/library/errors";
import { criterionFieldsSchema, fieldErrorsOf } from "@/lib/library/forms";
import { z } from "zod";
import type { Author } from "@/lib/audit/author";

/** What a decision made. */
export type Decision = { proposalId: number; status: "accepted" | "customized" | "dismissed"; criterionId?: number; caseId?: number; caseKey?: string };

async function make(db: Db, id: number, origin: "generated" | "custom", edits: unknown, author?: Author | null): Promise<Decision> {
  return transaction(db, async (tx) => {
    const p = await openProposalTx(tx, id);
    const status = origin === "generated" ? "accepted" : "customized";
    if (p.kind === "criterion") {
      const fields = origin === "custom" && edits !== undefined ? parseCriterionEdits(edits) : criterionFieldsOf(p.content);
      const criterionId = await addCriterionTx(tx, { systemId: p.systemId, promptId: p.promptId, origin, fields, author });
      await decideProposalTx(tx, id, status, { criterionId });
      return { proposalId: id, status, criterionId };
    }
    const e = origin === "custom" && edits !== undefined ? parseScenarioEdits(edits) : {};
    const made = await addCaseTx(tx, {
      systemId: p.systemId,
      promptId: p.promptId,
      source: origin,
      origin: { kind: "generated", runId: p.runId, proposalId: p.id, model: p.model },
      content: caseContentOf(p.content, { runId: p.runId, model: p.model }, e),
      author,
    });
    await decideProposalTx(tx, id, status, { caseId: made.id });
    return { proposalId: id, status, caseId: made.id, caseKey: made.caseKey };
  });
}

function parseCriterionEdits(edits: unknown) {
  const r = criterionFieldsSchema.safeParse(edits);
  if (!r.success) {
    const { message, fieldErrors } = fieldErrorsOf(r.error);
    throw new LibraryError("validation", message, fieldErrors);
  }
  return r.data;
}

const scenarioEditsSchema = z.object({
  input: z.string().trim().min(1, "Input is required.").max(20_000, "Input must be at most 20,000 characters."),
  expected: z.string().trim().min(1, "Expected result is required.").max(20_000, "Expected result must be at most 20,000 characters."),
});

function parseScenarioEdits(edits: unknown) {
  const r = scenarioEditsSchema.safeParse(edits);
  if (!r.success) {
    const { message, fieldErrors } = fieldErrorsOf(r.error);
    throw new LibraryError("validation", message, fieldErrors);
  }
  return r.data;
}

/**
 * Accept: the proposal becomes an active generated criterion or case.
 * @throws LibraryError `not_found`, `conflict` (already decided), `validation` (the rule is already
 *   in the rubric; nothing changes)
 */
export async function acceptProposal(db: Db, id: number, author?: Author | null): Promise<Decision> {
  return make(db, id, "generated", undefined, author);
}

/**
 * Customize: the proposal becomes a custom criterion or case, with `edits` (criterion fields, or
 * `{ input, expected }` of a scenario) instead of the proposal's text when given.
 * @throws LibraryError as {@link acceptProposal}; `validation` with field errors for bad edits
 */
export async function customizeProposal(db: Db, id: number, edits?: unknown, author?: Author | null): Promise<Decision> {
  return make(db, id, "custom", edits, author);
}

/**
 * Dismiss: the proposal is kept as dismissed; nothing else changes.
 * @throws LibraryError `not_found`, `conflict`
 */
export async function dismissProposal(db: Db, id: number): Promise<Decision> {
  return transaction(db, async (tx) => {
    await openProposalTx(tx, id);
    await decideProposalTx(tx, id, "dismissed");
    return { proposalId: id, status: "dismissed" as const };
  });
}

/**
 * Accept all / Dismiss all open proposals of a prompt (of one kind, when given), each in its own
 * transaction: one refused accept (a rule already in the rubric) does not stop the others.
 * @param systemId when given, only proposals of this system are decided (the URL's system)
 * @returns the decisions made and the proposals refused with the reason
 */
export async function decideAll(
  db: Db,
  promptId: number,
  action: "accept" | "dismiss",
  kind?: "criterion" | "scenario",
  systemId?: string,
  author?: Author | null,
): Promise<{ decided: Decision[]; refused: { proposal: ProposalRow; message: string }[] }> {
  const open = (await listProposals(db, promptId, { status: "proposed", ...(kind ? { kind } : {}) })).filter(
    (p) => systemId === undefined || p.systemId === systemId,
  );
  const decided: Decision[] = [];
  const refused: { proposal: ProposalRow; message: string }[] = [];
  for (const p of open) {
    try {
      decided.push(action === "accept" ? await acceptProposal(db, p.id, author) : await dismissProposal(db, p.id));
    } catch (e) {
      if (!(e instanceof LibraryError)) throw e;
      refused.push({ proposal: p, message: e.fieldErrors?.rule ?? e.message });
    }
  }
  return { decided, refused };
}
