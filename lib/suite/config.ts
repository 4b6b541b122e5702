/**
 * `benchmark.config.ts` (issue #6): `{ protocolVersion: 1, title, version, license, tools: [paths],
 * evals: [paths] }`, plus optional `description`, `model` and `judgeModel` blocks. Validation with
 * messages naming the field.
 */
import { parseModelConfig, type ModelConfig } from "@/lib/runtime/model-config";
import { MODEL_BLOCK_EXAMPLE, isPlainObject } from "./fields";
import { PROTOCOL_VERSION, type BenchmarkConfig } from "./types";

/** Keys benchmark.config.ts may have. */
export const CONFIG_KEYS: ReadonlySet<string> = new Set([
  "protocolVersion",
  "title",
  "version",
  "license",
  "description",
  "tools",
  "evals",
  "model",
  "judgeModel",
]);

/** A validated config: lists always present, model blocks as validated model configurations. */
export interface ParsedBenchmarkConfig extends Omit<BenchmarkConfig, "tools" | "model" | "judgeModel"> {
  tools: string[];
  model?: ModelConfig;
  judgeModel?: ModelConfig;
}

/**
 * Validates a model block (`model`, `judgeModel` of the config or of a case): a model configuration
 * whose `name` defaults to its model id. Keys are never in it: `apiKeyEnv` names their variable.
 * @param field the field's name, for messages (`judgeModel`)
 * @returns the configuration, or one message per problem, each naming the field (`judgeModel.baseUrl: …`)
 */
export function parseModelBlock(value: unknown, field: string): { ok: true; config: ModelConfig } | { ok: false; problems: string[] } {
  if (!isPlainObject(value)) return { ok: false, problems: [`${field} must be an object like ${MODEL_BLOCK_EXAMPLE}`] };
  const withName = { name: typeof value.modelId === "string" ? value.modelId : field, ...value };
  const parsed = parseModelConfig(withName);
  if (!parsed.ok) return { ok: false, problems: parsed.issues.map((i) => `${field}${i.field ? `.${i.field}` : ""}: ${i.message}`) };
  return { ok: true, config: parsed.config };
}

function modelBlock(value: unknown, field: string, problems: string[]): ModelConfig | undefined {
  if (value === undefined) return undefined;
  const parsed = parseModelBlock(value, field);
  if (!parsed.ok) {
    problems.push(...parsed.problems);
    return undefined;
  }
  return parsed.config;
}

/**
 * Validates the default export of benchmark.config.ts.
 * @returns the config, or every problem found (each message names its field)
 */
export function parseBenchmarkConfig(value: unknown): { ok: true; config: ParsedBenchmarkConfig } | { ok: false; problems: string[] } {
  if (!isPlainObject(value)) {
    return { ok: false, problems: ["the config must default-export an object { protocolVersion: 1, title, version, license, tools, evals }"] };
  }
  const problems: string[] = [];
  for (const key of Object.keys(value)) if (!CONFIG_KEYS.has(key)) problems.push(`unknown field "${key}"; allowed: ${[...CONFIG_KEYS].join(", ")}`);
  if (value.protocolVersion !== PROTOCOL_VERSION) {
    problems.push(
      value.protocolVersion === undefined
        ? `protocolVersion is required: set protocolVersion: ${PROTOCOL_VERSION}`
        : `protocolVersion ${JSON.stringify(value.protocolVersion)} is not supported: this Benchwork reads protocol ${PROTOCOL_VERSION}`,
    );
  }
  for (const key of ["title", "version", "license"] as const) {
    const v = value[key];
    if (typeof v !== "string" || v.trim() === "") problems.push(`${key} is required (non-empty text)`);
  }
  if (value.description !== undefined && typeof value.description !== "string") problems.push("description must be text");
  const list = (key: "tools" | "evals", required: boolean): string[] => {
    const v = value[key];
    if (v === undefined && !required) return [];
    if (!Array.isArray(v) || !v.every((x) => typeof x === "string" && x.trim() !== "")) {
      problems.push(`${key} must be a list of file paths relative to the config${required ? " (at least one)" : ""}`);
      return [];
    }
    if (required && v.length === 0) problems.push(`${key} is empty: list at least one eval module`);
    const seen = new Set<string>();
    for (const p of v as string[]) {
      if (seen.has(p)) problems.push(`${key} lists "${p}" twice`);
      seen.add(p);
    }
    return v as string[];
  };
  const tools = list("tools", false);
  const evals = list("evals", true);
  const model = modelBlock(value.model, "model", problems);
  const judgeModel = modelBlock(value.judgeModel, "judgeModel", problems);
  if (problems.length > 0) return { ok: false, problems };
  const config: ParsedBenchmarkConfig = {
    protocolVersion: PROTOCOL_VERSION,
    title: value.title as string,
    version: value.version as string,
    license: value.license as string,
    tools,
    evals,
  };
  if (typeof value.description === "string") config.description = value.description;
  if (model) config.model = model;
  if (judgeModel) config.judgeModel = judgeModel;
  return { ok: true, config };
}
