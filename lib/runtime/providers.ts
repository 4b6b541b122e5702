/**
 * Language models from model configurations (DESIGN.md §7): OpenAI, Anthropic and any
 * OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio) through the ai SDK providers.
 *
 * Keys come from the environment passed in by the shell (the core never reads the process environment),
 * only from variables the key policy allows and only to the hosts it allows (./key-policy.ts), and
 * never appear in error messages or returned values (the providers keep them in closures).
 *
 * API choice: OpenAI models use the Chat Completions API (`provider.chat(modelId)`), which every
 * OpenAI model and OpenAI-style proxy supports, and which is the same wire format the scripted
 * test server speaks; Anthropic models use the Messages API.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { TrialError } from "./errors";
import { decideKeyUse, KeyPolicyError, keyOriginAllowed, type KeyOrigin } from "./key-policy";
import { DEFAULT_BASE_URL, ModelConfigError, parseModelConfig, type ModelConfig, type ModelProvider } from "./model-config";
import { runModelTrial } from "./run-trial";

export * from "./model-config";
export * from "./key-policy";

/** A fetch function (the global `fetch` by default); injected in tests. */
export type FetchImpl = typeof globalThis.fetch;

/** Thrown by {@link createModel} when the key a configuration needs is not set. Names the variable, never a value. */
export class MissingApiKeyError extends Error {
  override readonly name = "MissingApiKeyError";
  readonly code = "missing_api_key";
  constructor(
    readonly variable: string,
    readonly provider: ModelProvider,
    modelName: string,
  ) {
    super(`No API key for model "${modelName}": set the environment variable ${variable} (${provider}).`);
  }
}

/**
 * Wraps `base` for requests that carry a key: each request must go to one of `origins` (checked
 * again here, whatever URL the provider package builds) and never follows a redirect. A followed
 * redirect would replay the key headers to the next host (undici drops `Authorization` across
 * origins but keeps `x-api-key`), so a 3xx answer comes back as it is and fails the call.
 */
function keyBoundFetch(base: FetchImpl | undefined, origins: readonly KeyOrigin[], variable: string): FetchImpl {
  return (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    if (!keyOriginAllowed(url, origins)) {
      return Promise.reject(
        new KeyPolicyError("key_host_refused", "baseUrl", `The key in ${variable} may not be sent to ${url.host}; the request was not made.`),
      );
    }
    return (base ?? globalThis.fetch)(input, { ...init, redirect: "manual" });
  };
}

/**
 * Creates the ai SDK language model of a configuration. The key policy ({@link decideKeyUse}) is
 * applied first: a refused variable is never read and no request is ever made with it.
 * @param config the model configuration (validated here)
 * @param env environment variables: the key is read from `env[apiKeyVariable(config)]`; the policy
 *   from BENCHWORK_ALLOWED_KEY_VARS and BENCHWORK_KEY_HOSTS
 * @param fetchImpl optional fetch (tests, proxies); with a key it is wrapped so the key only reaches
 *   the allowed hosts and no redirect is followed
 * @returns a LanguageModel for `generateText`
 * @throws {ModelConfigError} when the configuration is invalid (lists every problem)
 * @throws {KeyPolicyError} when the key variable is not allowed, the base URL's host is not allowed
 *   for it, or the policy variables are malformed (names the variable and host, never a value)
 * @throws {MissingApiKeyError} when an OpenAI or Anthropic key (or the `apiKeyEnv` of an
 *   openai-compatible server) is not set or blank; the error names the variable only
 */
export function createModel(config: ModelConfig, env: Record<string, string | undefined>, fetchImpl?: FetchImpl): LanguageModel {
  const parsed = parseModelConfig(config);
  if (!parsed.ok) throw new ModelConfigError(parsed.issues);
  const c = parsed.config;
  const use = decideKeyUse(c, env);
  if (!use.ok) throw use.error;
  const variable = use.variable;
  const raw = variable !== undefined ? env[variable] : undefined;
  const apiKey = typeof raw === "string" && raw.trim() !== "" ? raw.trim() : undefined;
  if (variable !== undefined && apiKey === undefined) throw new MissingApiKeyError(variable, c.provider, c.name);
  const fetchOption = variable !== undefined ? { fetch: keyBoundFetch(fetchImpl, use.origins, variable) } : fetchImpl ? { fetch: fetchImpl } : {};

  // Base URLs are always passed explicitly so the SDK never falls back to OPENAI_BASE_URL /
  // ANTHROPIC_BASE_URL from the process environment: only `env` and the config decide.
  switch (c.provider) {
    case "openai":
      return createOpenAI({ apiKey, baseURL: c.baseUrl ?? DEFAULT_BASE_URL.openai, ...fetchOption }).chat(c.modelId);
    case "anthropic":
      return createAnthropic({ apiKey, baseURL: c.baseUrl ?? DEFAULT_BASE_URL.anthropic, ...fetchOption })(c.modelId);
    case "openai-compatible":
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: c.baseUrl!,
        ...(apiKey !== undefined ? { apiKey } : {}),
        includeUsage: true,
        ...fetchOption,
      }).chatModel(c.modelId);
  }
}

/** Result of {@link testConnection}. */
export type ConnectionResult = { ok: true; text: string; latencyMs: number } | { ok: false; error: TrialError };

/**
 * Checks that a model answers: one tiny call ("Reply with the word OK.", at most `maxOutputTokens`
 * tokens, default 5) with the SDK's retries off.
 * @param model the model to test
 * @param opts `timeoutMs` (default 15,000 ms), `abortSignal`, `maxOutputTokens`
 * @returns `{ ok: true, text, latencyMs }` (any answer counts, even an empty one cut by the token
 *   limit) or `{ ok: false, error }` classified like a trial error. Never throws.
 */
export async function testConnection(
  model: LanguageModel,
  opts: { timeoutMs?: number; abortSignal?: AbortSignal; maxOutputTokens?: number; now?: () => number } = {},
): Promise<ConnectionResult> {
  const record = await runModelTrial({
    model,
    system: "",
    messages: [{ role: "user", content: "Reply with the word OK." }],
    maxSteps: 1,
    maxOutputTokens: opts.maxOutputTokens ?? 5,
    timeoutMs: opts.timeoutMs ?? 15_000,
    ...(opts.abortSignal ? { abortSignal: opts.abortSignal } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  if (record.error) return { ok: false, error: record.error };
  return { ok: true, text: record.output, latencyMs: record.latencyMs };
}
