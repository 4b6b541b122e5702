/**
 * `benchwork generate --system S --prompt P [--criteria N] [--scenarios M] [--json]` with the model
 * flags of `run` (`--model NAME`, or `--provider P --model-id ID [--base-url URL] [--api-key-env VAR]`)
 * (issue 17): generates proposed criteria and scenarios for a prompt of the app's library
 * (BENCHWORK_DB) and stores them for review (inactive until accepted in the app).
 * Exit 0 when a batch was stored; 1 when the model's answer was unusable or the call failed
 * (nothing stored); 2 on a usage error (no model, missing key, unknown system or prompt, bad count).
 */
import type { ModelConfig } from "@/lib/runtime/model-config";
import { KeyPolicyError, MissingApiKeyError, ModelConfigError, createModel } from "@/lib/runtime/providers";
import { GenerateError } from "@/lib/generate/structured";
import { MAX_PER_BATCH } from "@/lib/generate/generate";
import { chooseModels } from "@/server/suite/model";
import { CliError, usage, type Io } from "../io";
import { counted } from "@/lib/bench/counted";

/** Options of {@link generateCommand}. */
export interface GenerateOptions {
  system: string;
  prompt: string;
  criteria?: string;
  scenarios?: string;
  json?: boolean;
  model?: string;
  provider?: string;
  modelId?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
}

function count(flag: string, value: string | undefined): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > MAX_PER_BATCH) throw usage(`${flag} must be a whole number from 0 to ${MAX_PER_BATCH} (got "${value}")`);
  return n;
}

async function lookupModelConfig(name: string): Promise<ModelConfig | null> {
  const { openMigratedStore } = await import("@/db/open-store");
  const { getModelConfigByName } = await import("@/db/queries/models");
  const store = await openMigratedStore();
  try {
    return await getModelConfigByName(store.db, name);
  } finally {
    await store.close();
  }
}

/** Runs the command; returns the exit code. */
export async function generateCommand(o: GenerateOptions, io: Io, env: Record<string, string | undefined> = process.env): Promise<number> {
  const criteria = count("--criteria", o.criteria);
  const scenarios = count("--scenarios", o.scenarios);
  if (criteria + scenarios === 0) throw usage("nothing to generate: give --criteria N and/or --scenarios M (at least one above 0)");
  const inline = [o.provider, o.modelId, o.baseUrl, o.apiKeyEnv].some((v) => v !== undefined);
  if (o.model === undefined && !inline)
    throw usage("no model: give --model NAME (a saved configuration) or --provider openai-compatible --base-url URL --model-id ID");
  const choice = await chooseModels(o, {}, lookupModelConfig);
  if (!choice.ok) throw usage(choice.message);
  // The ai SDK logs "responseFormat is not supported" to stdout for servers without schema support,
  // which would break --json; the generator states the schema in its prompt instead.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  const { nodeFetch } = await import("@/server/http-fetch");
  let model;
  try {
    model = createModel(choice.model, env, nodeFetch);
  } catch (e) {
    if (e instanceof MissingApiKeyError || e instanceof KeyPolicyError || e instanceof ModelConfigError) throw usage(`model: ${e.message}`);
    throw e;
  }

  const { openMigratedStore } = await import("@/db/open-store");
  const { listPrompts, getSystem } = await import("@/db/queries/systems");
  const { generateForPrompt, generatorModelLabel } = await import("@/server/generate/generate");
  const store = await openMigratedStore();
  const db = store.db;
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.once("SIGINT", onSigint);
  try {
    if (!(await getSystem(db, o.system))) throw usage(`--system: no system "${o.system}" in ${store.where}`);
    const prompts = await listPrompts(db, o.system);
    const prompt = prompts.find((p) => p.name === o.prompt);
    if (!prompt) throw usage(`--prompt: system "${o.system}" has no prompt "${o.prompt}" (prompts: ${prompts.map((p) => p.name).join(", ") || "none"})`);
    let outcome;
    try {
      outcome = await generateForPrompt(
        db,
        { systemId: o.system, promptId: prompt.id, criteria, scenarios },
        { model, modelLabel: generatorModelLabel(choice.model), abortSignal: ac.signal },
      );
    } catch (e) {
      if (e instanceof GenerateError) throw new CliError(`${e.message} Nothing was stored.`, 1);
      throw e;
    }
    const { run, proposals } = outcome;
    const crit = proposals.flatMap((p) => (p.kind === "criterion" ? [{ id: p.id, ...p.content }] : []));
    const scen = proposals.flatMap((p) => (p.kind === "scenario" ? [{ id: p.id, ...p.content }] : []));
    if (o.json) {
      io.out(
        JSON.stringify({
          runId: run.id,
          model: run.model,
          promptRevisionId: run.promptRevisionId,
          generatorRevision: run.generatorRevision,
          criteria: crit,
          scenarios: scen,
          dropped: run.dropped,
          diversity: run.diversity,
          usage: run.usage,
          durationMs: run.durationMs,
        }),
      );
      return 0;
    }
    io.out(`generated for prompt "${prompt.name}" of "${o.system}" with ${run.model} (run ${run.id}), stored for review in ${store.where}`);
    for (const c of crit) io.out(`  criterion #${c.id} [${c.priority}, ${c.check.kind}] ${c.rule}`);
    for (const s of scen) io.out(`  scenario #${s.id} (${s.persona} / ${s.concept}${s.edgeCase ? ", edge case" : ""}) ${s.input}`);
    const dup = run.dropped.filter((d) => d.reason === "duplicate").length;
    io.out(
      `  ${crit.length} criteria, ${scen.length} scenarios; dropped ${run.dropped.length} (${dup} near-duplicate${dup === 1 ? "" : "s"}, ${run.dropped.length - dup} invalid)`,
    );
    for (const d of run.dropped)
      io.out(
        d.reason === "duplicate"
          ? `    duplicate ${d.kind}: "${d.text}" ≈ "${d.duplicateOf}" (${d.of}, ${d.similarity})`
          : `    invalid, ${d.step} item ${d.item}: ${d.problem}`,
      );
    const div = (x: number | null) => (x === null ? "n/a" : x.toFixed(2));
    io.out(
      `  diversity: criteria ${div(run.diversity.criteria)}, scenarios ${div(run.diversity.scenarios)}; ${counted(run.usage.calls, "call")}, ${run.usage.inputTokens} input + ${run.usage.outputTokens} output tokens, ${run.durationMs} ms`,
    );
    return 0;
  } finally {
    process.off("SIGINT", onSigint);
    await store.close();
  }
}
