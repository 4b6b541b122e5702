/**
 * The record of one trial (DESIGN.md §4 step 4): what the model answered, which tools it called,
 * with which results, how many tokens it used and how long it took. JSON-serialisable, so the
 * bench can store it as is; the same shape is produced for live and recorded candidates.
 */
import type { ModelMessage, StepResult, ToolSet } from "ai";
import type { NormalizedToolCall } from "@/lib/evaluators/types";
import { normalizeToolCall } from "@/lib/evaluators/tool-calls/normalize";
import type { TrialError } from "./errors";
import { jsonEqual } from "./json-equal";
import { argumentsAsSent } from "./tool-call-tap";

export type { NormalizedToolCall } from "@/lib/evaluators/types";
export type { TrialError, TrialErrorKind } from "./errors";

/**
 * A tool call as the model sent it.
 * - `input`: the arguments as the model sent them — its argument text decoded as JSON (`{}` for an
 *   empty text), or the text itself when it is not JSON. Evaluators judge this value.
 * - `rawInput`: the argument text exactly as the model sent it, when the model could be tapped
 *   (see tool-call-tap.ts); absent in records made without it (recorded candidates, older rows),
 *   whose `input` is then what the ai SDK parsed.
 * - `parsedInput`: what the tool received after its input schema parsed the arguments (a zod object
 *   drops unknown keys, applies defaults and coercions) — only when that differs from `input`.
 */
export interface TrialToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  rawInput?: string;
  parsedInput?: unknown;
  /** Set when the SDK rejected the call (unknown tool, unparsable input); the model got `error` back. */
  invalid?: true;
  error?: string;
}

/** The result returned to the model for one tool call (a fixture result, or `{ error }`). */
export interface TrialToolResult {
  toolCallId: string;
  toolName: string;
  output: unknown;
  /** Set when the SDK could not execute the call (invalid call); `output` is `{ error: message }`. */
  isError?: true;
}

/** Token usage in tokens; 0 when the provider reported none. */
export interface TrialUsage {
  inputTokens: number;
  outputTokens: number;
}

/** One model call inside a trial (a trial with tool calls has several). */
export interface TrialStep {
  /** Text the model produced in this step ("" when it only called tools). */
  text: string;
  /** Reasoning text, when the provider returned any. */
  reasoning?: string;
  toolCalls: TrialToolCall[];
  toolResults: TrialToolResult[];
  /** ai SDK finish reason: `stop`, `length`, `content-filter`, `tool-calls`, `error`, `other`. */
  finishReason: string;
  usage: TrialUsage;
  /**
   * Set on the last step of a trial that ended (timeout, abort) while these calls' tools were
   * running: the model asked for them, but they have no results and the step never finished.
   */
  unfinished?: true;
}

/**
 * The record of one trial.
 * - `output`: final text of the model ("" when it ended on tool calls or failed).
 * - `toolCalls`: every tool call of every step, in order, as the model sent them.
 * - `normalizedToolCalls`: `{ toolName, input, toolCallId }` with JSON-string arguments parsed (the
 *   evaluators' normalisation, lib/evaluators/tool-calls/normalize.ts).
 * - `toolResults`: results returned to the model, in order.
 * - `finishReason`: of the last step; `error` when the call failed.
 * - `usage`: summed over steps, in tokens.
 * - `latencyMs`: the model calls' own time in ms, summed over steps (0 for recorded candidates):
 *   not the tool rounds, the SDK's own work or any wait (`wallMs` is the whole trial).
 * - `waitMs`: time the calls waited for a slot of the provider's concurrency limit, in ms.
 * - `calls`: model calls made (a tool round is one more).
 * - `wallMs`: wall time of the trial in ms.
 * - `renderedMessages`: the system message (when any) and the messages as sent to the first call.
 * - `responseMessages`: assistant and tool messages the trial produced (for the trial view).
 * - `warnings`: provider warnings (e.g. a setting the model does not support), deduplicated; absent when none.
 * - `error`: set when the model call failed; the other fields then hold what finished before the failure.
 * - `stoppedBy`: set when the trial engine ended the trial itself: its deadline passed (`timeout`) or
 *   the caller's signal fired (`abort`) — unlike a provider's own timeout (HTTP 408) or abort.
 * - `attempts`: how many calls were made when retried ({@link runModelTrialWithRetries}).
 */
export interface TrialRecord {
  output: string;
  toolCalls: TrialToolCall[];
  normalizedToolCalls: NormalizedToolCall[];
  toolResults: TrialToolResult[];
  steps: TrialStep[];
  finishReason: string;
  usage: TrialUsage;
  latencyMs: number;
  waitMs?: number;
  calls?: number;
  wallMs?: number;
  renderedMessages: ModelMessage[];
  responseMessages?: ModelMessage[];
  warnings?: string[];
  error?: TrialError;
  stoppedBy?: "timeout" | "abort";
  attempts?: number;
}

/** Usage with both counts 0. */
export function zeroUsage(): TrialUsage {
  return { inputTokens: 0, outputTokens: 0 };
}

