/**
 * Running one trial against a live model (DESIGN.md §4 step 4) — the one trial engine of benches
 * and of `benchwork run` suites (issue #20): one `generateText` call with the case's tools
 * (answered by fixtures for benches, by the benchmark's own `execute` for suites), up to `maxSteps`
 * model calls, a per-trial timeout, and a {@link TrialRecord} as the result, whose tool calls keep
 * the arguments exactly as the model sent them (`rawInput`). Failures are caught and classified,
 * never thrown.
 */
import { generateText, stepCountIs, type LanguageModel, type ModelMessage, type StepResult, type ToolSet } from "ai";
import type { ToolDefinition } from "@/lib/library/case-content";
import { classifyError, type TrialError } from "./errors";
import { withRetries, type RetryOptions } from "./retry";
import { argumentsAsSent, tapToolCalls, type RawToolCall } from "./tool-call-tap";
import { toAiSdkTools } from "./tools";
import { buildTrialRecord, recordStep, zeroUsage, type TrialRecord, type TrialStep, type TrialToolCall } from "./trial-record";
import { callTiming, meteredModel, type CallSlot } from "./metered-model";

/** The longest timer Node keeps (2^31 − 1 ms, about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

const NO_CALLS: readonly RawToolCall[] = [];

/** Default number of model calls in one trial (tool call rounds + final answer). */
export const DEFAULT_MAX_STEPS = 5;

/**
 * An event of a running trial, for a caller that shows or keeps the trace as it grows:
 * - `tool-calls`: the model asked for these calls, reported as its answer arrives — before the
 *   tools run, so a call whose tool never returns is still known;
 * - `step`: a model call finished (its tools have returned).
 * `index` is the 0-based number of the model call in this trial.
 */
export type TrialEvent = { type: "tool-calls"; index: number; calls: TrialToolCall[] } | { type: "step"; index: number; step: TrialStep };

/** Input of {@link runModelTrial}. */
export interface RunModelTrialInput {
  /** The model (from `createModel`, or a mock in tests). */
  model: LanguageModel;
  /** Rendered system prompt ("" for none). */
  system: string;
  /** Rendered messages (history + input), see `renderPrompt`. */
  messages: ModelMessage[];
  /** Exposed tool definitions (see `exposedTools`); their fixtures answer the calls. */
  tools?: readonly ToolDefinition[];
  /**
   * Executable tools instead of `tools` (a code suite's own ai SDK `tool()`s, whose `execute` runs
   * in this process): used as they are; `tools` is ignored when this is given.
   */
  toolSet?: ToolSet;
  /** Most model calls in this trial (≥ 1). Default {@link DEFAULT_MAX_STEPS}. */
  maxSteps?: number;
  /** Sampling temperature; omitted from the request when undefined. */
  temperature?: number;
  /** Most output tokens per model call; omitted when undefined. */
  maxOutputTokens?: number;
  /** Nucleus sampling (0–1); omitted when undefined. */
  topP?: number;
  /** Sequences that stop generation; omitted when undefined. */
  stopSequences?: string[];
  /** Provider-specific options, keyed by provider (passed to the ai SDK as is); omitted when undefined. */
  providerOptions?: Record<string, Record<string, unknown>>;
  /** Time budget of the whole trial in ms; `0`, negative or non-finite = no timeout. */
  timeoutMs: number;
  /** The caller's signal (bench cancelled); the trial ends with error kind `aborted`. */
  abortSignal?: AbortSignal;
  /** Clock in ms for `latencyMs`. Default `performance.now`. */
  now?: () => number;
  /** Extra HTTP headers for the provider request. */
  headers?: Record<string, string>;
  /**
   * A slot of the provider's concurrency limit, taken for each model call and given back when it
   * returns (never held across tool rounds); the wait is recorded as `waitMs`, apart from the latency.
   */
  slot?: CallSlot | null;
  /**
   * Called as each model call starts: after its wait for a provider slot, right before the request
   * is sent (the worker counts a trial's attempt there, not while it only waits).
   */
  onModelCall?: () => void;
  /** Called with each {@link TrialEvent} as the trial goes (synchronously; must not throw). */
  onEvent?: (event: TrialEvent) => void;
}

