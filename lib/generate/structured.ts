/**
 * One structured-output call of the generator: asks the model for a JSON object through the ai
 * SDK (`generateText` with `Output.object`), then validates each item of the answer's list on its
 * own. The SDK's own validation is all-or-nothing; here a batch keeps the items that validated and
 * reports the others, while an answer that is not JSON, not the expected object, or has no valid
 * item fails the step with a {@link GenerateError}. A server that rejects structured output is
 * asked again in plain text (the schema is in the prompt) and the JSON read from its answer.
 */
import { generateText, NoObjectGeneratedError, Output, type LanguageModel } from "ai";
import { z } from "zod";
import { extractJsonObject } from "@/lib/evaluators/judge/parse";
import { rejectsStructuredOutput } from "@/lib/evaluators/judge/judge";
import { formatPath } from "@/lib/evaluators/validate";

/** Why a generation step failed. `call_failed`: the model call itself (network, HTTP status, cancelled). */
export type GenerateErrorCode = "not_json" | "wrong_shape" | "empty" | "call_failed" | "cancelled";

/** A generation step failed; nothing of the batch should be stored. `message` names the step. */
export class GenerateError extends Error {
  constructor(
    readonly code: GenerateErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "GenerateError";
  }
}

/** Tokens of one call. */
export interface CallUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Result of {@link structuredList}: valid items in order, and one problem per dropped item. */
export interface ListAnswer<T> {
  items: T[];
  invalid: { item: number; problem: string }[];
  usage: CallUsage;
}

const clip = (s: string, n = 200) => (s.length > n ? `${s.slice(0, n)}…` : s);

function zodProblem(e: z.ZodError): string {
  return e.issues.map((i) => `${formatPath(i.path) || "(item)"}: ${i.message}`).join("; ");
}

/** The call settings shared by every step. */
export interface CallSettings {
  model: LanguageModel;
  abortSignal?: AbortSignal;
  /** Longest answer in tokens (default 4,000). */
  maxOutputTokens?: number;
}

async function callForObject(
  settings: CallSettings,
  step: string,
  name: string,
  schema: z.ZodType,
  messages: { system: string; prompt: string },
): Promise<{ raw: unknown; usage: CallUsage }> {
  const usage = (u: { inputTokens?: number; outputTokens?: number } | undefined): CallUsage => ({
    inputTokens: u?.inputTokens ?? 0,
    outputTokens: u?.outputTokens ?? 0,
  });
  const fromText = (text: string, u: CallUsage) => {
    if (!text.trim()) throw new GenerateError("empty", `${step}: the model's answer was empty.`);
    const raw = safeJson(text) ?? extractJsonObject(text);
    if (raw === undefined) throw new GenerateError("not_json", `${step}: the model's answer is not JSON: "${clip(text)}"`);
    return { raw, usage: u };
  };
  const failed = (e: unknown): never => {
    if (e instanceof GenerateError) throw e;
    if (settings.abortSignal?.aborted) throw new GenerateError("cancelled", `${step}: cancelled.`);
    throw new GenerateError("call_failed", `${step}: the model call failed: ${clip((e as Error).message, 300)}`);
  };
  const call = {
    model: settings.model,
    system: messages.system,
    // Many OpenAI-compatible servers get only "answer in JSON", not the schema: state it in the prompt too.
    prompt: `${messages.prompt}\n\nThe answer's JSON Schema:\n${JSON.stringify(z.toJSONSchema(schema))}`,
    maxOutputTokens: settings.maxOutputTokens ?? 4_000,
    maxRetries: 1,
    abortSignal: settings.abortSignal,
  };
  try {
    const result = await generateText({ ...call, output: Output.object({ schema, name }) });
    return { raw: result.output, usage: usage(result.usage) };
  } catch (e) {
    // The model answered but not with a fully valid object: read it ourselves, item by item.
    if (NoObjectGeneratedError.isInstance(e)) return fromText(e.text ?? "", usage(e.usage));
    if (!rejectsStructuredOutput(e) || settings.abortSignal?.aborted) return failed(e);
  }
  // The server refused structured output (older llama.cpp, some proxies): ask again in plain text.
  try {
    const result = await generateText(call);
    return fromText(result.text, usage(result.usage));
  } catch (e) {
    return failed(e);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Asks for `{ [key]: [item, …] }` and validates each item with `itemSchema`.
 * @param step names the step in messages ("criteria", "scenarios for persona X")
 * @param name the output's name (sent to the provider; the scripted e2e server answers by it)
 * @param answerSchema the whole answer's schema (sent to the model)
 * @throws GenerateError `not_json`, `wrong_shape` (no `key` list), `empty` (no item at all, or none
 *   valid — the message gives the first problems), `call_failed`, `cancelled`
 */
export async function structuredList<T>(
  settings: CallSettings,
  step: string,
  name: string,
  key: string,
  answerSchema: z.ZodType,
  itemSchema: z.ZodType<T, unknown>,
  messages: { system: string; prompt: string },
): Promise<ListAnswer<T>> {
  const { raw, usage } = await callForObject(settings, step, name, answerSchema, messages);
  const list = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(list))
    throw new GenerateError("wrong_shape", `${step}: the model's answer has no "${key}" list (got ${clip(JSON.stringify(raw) ?? String(raw))}).`);
  if (list.length === 0) throw new GenerateError("empty", `${step}: the model proposed nothing (an empty "${key}" list).`);
  const items: T[] = [];
  const invalid: { item: number; problem: string }[] = [];
  list.forEach((entry, i) => {
    const parsed = itemSchema.safeParse(entry);
    if (parsed.success) items.push(parsed.data);
    else invalid.push({ item: i + 1, problem: zodProblem(parsed.error) });
  });
  if (items.length === 0)
    throw new GenerateError("wrong_shape", `${step}: none of the ${list.length} proposed items is valid; item ${invalid[0].item}: ${invalid[0].problem}`);
  return { items, invalid, usage };
}

/**
 * Asks for one object and validates it whole.
 * @throws GenerateError as {@link structuredList}; `wrong_shape` naming the fields that failed
 */
export async function structuredObject<T>(
  settings: CallSettings,
  step: string,
  name: string,
  schema: z.ZodType<T, unknown>,
  messages: { system: string; prompt: string },
): Promise<{ value: T; usage: CallUsage }> {
  const { raw, usage } = await callForObject(settings, step, name, schema, messages);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new GenerateError("wrong_shape", `${step}: the model's answer has the wrong shape: ${zodProblem(parsed.error)}`);
  return { value: parsed.data, usage };
}
