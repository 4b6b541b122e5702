"use server";

/**
 * Server actions of the Models page. Keys are read from the server's environment only, and only
 * as the key policy allows (lib/runtime/key-policy.ts, applied in server/models.ts).
 */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { deleteModelConfig } from "@/db/queries/models";
import { runAction, type ActionResult } from "@/lib/shell/result";
import { nodeFetch } from "@/server/http-fetch";
import { addModelConfig, editModelConfig, testModelConfig, type ConnectionCheck } from "@/server/models";
import { guardedAction } from "@/server/auth/guard";

const idSchema = z.object({ id: z.coerce.number().int().positive() });

/** Adds a model configuration (its key variable and host checked against the key policy). */
export const createModelConfigAction = guardedAction("admin", async (input: unknown): Promise<ActionResult<{ id: number }>> => {
  return runAction(z.unknown(), input, async (raw) => {
    const id = await addModelConfig(getDb(), raw, process.env);
    revalidatePath("/models");
    return { id };
  });
});

/** Updates a model configuration (benches keep the snapshot they pinned). */
export const updateModelConfigAction = guardedAction("admin", async (input: unknown): Promise<ActionResult<null>> => {
  return runAction(idSchema.passthrough(), input, async (raw) => {
    await editModelConfig(getDb(), raw.id, { ...raw, id: undefined }, process.env);
    revalidatePath("/models");
    return null;
  });
});

/** Deletes a model configuration unless an unfinished bench uses it. */
export const deleteModelConfigAction = guardedAction("admin", async (input: unknown): Promise<ActionResult<null>> => {
  return runAction(idSchema, input, async ({ id }) => {
    await deleteModelConfig(getDb(), id);
    revalidatePath("/models");
    return null;
  });
});

/** Test connection: one tiny call; the answer or the provider's error (never the key). */
export const testModelConfigAction = guardedAction("admin", async (input: unknown): Promise<ActionResult<ConnectionCheck>> => {
  // The same HTTP client as bench trials, so Test connection fails (or works) the way a trial would.
  return runAction(idSchema, input, async ({ id }) => testModelConfig(getDb(), id, process.env, nodeFetch));
});
