/**
 * The record of one trial (DESIGN.md §4 step 4): what the model answered, which tools it called,
 * with which results, how many tokens it used and how long it took. JSON-serialisable, so the
 * bench can store it as is; the same shape is produced for live and recorded candidates.
 */
import type { ModelMessage } from "ai";
import type { NormalizedToolCall } from "@/lib/evaluators/types";
import { normalizeToolCall } from "@/lib/evaluators/tool-calls/normalize";
import type { TrialError } from "./errors";

export type { NormalizedToolCall } from "@/lib/evaluators/types";
export type { TrialError, TrialErrorKind } from "./errors";

/**
 * A tool call as the model sent it. `input` is the argument value as the ai SDK parsed it (an
 * object for valid calls); for a call the SDK could not accept (`invalid: true`: unknown tool or
 * unparsable arguments) it is the raw argument text when that is not JSON.
 */
export interface TrialToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
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
 * - `latencyMs`: wall time of the trial in ms (0 for recorded candidates).
 * - `renderedMessages`: the system message (when any) and the messages as sent to the first call.
 * - `responseMessages`: assistant and tool messages the trial produced (for the trial view).
 * - `warnings`: provider warnings (e.g. a setting the model does not support), deduplicated; absent when none.
 * - `error`: set when the model call failed; the other fields then hold what finished before the failure.
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
  renderedMessages: ModelMessage[];
  responseMessages?: ModelMessage[];
  warnings?: string[];
  error?: TrialError;
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
