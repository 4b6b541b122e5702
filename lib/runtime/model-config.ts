/**
 * Model configurations (DESIGN.md §7): which provider and model a candidate or judge uses, where
 * its API key comes from (the NAME of an environment variable, never the key), its settings and
 * prices. Pure data + validation; safe to import from forms (no provider packages imported here).
 */
import { z } from "zod";

/** Providers the runtime can call. */
export const MODEL_PROVIDERS = ["openai", "anthropic", "openai-compatible"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** Environment variable read when `apiKeyEnv` is absent, per provider (none for openai-compatible). */
export const DEFAULT_API_KEY_ENV: Record<ModelProvider, string | undefined> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  "openai-compatible": undefined,
};

/** API base URL used when an OpenAI or Anthropic configuration has no `baseUrl`. */
export const DEFAULT_BASE_URL = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
} as const;

/** What an environment variable name must look like. */
export const ENV_VAR_NAME = /^[A-Z_][A-Z0-9_]*$/;

/**
 * One model configuration.
 * - `name`: display name (e.g. "GPT-4o mini, temp 0").
 * - `modelId`: the provider's model id (e.g. `gpt-4o-mini`, `claude-sonnet-4-5`, `llama3.1:8b`).
 * - `baseUrl`: API base URL; required for `openai-compatible` (e.g. `http://127.0.0.1:11434/v1`),
 *   optional for the others (proxies).
 * - `apiKeyEnv`: NAME of the environment variable holding the key. Defaults to `OPENAI_API_KEY` /
 *   `ANTHROPIC_API_KEY`; an openai-compatible server without it is called without a key (Ollama, llama.cpp).
 *   Which names may be used and where their keys may go is the key policy's decision (./key-policy.ts).
 * - `temperature` 0–2, `maxOutputTokens` 1–200,000 tokens.
 * - `inputPricePerMTok` / `outputPricePerMTok`: USD per million input / output tokens.
 */
export interface ModelConfig {
  id?: string;
  name: string;
  provider: ModelProvider;
  modelId: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  temperature?: number;
  maxOutputTokens?: number;
  inputPricePerMTok?: number;
  outputPricePerMTok?: number;
}

/** "" and whitespace from form fields mean "not set". */
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

const price = (label: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .number({ error: `${label} must be a number (USD per million tokens)` })
      .min(0, { error: `${label} cannot be negative` })
      .max(100_000, { error: `${label} looks wrong: at most 100,000 USD per million tokens` })
      .optional(),
  );

/**
 * Zod schema of {@link ModelConfig}, with messages a user can act on. Blank optional strings are
 * read as absent. Rules: provider one of {@link MODEL_PROVIDERS}; `baseUrl` required for
 * openai-compatible and always an http(s) URL; `apiKeyEnv` like `MY_API_KEY`; temperature 0–2;
 * maxOutputTokens an integer 1–200,000; prices ≥ 0.
 */
export const modelConfigSchema = z
  .object({
    id: z.preprocess(blankToUndefined, z.string().optional()),
    name: z.string({ error: "Name is required" }).trim().min(1, { error: "Name is required" }).max(120, { error: "Name is too long (at most 120 characters)" }),
    provider: z.enum(MODEL_PROVIDERS, { error: 'Provider must be "openai", "anthropic" or "openai-compatible"' }),
    modelId: z
      .string({ error: "Model ID is required (e.g. gpt-4o-mini)" })
      .trim()
      .min(1, { error: "Model ID is required (e.g. gpt-4o-mini)" })
      .max(200, { error: "Model ID is too long (at most 200 characters)" }),
    baseUrl: z.preprocess(
      blankToUndefined,
      z.string().trim().refine(isHttpUrl, { error: "Base URL must be an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1" }).optional(),
    ),
    apiKeyEnv: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .regex(ENV_VAR_NAME, {
          error: "API key variable must be an environment variable NAME like OPENAI_API_KEY (capital letters, digits, _), not the key itself",
        })
        .optional(),
    ),
    temperature: z.preprocess(
      blankToUndefined,
      z
        .number({ error: "Temperature must be a number between 0 and 2" })
        .min(0, { error: "Temperature must be between 0 and 2" })
        .max(2, { error: "Temperature must be between 0 and 2" })
        .optional(),
    ),
    maxOutputTokens: z.preprocess(
      blankToUndefined,
      z
        .number({ error: "Max output tokens must be a whole number between 1 and 200,000" })
        .int({ error: "Max output tokens must be a whole number between 1 and 200,000" })
        .min(1, { error: "Max output tokens must be a whole number between 1 and 200,000" })
        .max(200_000, { error: "Max output tokens must be a whole number between 1 and 200,000" })
        .optional(),
    ),
    inputPricePerMTok: price("Input price"),
    outputPricePerMTok: price("Output price"),
  })
  .superRefine((config, ctx) => {
    if (config.provider === "openai-compatible" && config.baseUrl === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["baseUrl"],
        message: "Base URL is required for an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1",
      });
    }
  });

/** One problem found by {@link parseModelConfig}: dotted field path ("" for the whole config) and message. */
export interface ModelConfigIssue {
  field: string;
  message: string;
}

/** Thrown by `createModel` for an invalid configuration. */
export class ModelConfigError extends Error {
  override readonly name = "ModelConfigError";
  readonly code = "invalid_model_config";
  constructor(readonly issues: ModelConfigIssue[]) {
    super(`Invalid model configuration: ${issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join("; ")}`);
  }
}

/**
 * Validates a model configuration.
 * @returns `{ ok: true, config }` (trimmed, blanks removed) or `{ ok: false, issues }` with one entry
 *   per problem (`field` is e.g. "baseUrl")
 */
export function parseModelConfig(input: unknown): { ok: true; config: ModelConfig } | { ok: false; issues: ModelConfigIssue[] } {
  const parsed = modelConfigSchema.safeParse(input);
  if (parsed.success) {
    const config: ModelConfig = { name: parsed.data.name, provider: parsed.data.provider, modelId: parsed.data.modelId };
    for (const key of ["id", "baseUrl", "apiKeyEnv", "temperature", "maxOutputTokens", "inputPricePerMTok", "outputPricePerMTok"] as const) {
      const value = parsed.data[key];
      if (value !== undefined) (config as unknown as Record<string, unknown>)[key] = value;
    }
    return { ok: true, config };
  }
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join("."), message: issue.message })),
  };
}

/**
 * The environment variable a configuration reads its key from: `apiKeyEnv`, else the provider's
 * default ({@link DEFAULT_API_KEY_ENV}); undefined for an openai-compatible server without one.
 */
export function apiKeyVariable(config: Pick<ModelConfig, "provider" | "apiKeyEnv">): string | undefined {
  return config.apiKeyEnv ?? DEFAULT_API_KEY_ENV[config.provider];
}

/**
 * Cost of a trial in USD: `(inputTokens · inputPricePerMTok + outputTokens · outputPricePerMTok) / 1e6`.
 * @param usage token counts
 * @param config the prices (USD per million tokens)
 * @returns the cost in USD, or null when either price is unknown (a price of 0 is known: free)
 */
export function costUsd(
  usage: { inputTokens: number; outputTokens: number },
  config: Pick<ModelConfig, "inputPricePerMTok" | "outputPricePerMTok">,
): number | null {
  if (config.inputPricePerMTok === undefined || config.outputPricePerMTok === undefined) return null;
  return (usage.inputTokens * config.inputPricePerMTok + usage.outputTokens * config.outputPricePerMTok) / 1_000_000;
}
