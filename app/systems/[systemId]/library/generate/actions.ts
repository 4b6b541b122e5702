"use server";

/**
 * Server actions of the proposal review (issue 17): accept, customize, dismiss one proposal, or
 * accept / dismiss all. Each re-validates its input, checks the proposal belongs to the system in
 * the URL, calls the server/generate workflow, and refreshes the library.
 */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { proposalsByIds } from "@/db/queries/proposals";
import { LibraryError } from "@/lib/library/errors";
import { runAction, type ActionResult } from "@/lib/shell/result";
import { acceptProposal, customizeProposal, decideAll, dismissProposal, type Decision } from "@/server/generate/review";
import { currentActor } from "@/server/auth/actor";
import { guardedAction } from "@/server/auth/guard";

const one = z.object({ proposalId: z.coerce.number().int().positive() });

async function inSystem(systemId: string, proposalId: number): Promise<void> {
  const [p] = await proposalsByIds(getDb(), [proposalId]);
  if (!p || p.systemId !== systemId) throw new LibraryError("not_found", `Proposal #${proposalId} does not exist in this system.`);
}

function refresh(systemId: string) {
  revalidatePath(`/systems/${systemId}/library`, "layout");
  revalidatePath("/");
}

/** Accept: an active generated criterion or case. */
export const acceptProposalAction = guardedAction("editor", async (systemId: string, input: unknown): Promise<ActionResult<Decision>> => {
  return runAction(one, input, async (v) => {
    await inSystem(systemId, v.proposalId);
    const d = await acceptProposal(getDb(), v.proposalId, await currentActor());
    refresh(systemId);
    return d;
  });
});

/** Customize: a custom criterion or case from the proposal with the user's edits (validated by the workflow). */
export const customizeProposalAction = guardedAction("editor", async (systemId: string, input: unknown): Promise<ActionResult<Decision>> => {
  return runAction(one.extend({ edits: z.record(z.string(), z.unknown()) }), input, async (v) => {
    await inSystem(systemId, v.proposalId);
    const d = await customizeProposal(getDb(), v.proposalId, v.edits, await currentActor());
    refresh(systemId);
    return d;
  });
});

/** Dismiss. */
export const dismissProposalAction = guardedAction("editor", async (systemId: string, input: unknown): Promise<ActionResult<Decision>> => {
  return runAction(one, input, async (v) => {
    await inSystem(systemId, v.proposalId);
    const d = await dismissProposal(getDb(), v.proposalId);
    refresh(systemId);
    return d;
  });
});

/** Accept all / Dismiss all open proposals of a prompt (of one kind when given). */
export const decideAllProposalsAction = guardedAction(
  "editor",
  async (systemId: string, input: unknown): Promise<ActionResult<{ decided: number; refused: string[] }>> => {
    const schema = z.object({
      promptId: z.coerce.number().int().positive(),
      action: z.enum(["accept", "dismiss"]),
      kind: z.enum(["criterion", "scenario"]).optional(),
    });
    return runAction(schema, input, async (v) => {
      const r = await decideAll(getDb(), v.promptId, v.action, v.kind, systemId, await currentActor());
      refresh(systemId);
      return {
        decided: r.decided.length,
        refused: r.refused.map((x) => `${x.proposal.kind === "criterion" ? x.proposal.content.rule : x.proposal.content.input}: ${x.message}`),
      };
    });
  },
);
