"use server";

/**
 * Server actions of the Prompt pages. Each re-validates its input with zod (lib/prompts/edit.ts),
 * calls a server/prompts.ts workflow and returns an ActionResult.
 */
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { promptEditSchema } from "@/lib/prompts/edit";
import type { MissingVariable } from "@/lib/prompts/variables";
import { runAction, type ActionResult } from "@/lib/shell/result";
import { reviewPromptEdit, savePromptEdit } from "@/server/prompts";
import { currentActor } from "@/server/auth/actor";
import { guardedAction } from "@/server/auth/guard";

/** Review an edit before saving: the variables some active cases lack; a stale base or no change is refused. Nothing is stored. */
export const reviewPromptEditAction = guardedAction(
  "editor",
  async (systemId: string, input: unknown): Promise<ActionResult<{ missing: MissingVariable[] }>> => {
    return runAction(promptEditSchema, input, (v) => reviewPromptEdit(getDb(), String(systemId), v));
  },
);

/** Save: a new immutable prompt revision with its message; refused with a conflict when the base is stale. */
export const savePromptEditAction = guardedAction(
  "editor",
  async (systemId: string, input: unknown): Promise<ActionResult<{ number: number; promptName: string }>> => {
    return runAction(promptEditSchema, input, async (v) => {
      const r = await savePromptEdit(getDb(), String(systemId), v, await currentActor());
      revalidatePath(`/systems/${systemId}/prompts`, "layout");
      revalidatePath(`/systems/${systemId}/benches/new`);
      return { number: r.number, promptName: r.promptName };
    });
  },
);
