/**
 * Criteria judged by a model: a judge model applies one criterion to one trial through the ai SDK
 * (`generateText`). Structured output (`Output.object` with a schema) is requested first; when the
 * model answers in plain text anyway, or the provider rejects structured output, the JSON object is
 * read tolerantly from the text (parse.ts), so non-OpenAI and local models work too.
 *
 * Verdicts: `binary` mode passes on "pass"; `numeric` mode passes when the 1–10 score is at least
 * the threshold (default 7), with score/10 as the check score. A judge that says the criterion
 * cannot be observed gives `unscored` with its reason; no judge model gives `unscored` with the
 * reason "no judge model configured". A malformed answer or a failed call is `error` — never a
 * guessed pass or fail. Every result records the prompt, model id and mode in `details.judge`.
 */
import { APICallError, generateText, NoObjectGeneratedError, Output, UnsupportedFunctionalityError, type LanguageModel } from "ai";
import { z } from "zod";
import { SPEC_DEFAULTS, type JudgeSpec } from "../spec";
import type { CheckResult, EvaluationTrial } from "../types";
import { errorResult, failed, passed, unscored } from "../result";
import { buildJudgePrompt, type JudgeMode } from "./prompt";
import { extractJsonObject, interpretJudgeAnswer } from "./parse";

const KIND = "judge";
/** Reason given when no judge model is configured (DESIGN.md §7). */
export const NO_JUDGE_MODEL = "no judge model configured";
/** Longest raw answer kept in details, in characters. */
const MAX_ANSWER_CHARS = 8_000;

/** How to call the judge model. */
export interface JudgeOptions {
  /** The judge model (ai SDK `LanguageModel`); absent or null → every judge check is `unscored`. */
  model?: LanguageModel | null;
  /** Request structured output first (default true); set false for servers that reject `response_format`. */
  structuredOutput?: boolean;
  /** Sampling temperature (default 0; `null` leaves it to the provider, e.g. for reasoning models). */
  temperature?: number | null;
  /** Retries of the ai SDK on transient errors (default 1). */
  maxRetries?: number;
  /** Longest answer in tokens, reasoning included (default 2,000). */
  maxOutputTokens?: number;
  abortSignal?: AbortSignal;
}

/** Schema of a binary answer (reason first, so models reason before deciding). */
export const binaryAnswerSchema = z.object({
  reason: z.string().describe("One or two sentences citing what the trial shows."),
  verdict: z.enum(["pass", "fail", "cannot_observe"]),
});

/**
 * Schema of a numeric answer. The 1–10 range is stated in the description and checked after
 * parsing (some providers' strict schema modes reject `minimum`/`maximum`).
 */
export const numericAnswerSchema = z.object({
  reason: z.string().describe("One or two sentences citing what the trial shows."),
  observable: z.boolean().describe("False when the criterion cannot be observed in this trial."),
  score: z.number().describe("Integer from 1 (not at all) to 10 (completely)."),
});

/** `provider` and `modelId` of a model, as recorded in details. */
export function describeModel(model: LanguageModel): { provider: string | null; modelId: string } {
  if (typeof model === "string") return { provider: null, modelId: model };
  return { provider: model.provider, modelId: model.modelId };
}

/** True for provider errors that mean "this request shape is not supported" (retry without structured output). */
export function rejectsStructuredOutput(e: unknown): boolean {
  if (UnsupportedFunctionalityError.isInstance(e)) return true;
  if (APICallError.isInstance(e)) return e.statusCode === 400 || e.statusCode === 404 || e.statusCode === 422;
  return false;
}

function clipAnswer(text: string): string {
  return text.length > MAX_ANSWER_CHARS ? text.slice(0, MAX_ANSWER_CHARS) + "…" : text;
}

/**
 * Applies a criterion to a trial with a judge model.
 * @param spec the `judge` spec (criterion, mode, threshold)
 * @param trial the completed trial, with `context` (input, expected, history, tools) for the prompt
 * @param options the judge model and call settings
 * @returns the check result with `details.judge = { provider, modelId, mode, threshold?, system,
 *   prompt, answer, structuredOutput, score?, criterionId?, usage? }` (`usage`: tokens of the judge
 *   calls made, `{ inputTokens, outputTokens }`); never throws (call failures are `error`)
 */
