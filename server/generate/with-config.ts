/**
 * Generation from the app: the generator model is a saved model configuration (Models page), its
 * key read from the server's environment. Also says, per configuration, whether it can generate and
 * which setting is missing when it cannot (the Generate form shows this; no key value leaves here).
 */
import type { Db } from "@/db/client";
import { getModelConfig, listModelConfigs } from "@/db/queries/models";
import { LibraryError } from "@/lib/library/errors";
import { GenerateError } from "@/lib/generate/structured";
import { apiKeyStatus, KeyPolicyError } from "@/lib/runtime/key-policy";
import { ModelConfigError } from "@/lib/runtime/model-config";
import { createModel, MissingApiKeyError, type FetchImpl } from "@/lib/runtime/providers";
import { generateForPrompt, generatorModelLabel, type GenerateOutcome, type GenerateRequest } from "./generate";

type Env = Record<string, string | undefined>;

/** A model configuration as the Generate form offers it. */
export interface GeneratorModelChoice {
  id: number;
  name: string;
  label: string;
  /** Why it cannot generate (the setting that is missing), or null when it can. */
  missing: string | null;
}

/** Every saved configuration with whether it can generate now. */
export async function generatorModelChoices(db: Db, env: Env): Promise<GeneratorModelChoice[]> {
  return (await listModelConfigs(db)).map((c) => {
    const key = apiKeyStatus(c, env);
    const missing = key.refused
      ? key.refused.message
      : key.required && !key.present
        ? `Set ${key.variable} in the server's environment (the key of model configuration "${c.name}").`
        : null;
    return { id: Number(c.id), name: c.name, label: generatorModelLabel(c), missing };
  });
}

/** A refused generation that is not a library rule: the model's answer or the call (code from GenerateError). */
export class GenerationFailed extends Error {
  readonly expose = true;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Generates with saved configuration `modelConfigId` and stores the batch for review.
 * @throws LibraryError `validation` (unknown configuration, prompt outside the system, bad counts),
 *   `not_allowed` (its key is missing or refused by the key policy — the message names the setting);
 *   GenerationFailed with the GenerateError's code (`not_json`, `wrong_shape`, `empty`,
 *   `call_failed`, `cancelled`) — nothing stored then
 */
export async function generateWithModelConfig(
  db: Db,
  req: GenerateRequest & { modelConfigId: number },
  o: { env: Env; fetch?: FetchImpl; abortSignal?: AbortSignal },
): Promise<GenerateOutcome> {
  const config = await getModelConfig(db, req.modelConfigId);
  if (!config)
    throw new LibraryError("validation", `Model configuration #${req.modelConfigId} does not exist; choose another generator model.`, {
      modelConfigId: "Choose a generator model.",
    });
  let model;
  try {
    model = createModel(config, o.env, o.fetch);
  } catch (e) {
    if (e instanceof MissingApiKeyError || e instanceof KeyPolicyError || e instanceof ModelConfigError)
      throw new LibraryError("not_allowed", e.message, { modelConfigId: e.message });
    throw e;
  }
  try {
    return await generateForPrompt(db, req, { model, modelLabel: generatorModelLabel(config), abortSignal: o.abortSignal });
  } catch (e) {
    if (e instanceof GenerateError) throw new GenerationFailed(e.code, `${e.message} Nothing was stored.`);
    if (e instanceof RangeError) throw new LibraryError("validation", e.message);
    throw e;
  }
}
