/**
 * `benchwork evaluate --spec SPEC.json --trial TRIAL.json [--json] [--judge-model NAME]`
 * Prints the check results of one trial (issue #4). SPEC: a list of evaluator declarations (or one).
 * TRIAL: `{ output, toolCalls?, caseData?, finishReason?, usage?, input?, expected? }`.
 * Exit 0 when it ran, whatever the verdicts; 2 on a usage or spec error.
 */
import { structuredOutputModel } from "@/lib/runtime/json-mode";
import { z } from "zod";
import { runChecks } from "@/lib/evaluators/registry";
import { createSandbox } from "@/lib/evaluators/sandbox";
import { describeEvaluator } from "@/lib/evaluators/describe";
import { validateEvaluatorSpecs } from "@/lib/evaluators/validate";
import type { Io } from "../io";
import { readJsonFile, usage } from "../io";
import { counted } from "@/lib/bench/counted";

const trialSchema = z.object({
  output: z.string({ error: "trial.output must be a string" }),
  toolCalls: z.array(z.unknown()).optional(),
  caseData: z.record(z.string(), z.unknown()).nullable().optional(),
  finishReason: z.string().optional(),
  usage: z.object({ inputTokens: z.number().optional(), outputTokens: z.number().optional() }).optional(),
  input: z.string().optional(),
  expected: z.string().optional(),
});

export interface EvaluateOptions {
  spec: string;
  trial: string;
  json?: boolean;
  judgeModel?: string;
}

/** Runs the command; returns the exit code. */
export async function evaluateCommand(o: EvaluateOptions, io: Io): Promise<number> {
  const rawSpec = readJsonFile(o.spec, "spec");
  const specs = Array.isArray(rawSpec) ? rawSpec : [rawSpec];
  const parsedTrial = trialSchema.safeParse(readJsonFile(o.trial, "trial"));
  if (!parsedTrial.success) {
    const i = parsedTrial.error.issues[0];
    throw usage(`trial ${o.trial}: ${i.path.length ? i.path.join(".") + ": " : ""}${i.message}`);
  }
  const trial = parsedTrial.data;
  const problems = validateEvaluatorSpecs(specs, { expected: trial.expected });
  if (problems.length) {
    throw usage(problems.map((p) => `spec ${o.spec}: evaluator ${p.index + 1}${p.field ? ` (${p.field})` : ""}: ${p.message}`).join("\n"));
  }

  let judgeModel = null;
  if (o.judgeModel) {
    const { openMigratedStore } = await import("@/db/open-store");
    const { getModelConfigByName } = await import("@/db/queries/models");
    const { createModel, KeyPolicyError, MissingApiKeyError, ModelConfigError } = await import("@/lib/runtime/providers");
    const { nodeFetch } = await import("@/server/http-fetch");
    const store = await openMigratedStore();
    const config = await getModelConfigByName(store.db, o.judgeModel).finally(() => store.close());
    if (!config) throw usage(`--judge-model: no model configuration named "${o.judgeModel}" in ${store.where}`);
    try {
      // The key policy applies here as everywhere: a refused variable or host is a usage error, no request made.
      judgeModel = structuredOutputModel(createModel(config, process.env, nodeFetch), config);
    } catch (e) {
      if (e instanceof KeyPolicyError || e instanceof MissingApiKeyError || e instanceof ModelConfigError) throw usage(`--judge-model: ${e.message}`);
      throw e;
    }
  }

  const sandbox = specs.some((s) => (s as { kind?: string })?.kind === "custom") ? await createSandbox() : undefined;
  try {
    const results = await runChecks(
      specs,
      {
        output: trial.output,
        toolCalls: trial.toolCalls ?? [],
        caseData: trial.caseData ?? null,
        finishReason: trial.finishReason ?? null,
        usage: trial.usage ?? null,
        context: { input: trial.input, expected: trial.expected },
      },
      { sandbox, judge: { model: judgeModel } },
    );
    if (o.json) {
      io.out(JSON.stringify({ results: results.map((r, i) => ({ evaluator: describeEvaluator(specs[i]), ...r })) }, null, 2));
    } else {
      results.forEach((r, i) => {
        io.out(`${r.verdict.toUpperCase().padEnd(8)} ${r.score.toFixed(2)}  ${describeEvaluator(specs[i])}`);
        if (r.message) io.out(r.message.replace(/^/gm, "         "));
      });
      const count = (v: string) => results.filter((r) => r.verdict === v).length;
      io.out(
        `${counted(results.length, "check")}: ${count("passed")} passed, ${count("failed")} failed, ${count("unscored")} unscored, ${count("error")} error`,
      );
    }
    return 0;
  } finally {
    await sandbox?.dispose();
  }
}