/**
 * Runs one trial: `generateText` with `stopWhen: stepCountIs(maxSteps)`, the tools answered by
 * their fixtures, the SDK's own retries disabled (`maxRetries: 0`; use {@link withRetries} or
 * {@link runModelTrialWithRetries}), and a timeout that covers the whole trial but its waits for a
 * provider slot.
 * @returns the trial record; on failure `error` is set (kinds: see `classifyError`; the runtime's
 *   timeout gives `timeout`, the caller's signal gives `aborted`) and the steps finished before the
 *   failure are kept, then — as a last step marked `unfinished`, without results — the calls whose
 *   tools were still running. Never throws.
 */
export async function runModelTrial(input: RunModelTrialInput): Promise<TrialRecord> {
  const now = input.now ?? (() => performance.now());
  const renderedMessages: ModelMessage[] = input.system ? [{ role: "system", content: input.system }, ...input.messages] : [...input.messages];
  const started = now();
  const steps: TrialStep[] = [];
  const warnings = new Set<string>();
  // Latency is the model calls' own time (summed over steps), not the trial's wall time: that also
  // holds the tool rounds, the SDK's own work, waits for a provider slot and for a busy thread.
  const timing = callTiming();
  /** Sets the record's times (a call cut short by a timeout counts up to now). */
  const timed = (r: TrialRecord): TrialRecord => {
    const t = now();
    const open = timing.openSince === null ? 0 : t - timing.openSince;
    r.latencyMs = timing.callMs + open;
    r.waitMs = timing.waitMs;
    r.calls = timing.calls + (timing.openSince === null ? 0 : 1);
    r.wallMs = t - started;
    return r;
  };

  if (input.abortSignal?.aborted) {
    return buildTrialRecord(steps, { latencyMs: 0, renderedMessages, error: classifyError(input.abortSignal.reason, { aborted: true }), stoppedBy: "abort" });
  }

  const controller = new AbortController();
  let timedOut = false;
  let aborted = false;
  let rejectStop: (reason: unknown) => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    rejectStop = reject;
  });
  const onCallerAbort = () => {
    aborted = true;
    controller.abort(input.abortSignal?.reason);
    rejectStop(input.abortSignal?.reason);
  };
  input.abortSignal?.addEventListener("abort", onCallerAbort, { once: true });
  const timeoutMs = input.timeoutMs;
  // The timeout is the trial's own time: waits for a provider slot (other trials' calls) extend it.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expire = () => {
    const t = now();
    const waited = timing.waitMs + (timing.waitingSince === null ? 0 : t - timing.waitingSince);
    const due = started + timeoutMs + waited;
    if (t < due) {
      timer = setTimeout(expire, Math.min(MAX_TIMER_MS, Math.max(1, due - t)));
      return;
    }
    timedOut = true;
    const reason = new DOMException(`trial timed out after ${timeoutMs} ms`, "TimeoutError");
    controller.abort(reason);
    rejectStop(reason);
  };
  if (Number.isFinite(timeoutMs) && timeoutMs > 0) timer = setTimeout(expire, Math.min(MAX_TIMER_MS, timeoutMs));

  // Calls the model asked for whose step has not finished (their tools are running).
  // Kept as the tap reports them and decoded only when needed (an event, a failure): a bench
  // trial's tool rounds should not parse every argument text twice.
  let inFlight: readonly RawToolCall[] = NO_CALLS;
  const onEvent = input.onEvent;
  // The tap keeps each call's argument text as the model sent it (see tool-call-tap.ts).
  const tap = tapToolCalls(input.model, (calls) => {
    inFlight = calls;
    if (onEvent) onEvent({ type: "tool-calls", index: steps.length, calls: calls.map(callAsSent) });
  });
  try {
    const options: Parameters<typeof generateText>[0] = {
      model: meteredModel(tap.model, { slot: input.slot, timing, now, onCall: input.onModelCall }),
      messages: input.messages,
      stopWhen: stepCountIs(Math.max(1, Math.floor(input.maxSteps ?? DEFAULT_MAX_STEPS))),
      maxRetries: 0,
      abortSignal: controller.signal,
      // The record keeps messages, steps and usage, not the raw HTTP bodies: a long answer is not
      // held twice (text and response body) while the trial runs.
      experimental_include: { requestBody: false, responseBody: false },
      onStepFinish: (step) => {
        const recorded = recordStep(step as StepResult<ToolSet>, warnings, tap.take);
        steps.push(recorded);
        inFlight = NO_CALLS;
        onEvent?.({ type: "step", index: steps.length - 1, step: recorded });
      },
    };
    // Optional settings are assigned, not spread in: on Node 20's V8 an object literal with spreads
    // copies its hidden class on every call, in the old generation (bench/runner.ts, issue #5).
    if (input.system) options.system = input.system;
    if (input.toolSet) {
      if (Object.keys(input.toolSet).length > 0) options.tools = input.toolSet;
    } else if (input.tools && input.tools.length > 0) options.tools = toAiSdkTools(input.tools);
    if (input.temperature !== undefined) options.temperature = input.temperature;
    if (input.maxOutputTokens !== undefined) options.maxOutputTokens = input.maxOutputTokens;
    if (input.topP !== undefined) options.topP = input.topP;
    if (input.stopSequences !== undefined) options.stopSequences = input.stopSequences;
    if (input.providerOptions !== undefined) options.providerOptions = input.providerOptions as Parameters<typeof generateText>[0]["providerOptions"];
    if (input.headers) options.headers = input.headers;
    const generation = generateText(options);
    // A model that ignores the abort signal must not hold the trial past its timeout.
    generation.catch(() => {});
    const result = await Promise.race([generation, stopped]);
    return timed(
      buildTrialRecord(steps, {
        output: result.text,
        finishReason: result.finishReason,
        latencyMs: 0,
        renderedMessages,
        responseMessages: result.response.messages as ModelMessage[],
        warnings: [...warnings],
      }),
    );
  } catch (e) {
    const error: TrialError = classifyError(e, { timedOut, aborted: aborted && !timedOut, timeoutMs });
    // The calls whose tools had not returned stay in the trace (a tool that hangs is worth seeing).
    const trace = inFlight.length > 0 ? [...steps, unfinishedStep(inFlight.map(callAsSent))] : steps;
    const record = buildTrialRecord(trace, { latencyMs: 0, renderedMessages, error, warnings: [...warnings] });
    if (timedOut) record.stoppedBy = "timeout";
    else if (aborted) record.stoppedBy = "abort";
    return timed(record);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    input.abortSignal?.removeEventListener("abort", onCallerAbort);
  }
}

