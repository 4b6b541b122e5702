/**
 * A mock generator model for tests (ai SDK `MockLanguageModelV3`, no HTTP): it answers each
 * generator step, told apart by the structured output's name (`criteria`, `concepts`, `scenarios`),
 * with a scripted text, and records the calls.
 */
import { MockLanguageModelV3 } from "ai/test";
import { textResult } from "@/lib/runtime/test-support/mock-model";

/** Scripted answers by output name: a text, or a function of the prompt (JSON of the messages). */
export type ScriptedAnswers = Record<string, string | ((prompt: string) => string)>;

/** The mock model and its calls (output name and prompt) in order; each call uses 100 input and 50 output tokens. */
export function scriptedGenerator(answers: ScriptedAnswers, modelId = "gen-mock") {
  const calls: { name: string; prompt: string }[] = [];
  const model = new MockLanguageModelV3({
    modelId,
    doGenerate: async (options) => {
      const name = options.responseFormat?.type === "json" ? (options.responseFormat.name ?? "") : "";
      const prompt = JSON.stringify(options.prompt);
      calls.push({ name, prompt });
      const a = answers[name];
      if (a === undefined) throw new Error(`no scripted answer for ${name}`);
      return textResult(typeof a === "function" ? a(prompt) : a, 100, 50);
    },
  });
  return { model, calls };
}

/** A criterion as the model writes it (judge check unless `extra` says otherwise). */
export const criterionItem = (rule: string, extra: Record<string, unknown> = {}) => ({
  rule,
  passes: `does: ${rule}`,
  fails: `does not: ${rule}`,
  priority: "primary",
  check: "judge",
  evaluator: null,
  ...extra,
});

/** A scenario as the model writes it, with the given variables (default none). */
export const scenarioItem = (input: string, extra: Record<string, unknown> = {}) => ({
  input,
  expected: `helps with: ${input}`,
  variables: [],
  tags: [],
  covers: "orders",
  edgeCase: false,
  ...extra,
});
