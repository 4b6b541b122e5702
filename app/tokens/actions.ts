"use server";

/** Server actions of the Tokens page (issue 19): each user manages their own API tokens. */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { LibraryError } from "@/lib/library/errors";
import { runAction, type ActionResult } from "@/lib/shell/result";
import { currentActor, type Actor } from "@/server/auth/actor";
import { createApiToken, revokeOwnApiToken } from "@/server/auth/api-tokens";
import { guardedAction } from "@/server/auth/guard";

/** The signed-in user (tokens belong to an account: none in single-user mode). */
async function accountUser(): Promise<Actor> {
  const actor = await currentActor();
  if (!actor || actor.kind !== "session") throw new LibraryError("not_allowed", "API tokens belong to an account: sign in (single-user mode has none).");
  return actor;
}

/** Creates a token; its secret comes back once. A viewer's token can only read, whatever its scope. */
export const createTokenAction = guardedAction("viewer", async (input: unknown): Promise<ActionResult<{ token: string; expiresAt: number | null }>> => {
  return runAction(z.unknown(), input, async (raw) => {
    const actor = await accountUser();
    const r = await createApiToken(getDb(), actor.userId, raw, Date.now());
    revalidatePath("/tokens");
    return { token: r.token, expiresAt: r.expiresAt };
  });
});

/** Revokes one of your tokens. */
export const revokeTokenAction = guardedAction("viewer", async (input: unknown): Promise<ActionResult<null>> => {
  return runAction(z.object({ id: z.coerce.number().int().positive() }), input, async ({ id }) => {
    const actor = await accountUser();
    await revokeOwnApiToken(getDb(), actor.userId, id, Date.now());
    revalidatePath("/tokens");
    return null;
  });
});
