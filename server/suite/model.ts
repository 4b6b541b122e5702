/**
 * Which model `benchwork run` uses (issue #6 "Model selection by flag or config"), first match wins:
 * 1. `--model NAME`: a model configuration saved in the app database (Models page; BENCHWORK_DB);
 * 2. `--provider P --model-id ID [--base-url URL] [--api-key-env VAR]`: a configuration on the command line;
 * 3. the `model` block of benchmark.config.ts.
 * The judge (for `criteria`): the case's own `judgeModel` block, else `--judge-model NAME`
 * (database), else the config's `judgeModel`, else the run model. {@link chooseModels} picks the
 * run's judge; the shell builds the cases' own ones. Keys come from the environment only (`createModel(config, env)`), named by
 * `apiKeyEnv` or the provider's default variable.
 */
import { parseModelConfig, type ModelConfig } from "@/lib/runtime/model-config";
import type { ParsedBenchmarkConfig } from "@/lib/suite/config";

/** Model flags of `benchwork run`. */
export interface ModelFlags {
  model?: string;
  provider?: string;
  modelId?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  judgeModel?: string;
}

/** Reads a model configuration by name from the app database (injected so tests and --list need no database). */
export type ModelConfigLookup = (name: string) => Promise<ModelConfig | null>;

/** The chosen configurations, or a message for a usage error. */
export type ModelChoice = { ok: true; model: ModelConfig; judge: ModelConfig; source: string } | { ok: false; message: string };

/**
 * Chooses the run and judge model configurations (see module doc).
 * @param flags the command-line flags
 * @param config the benchmark config (its `model` / `judgeModel` blocks)
 * @param lookup reads `--model` / `--judge-model` names from the database
 * @returns the configurations and where the run model came from, or a message naming the problem
 */
export async function chooseModels(
  flags: ModelFlags,
  config: Pick<ParsedBenchmarkConfig, "model" | "judgeModel">,
  lookup: ModelConfigLookup,
): Promise<ModelChoice> {
  const inline = flags.provider !== undefined || flags.modelId !== undefined || flags.baseUrl !== undefined || flags.apiKeyEnv !== undefined;
  if (flags.model !== undefined && inline)
    return { ok: false, message: "give either --model NAME (a saved configuration) or --provider/--model-id/--base-url, not both" };
  let model: ModelConfig | null = null;
  let source = "";
  if (flags.model !== undefined) {
    model = await lookup(flags.model);
    if (!model)
      return { ok: false, message: `--model: no model configuration named "${flags.model}" (see the Models page, or use --provider/--model-id/--base-url)` };
    source = `model configuration "${flags.model}"`;
  } else if (inline) {
    const parsed = parseModelConfig({
      name: flags.modelId ?? "command line",
      provider: flags.provider ?? (flags.baseUrl ? "openai-compatible" : undefined),
      modelId: flags.modelId,
      baseUrl: flags.baseUrl,
      apiKeyEnv: flags.apiKeyEnv,
    });
    if (!parsed.ok) return { ok: false, message: `model flags: ${parsed.issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join("; ")}` };
    model = parsed.config;
    source = "command-line flags";
  } else if (config.model) {
    model = config.model;
    source = "benchmark.config.ts model";
  } else {
    return {
      ok: false,
      message:
        "no model: give --model NAME (a saved configuration), or --provider openai-compatible --base-url URL --model-id ID, or add a model block to benchmark.config.ts",
    };
  }
  let judge: ModelConfig = model;
  if (flags.judgeModel !== undefined) {
    const j = await lookup(flags.judgeModel);
    if (!j) return { ok: false, message: `--judge-model: no model configuration named "${flags.judgeModel}"` };
    judge = j;
  } else if (config.judgeModel) judge = config.judgeModel;
  return { ok: true, model, judge, source };
}
