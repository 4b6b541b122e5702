/**
 * Workflows of the Models page: save a model configuration (its shape and the key policy of
 * lib/runtime/key-policy.ts), test its connection, and list it with what may be said about its key.
 * The environment and the fetch are parameters so tests pass their own; the actions pass the
 * server's `process.env` and the trials' HTTP client.
 */
import type { Db } from "@/db/client";
import { createModelConfig, getModelConfig, listModelConfigs, updateModelConfig, type StoredModelConfig } from "@/db/queries/models";
import { LibraryError } from "@/lib/library/errors";
import { describeTrialError } from "@/lib/runtime/errors";
import { apiKeyStatus, decideKeyUse, KeyPolicyError, type KeyStatus } from "@/lib/runtime/key-policy";
import { ModelConfigError, parseModelConfig, type ModelConfig } from "@/lib/runtime/model-config";
import { createModel, MissingApiKeyError, testConnection, type FetchImpl } from "@/lib/runtime/providers";

type Env = Record<string, string | undefined>;

/**
 * Validates a configuration for saving: its fields, then whether its key may be read and sent to
 * its base URL under the server's key policy.
 * @param input the form's values (untrusted)
 * @param env the server's environment (only the policy variables are read)
 * @returns the cleaned configuration
 * @throws LibraryError `validation` with one message per field (`apiKeyEnv`, `baseUrl`, …; `_form`
 *   for the whole configuration); the message is the first problem
 */
export function validateModelConfigForSave(input: unknown, env: Env): ModelConfig {
  const parsed = parseModelConfig(input);
  const issues = parsed.ok ? [] : parsed.issues.map((i) => ({ field: i.field || "_form", message: i.message }));
  const fieldsWithIssues = new Set(issues.map((i) => i.field));
  // The policy needs a readable provider, key variable and base URL; otherwise the shape errors say what to fix.
  const readable = typeof input === "object" && input !== null && !["_form", "provider", "apiKeyEnv", "baseUrl"].some((f) => fieldsWithIssues.has(f));
  if (parsed.ok || readable) {
    const candidate = parsed.ok ? parsed.config : (input as ModelConfig);
    const use = decideKeyUse(
      { provider: candidate.provider, apiKeyEnv: blankToUndefined(candidate.apiKeyEnv), baseUrl: blankToUndefined(candidate.baseUrl) },
      env,
    );
    if (!use.ok) issues.push({ field: use.error.field, message: use.error.message });
  }
  if (parsed.ok && issues.length === 0) return parsed.config;
  const fieldErrors = Object.fromEntries(issues.map((i) => [i.field, i.message]));
  throw new LibraryError("validation", issues[0]?.message ?? "The configuration has errors.", fieldErrors);
}

function blankToUndefined(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

/**
 * Adds a model configuration after {@link validateModelConfigForSave}.
 * @returns the new row id
 * @throws LibraryError `validation` (fields, key policy, name taken)
 */
export async function addModelConfig(db: Db, input: unknown, env: Env): Promise<number> {
  return createModelConfig(db, validateModelConfigForSave(input, env));
}

/**
 * Replaces a model configuration after {@link validateModelConfigForSave} (benches keep the
 * snapshot they pinned).
 * @throws LibraryError `validation`, or `not_found` when there is no such configuration
 */
export async function editModelConfig(db: Db, id: number, input: unknown, env: Env): Promise<void> {
  await updateModelConfig(db, id, validateModelConfigForSave(input, env));
}

/** What Test connection shows: the answer and its latency (ms), or why it failed (never the key). */
export type ConnectionCheck = { ok: boolean; text?: string; latencyMs?: number; error?: string };

/**
 * Test connection: one tiny call with the stored configuration. A configuration the key policy
 * refuses (saved before the policy, or the server's policy changed) makes no request.
 * @param fetchImpl the HTTP client (the actions pass the one trials use)
 * @throws LibraryError `not_found` when there is no such configuration
 */
export async function testModelConfig(db: Db, id: number, env: Env, fetchImpl?: FetchImpl): Promise<ConnectionCheck> {
  const config = await getModelConfig(db, id);
  if (!config) throw new LibraryError("not_found", `Model configuration #${id} does not exist.`);
  let model;
  try {
    model = createModel(config, env, fetchImpl);
  } catch (e) {
    if (e instanceof KeyPolicyError || e instanceof MissingApiKeyError || e instanceof ModelConfigError) return { ok: false, error: e.message };
    throw e;
  }
  const r = await testConnection(model, { timeoutMs: 20_000 });
  return r.ok ? { ok: true, text: r.text, latencyMs: r.latencyMs } : { ok: false, error: describeTrialError(r.error) };
}

/** A configuration as the Models page shows it. */
export type ModelConfigRow = StoredModelConfig & { key: KeyStatus };

/**
 * Every configuration with its key status: set / not set only for variables the policy allows
 * (a refused variable is never read), and never a value.
 */
export async function modelConfigRows(db: Db, env: Env): Promise<ModelConfigRow[]> {
  return (await listModelConfigs(db)).map((c) => ({ ...c, key: apiKeyStatus(c, env) }));
}
