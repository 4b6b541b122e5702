"use server";

/** Server actions of the Users page (issue 19): admin-only. */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { ROLES, type Role } from "@/lib/auth/roles";
import { runAction, type ActionResult } from "@/lib/shell/result";
import { currentActor } from "@/server/auth/actor";
import { guardedAction } from "@/server/auth/guard";
import { getAuth } from "@/server/auth/instance";
import { addUser, changeRole, removeUser, signOutEverywhere } from "@/server/auth/users";

const roleSchema = z.enum(ROLES as [Role, ...Role[]]);
const userIdSchema = z.object({ userId: z.string().min(1).max(100) });

/** Adds a user with a role; the generated one-time password comes back once. */
export const addUserAction = guardedAction("admin", async (input: unknown): Promise<ActionResult<{ email: string; password: string }>> => {
  return runAction(z.object({ email: z.string(), role: roleSchema }), input, async (v) => {
    const r = await addUser(getAuth(), { email: v.email, role: v.role });
    revalidatePath("/users");
    return { email: r.email, password: r.generatedPassword ?? "" };
  });
});

/** Changes a user's role (never the last admin's). */
export const changeRoleAction = guardedAction("admin", async (input: unknown): Promise<ActionResult<null>> => {
  return runAction(userIdSchema.extend({ role: roleSchema }), input, async (v) => {
    await changeRole(getDb(), v.userId, v.role, Date.now());
    revalidatePath("/users");
    return null;
  });
});

/** Removes a user (not yourself, not the last admin); their sessions and tokens end. */
export const removeUserAction = guardedAction("admin", async (input: unknown): Promise<ActionResult<null>> => {
  return runAction(userIdSchema, input, async (v) => {
    const actor = await currentActor();
    await removeUser(getDb(), v.userId, actor?.userId ?? "");
    revalidatePath("/users");
    return null;
  });
});

/** Ends every session of a user. */
export const signOutUserAction = guardedAction("admin", async (input: unknown): Promise<ActionResult<{ ended: number }>> => {
  return runAction(userIdSchema, input, async (v) => {
    const ended = await signOutEverywhere(getDb(), v.userId);
    revalidatePath("/users");
    return { ended };
  });
});
