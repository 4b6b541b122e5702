"use server";

/** Server actions of the Models page. Keys are read from the server's environment only. */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { createModelConfig, deleteModelConfig, getModelConfig, updateModelConfig } from "@/db/queries/models";
import { parseModelConfig } from "@/lib/runtime/model-config";
import { describeTrialError } from "@/lib/runtime/errors";
import { createModel, testConnection, MissingApiKeyError } from "@/lib/runtime/providers";
import { LibraryError } from "@/lib/library/errors";
import { runAction, type ActionResult } from "@/lib/shell/result";
import { nodeFetch } from "@/server/http-fetch";

const idSchema = z.object({ id: z.coerce.number().int().positive() });

function parse(input: unknown) {
  const r = parseModelConfig(input);
  if (!r.ok) {
    const fieldErrors = Object.fromEntries(r.issues.map((i) => [i.field || "_form", i.message]));
    throw new LibraryError("validation", r.issues[0]?.message ?? "The configuration has errors.", fieldErrors);
  }
  return r.config;
}

/** Adds a model configuration. */
export async function createModelConfigAction(input: unknown): Promise<ActionResult<{ id: number }>> {
  return runAction(z.unknown(), input, async (raw) => {
    const id = await createModelConfig(getDb(), parse(raw));
    revalidatePath("/models");
    return { id };
  });
}

/** Updates a model configuration (benches keep the snapshot they pinned). */
export async function updateModelConfigAction(input: unknown): Promise<ActionResult<null>> {
  return runAction(idSchema.passthrough(), input, async (raw) => {
    await updateModelConfig(getDb(), raw.id, parse({ ...raw, id: undefined }));
    revalidatePath("/models");
    return null;
  });
}

/** Deletes a model configuration unless an unfinished bench uses it. */
export async function deleteModelConfigAction(input: unknown): Promise<ActionResult<null>> {
  return runAction(idSchema, input, async ({ id }) => {
    await deleteModelConfig(getDb(), id);
    revalidatePath("/models");
    return null;
  });
}

/** Test connection: one tiny call; the answer or the provider's error (never the key). */
export async function testModelConfigAction(input: unknown): Promise<ActionResult<{ ok: boolean; text?: string; latencyMs?: number; error?: string }>> {
  return runAction(idSchema, input, async ({ id }) => {
    const config = await getModelConfig(getDb(), id);
    if (!config) throw new LibraryError("not_found", `Model configuration #${id} does not exist.`);
    let model;
    try {
      // The same HTTP client as bench trials, so Test connection fails (or works) the way a trial would.
      model = createModel(config, process.env, nodeFetch);
    } catch (e) {
      if (e instanceof MissingApiKeyError) return { ok: false, error: e.message };
      throw e;
    }
    const r = await testConnection(model, { timeoutMs: 20_000 });
    return r.ok ? { ok: true, text: r.text, latencyMs: r.latencyMs } : { ok: false, error: describeTrialError(r.error) };
  });
}