/** A tool call as the model sent it, before its tool ran. */
function callAsSent(x: RawToolCall): TrialToolCall {
  return { toolCallId: x.toolCallId, toolName: x.toolName, input: argumentsAsSent(x.rawInput), rawInput: x.rawInput };
}

/** The step of calls whose tools were still running when the trial ended: no results, no usage. */
function unfinishedStep(calls: TrialToolCall[]): TrialStep {
  return { text: "", toolCalls: calls, toolResults: [], finishReason: "tool-calls", usage: zeroUsage(), unfinished: true };
}

/**
 * {@link runModelTrial} retried while it fails with a retryable error (429, 5xx, network, a reply
 * that could not be read), with exponential backoff and Retry-After (see {@link withRetries}).
 * Each attempt gets the full `timeoutMs`;
 * the caller's `abortSignal` also stops the waiting between attempts.
 * @returns the record of the last attempt, with `attempts` set. Never throws.
 */
export async function runModelTrialWithRetries(
  input: RunModelTrialInput,
  retry: Omit<RetryOptions<TrialRecord>, "failureOf" | "abortSignal"> = {},
): Promise<TrialRecord> {
  let attempts = 0;
  const record = await withRetries(
    (attempt) => {
      attempts = attempt;
      return runModelTrial(input);
    },
    { ...retry, abortSignal: input.abortSignal, failureOf: (r) => r.error },
  );
  record.attempts = attempts; // the record is this call's own object
  return record;
}