/** Sum of step usages, in tokens. */
export function sumUsage(steps: readonly { usage: TrialUsage }[]): TrialUsage {
  const total = zeroUsage();
  for (const s of steps) {
    total.inputTokens += s.usage.inputTokens;
    total.outputTokens += s.usage.outputTokens;
  }
  return total;
}

/**
 * Normalises raw tool calls with the evaluators' rules (JSON-string arguments parsed, `""` → `{}`,
 * double-encoded objects decoded once, unparsable strings kept with `argumentsError`).
 */
export function normalizeTrialToolCalls(calls: readonly unknown[]): NormalizedToolCall[] {
  return calls.map((c) => normalizeToolCall(c));
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return typeof e === "string" ? e : String(e);
}

function usageOf(u: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined): TrialUsage {
  const num = (v: number | undefined) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  return { inputTokens: num(u?.inputTokens), outputTokens: num(u?.outputTokens) };
}

/** A provider warning in words, e.g. "unsupported: temperature (not supported for reasoning models)". */
function warningText(w: unknown): string {
  const x = w as { type?: string; feature?: string; details?: string; message?: string; setting?: string };
  if (typeof x?.message === "string") return x.message;
  const what = x?.feature ?? x?.setting ?? "";
  return `${x?.type ?? "warning"}${what ? `: ${what}` : ""}${x?.details ? ` (${x.details})` : ""}`;
}

/**
 * One ai SDK step as a {@link TrialStep}: its text, tool calls (invalid ones marked), tool results
 * (tool errors as `{ error }`), finish reason and usage. Shared by bench trials and code suites so
 * both record the same shape.
 * @param warnings collects the step's provider warnings in words, when given
 * @param rawInputOf the argument text the model sent for a call id (`tapToolCalls(model).take`, tool-call-tap.ts);
 *   when it knows a call, the call's `input` is decoded from that text and the SDK's parsed value is
 *   kept as `parsedInput` when different
 */
export function recordStep(step: StepResult<ToolSet>, warnings?: Set<string>, rawInputOf?: (toolCallId: string) => string | undefined): TrialStep {
  for (const w of step.warnings ?? []) warnings?.add(warningText(w));
  const toolCalls: TrialToolCall[] = [];
  const toolResults: TrialToolResult[] = [];
  for (const part of step.content) {
    if (part.type === "tool-call") {
      const call: TrialToolCall = { toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
      const raw = rawInputOf?.(part.toolCallId);
      if (raw !== undefined) {
        call.input = argumentsAsSent(raw);
        call.rawInput = raw;
        if (!part.invalid && !jsonEqual(part.input, call.input)) call.parsedInput = part.input;
      }
      if (part.invalid) {
        call.invalid = true;
        call.error = errorText(part.error);
      }
      toolCalls.push(call);
    } else if (part.type === "tool-result") {
      toolResults.push({ toolCallId: part.toolCallId, toolName: part.toolName, output: part.output });
    } else if (part.type === "tool-error") {
      toolResults.push({ toolCallId: part.toolCallId, toolName: part.toolName, output: { error: errorText(part.error) }, isError: true });
    }
  }
  const out: TrialStep = { text: step.text, toolCalls, toolResults, finishReason: step.finishReason, usage: usageOf(step.usage) };
  if (step.reasoningText) out.reasoning = step.reasoningText;
  return out;
}

/**
 * The record of a trial from its finished steps: tool calls and results of every step in order,
 * normalized calls, summed usage; `output` and `finishReason` from the last step unless given.
 * The steps are copied (a model that ignored an abort may still add steps afterwards).
 */
export function buildTrialRecord(
  finished: readonly TrialStep[],
  rest: Pick<TrialRecord, "latencyMs" | "renderedMessages"> & Partial<TrialRecord>,
): TrialRecord {
  const steps = [...finished];
  const toolCalls = steps.flatMap((s) => s.toolCalls);
  const last = steps[steps.length - 1];
  const record: TrialRecord = {
    output: rest.output ?? (rest.error ? "" : (last?.text ?? "")),
    toolCalls,
    normalizedToolCalls: normalizeTrialToolCalls(toolCalls),
    toolResults: steps.flatMap((s) => s.toolResults),
    steps,
    finishReason: rest.error ? "error" : (rest.finishReason ?? last?.finishReason ?? "other"),
    usage: sumUsage(steps),
    latencyMs: rest.latencyMs,
    renderedMessages: rest.renderedMessages,
  };
  // Optional fields are assigned, not spread in: on Node 20's V8 an object literal with spreads
  // copies its hidden class on every call, in the old generation (bench/runner.ts, issue #5).
  if (rest.responseMessages) record.responseMessages = rest.responseMessages;
  if (rest.waitMs !== undefined) record.waitMs = rest.waitMs;
  if (rest.calls !== undefined) record.calls = rest.calls;
  if (rest.wallMs !== undefined) record.wallMs = rest.wallMs;
  if (rest.warnings && rest.warnings.length > 0) record.warnings = rest.warnings;
  if (rest.error) record.error = rest.error;
  if (rest.stoppedBy) record.stoppedBy = rest.stoppedBy;
  return record;
}
