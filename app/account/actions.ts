"use server";

/** Server actions of the signed-in user's own account (issue 19). */
import { getDb } from "@/db/client";
import { deleteUserSessions } from "@/db/queries/users";
import { ok, type ActionResult } from "@/lib/shell/result";
import { currentActor } from "@/server/auth/actor";
import { guardedAction } from "@/server/auth/guard";

/** Ends every session of the signed-in user, this browser's included. */
export const signOutEverywhereAction = guardedAction("viewer", async (): Promise<ActionResult<{ ended: number }>> => {
  const actor = await currentActor();
  if (!actor || actor.kind === "local") return { ok: false, error: { code: "not_allowed", message: "Single-user mode has no sessions to end." } };
  return ok({ ended: await deleteUserSessions(getDb(), actor.userId) });
});