export async function runJudgeCheck(spec: JudgeSpec, trial: EvaluationTrial, options: JudgeOptions = {}): Promise<CheckResult> {
  const mode: JudgeMode = spec.mode ?? (SPEC_DEFAULTS.judgeMode as JudgeMode);
  const threshold = spec.threshold ?? SPEC_DEFAULTS.judgeThreshold;
  const { system, prompt } = buildJudgePrompt(spec, trial);
  const judge: Record<string, unknown> = { mode, system, prompt };
  if (mode === "numeric") judge.threshold = threshold;
  if (spec.criterion.id) judge.criterionId = spec.criterion.id;
  if (spec.criterion.priority) judge.priority = spec.criterion.priority;
  if (!options.model) return unscored(KIND, NO_JUDGE_MODEL, { judge });
  Object.assign(judge, describeModel(options.model));

  const settings = {
    model: options.model,
    system,
    prompt,
    maxRetries: options.maxRetries ?? 1,
    maxOutputTokens: options.maxOutputTokens ?? 2_000,
    abortSignal: options.abortSignal,
    ...(options.temperature === null ? {} : { temperature: options.temperature ?? 0 }),
  };

  let answer: unknown;
  let text = "";
  let structured = false;
  // Tokens of every judge call this check made (a rejected structured call has none to count).
  let usage: { inputTokens: number; outputTokens: number } | undefined;
  const took = (u: { inputTokens?: number; outputTokens?: number } | undefined) => {
    if (u) usage = { inputTokens: (usage?.inputTokens ?? 0) + (u.inputTokens ?? 0), outputTokens: (usage?.outputTokens ?? 0) + (u.outputTokens ?? 0) };
  };
  const plainText = async () => {
    const result = await generateText(settings);
    took(result.usage);
    text = result.text;
    answer = extractJsonObject(text);
  };
  try {
    if (options.structuredOutput === false) await plainText();
    else {
      try {
        const output =
          mode === "numeric"
            ? Output.object({ schema: numericAnswerSchema, name: "judgement" })
            : Output.object({ schema: binaryAnswerSchema, name: "judgement" });
        const result = await generateText({ ...settings, output });
        took(result.usage);
        text = result.text;
        answer = result.output;
        structured = true;
      } catch (e) {
        if (NoObjectGeneratedError.isInstance(e)) {
          // The model answered, but not with a schema-valid object: read its text tolerantly.
          took(e.usage);
          text = e.text ?? "";
          answer = extractJsonObject(text);
        } else if (rejectsStructuredOutput(e)) {
          judge.structuredOutputRejected = (e as Error).message.slice(0, 300);
          await plainText();
        } else throw e;
      }
    }
  } catch (e) {
    judge.answer = clipAnswer(text);
    if (usage) judge.usage = usage;
    return errorResult(KIND, `judge call failed: ${(e as Error).message}`, { judge });
  }
  judge.answer = clipAnswer(text);
  if (usage) judge.usage = usage;
  judge.structuredOutput = structured;
  if (answer === undefined)
    return errorResult(KIND, `the judge's answer was malformed: no JSON object found in "${text.slice(0, 200)}${text.length > 200 ? "…" : ""}"`, { judge });
  const read = interpretJudgeAnswer(answer, mode, threshold);
  if (read.status === "malformed") return errorResult(KIND, `the judge's answer was malformed: ${read.problem}`, { judge });
  const reason = read.reason || "(the judge gave no reason)";
  if (read.status === "unobservable") return unscored(KIND, `The judge could not observe this criterion on this trial: ${reason}`, { judge });
  if (mode === "numeric") {
    const s = read.rawScore!;
    judge.score = s;
    const msg = `Judge score ${s}/10 (passes at ${threshold}): ${reason}`;
    return read.passed ? passed(KIND, msg, { judge }, s / 10) : failed(KIND, msg, { judge }, s / 10);
  }
  return read.passed ? passed(KIND, `Judge: pass — ${reason}`, { judge }) : failed(KIND, `Judge: fail — ${reason}`, { judge });
}
