/**
 * The agent between a case and the model (issue #6 runner contract): one ai SDK `generateText`
 * loop that exposes only the case's tools (the benchmark's own `tool()` definitions, whose
 * `execute` runs in-process: they are the user's tools), forwards the model's tool calls to them,
 * returns their results to the model, and records the trace as a {@link TrialRecord} — the same
 * shape lib/runtime records for benches, so the evaluators see identical trials. Tool calls keep
 * the arguments the model sent (`input`, `rawInput`), not only what the tool's schema let through
 * (`parsedInput`).
 *
 * Timeouts are the runner's job: it aborts `abortSignal`. The agent never throws: a failed call is
 * a record with `error` set (classified by lib/runtime `classifyError`).
 */
import { generateText, stepCountIs, type LanguageModel, type ModelMessage, type StepResult, type ToolSet } from "ai";
import { classifyError } from "@/lib/runtime/errors";
import { argumentsAsSent, tapToolCalls } from "@/lib/runtime/tool-call-tap";
import { buildTrialRecord, recordStep, type TrialRecord, type TrialStep, type TrialToolCall } from "@/lib/runtime/trial-record";
import type { ReleaseCase } from "./types";

/** Default number of model calls per case (tool rounds + final answer). */
export const DEFAULT_AGENT_MAX_STEPS = 5;

/**
 * An event of a running case (the runner's partial trace, and the `onRunEvent` presentation hook):
 * - `tool-calls`: the model asked for these calls, reported as its answer arrives — before the
 *   tools run, so a call whose tool never returns is still known when the case times out;
 * - `step`: a model call finished (its tools have returned).
 * `index` is the 0-based number of the model call in this case.
 */
export type RunEvent = { type: "tool-calls"; index: number; calls: TrialToolCall[] } | { type: "step"; index: number; step: TrialStep };

/** Options of {@link createAgent}. */
export interface AgentOptions {
  /** The model under test (from `createModel`, or a mock in tests). */
  model: LanguageModel;
  /** Every tool of the benchmark by name; each case sees only the ones it lists. */
  tools: ToolSet;
  /** Default most model calls per case when the case sets no `maxSteps`. Default {@link DEFAULT_AGENT_MAX_STEPS}. */
  maxSteps?: number;
  /** Default temperature when the case sets none; omitted from the request when undefined. */
  temperature?: number;
  /** Most output tokens per model call; omitted when undefined. */
  maxOutputTokens?: number;
  /** Clock in ms for `latencyMs`. Default `performance.now`. */
  now?: () => number;
}

/** What the runner passes to an agent for one case. */
export interface AgentCall {
  abortSignal: AbortSignal;
  onEvent?: (event: RunEvent) => void;
}

/** Runs one case through the model and returns its trial record. Never rejects. */
export type AgentRunner = (c: ReleaseCase, call: AgentCall) => Promise<TrialRecord>;

/**
 * The tools a case exposes: the named ones, in the case's order.
 * @param all every tool of the benchmark
 * @param names the case's tool names (compile has checked they exist; unknown names are skipped)
 * @returns a ToolSet, or undefined when the case exposes none
 */
export function caseToolSet(all: ToolSet, names: readonly string[]): ToolSet | undefined {
  if (names.length === 0) return undefined;
  const set: ToolSet = {};
  for (const n of names) if (Object.prototype.hasOwnProperty.call(all, n)) set[n] = all[n];
  return Object.keys(set).length > 0 ? set : undefined;
}

/**
 * Creates the agent: for each case, `generateText` with the case's system prompt and prompt, its
 * tools, `stopWhen: stepCountIs(maxSteps)` and the SDK's retries off.
 * @returns an {@link AgentRunner}
 */
export function createAgent(options: AgentOptions): AgentRunner {
  const now = options.now ?? (() => performance.now());
  return async (c, call) => {
    const messages: ModelMessage[] = [{ role: "user", content: c.prompt }];
    const renderedMessages: ModelMessage[] = c.systemPrompt ? [{ role: "system", content: c.systemPrompt }, ...messages] : [...messages];
    const steps: TrialStep[] = [];
    const started = now();
    if (call.abortSignal.aborted) {
      return buildTrialRecord(steps, { latencyMs: 0, renderedMessages, error: classifyError(call.abortSignal.reason, { aborted: true }) });
    }
    const temperature = c.temperature ?? options.temperature;
    // The tap keeps each call's arguments as the model sent them: the tools' zod schemas may drop
    // keys before the SDK reports the call (see lib/runtime/tool-call-tap.ts).
    const tap = tapToolCalls(options.model, (calls) =>
      call.onEvent?.({
        type: "tool-calls",
        index: steps.length,
        calls: calls.map((x) => ({ toolCallId: x.toolCallId, toolName: x.toolName, input: argumentsAsSent(x.rawInput), rawInput: x.rawInput })),
      }),
    );
    try {
      const tools = caseToolSet(options.tools, c.tools);
      const result = await generateText({
        model: tap.model,
        ...(c.systemPrompt ? { system: c.systemPrompt } : {}),
        messages,
        ...(tools ? { tools } : {}),
        stopWhen: stepCountIs(Math.max(1, c.maxSteps ?? options.maxSteps ?? DEFAULT_AGENT_MAX_STEPS)),
        maxRetries: 0,
        abortSignal: call.abortSignal,
        ...(temperature !== undefined && temperature !== null ? { temperature } : {}),
        ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
        onStepFinish: (step) => {
          const converted = recordStep(step as StepResult<ToolSet>, undefined, tap.take);
          steps.push(converted);
          call.onEvent?.({ type: "step", index: steps.length - 1, step: converted });
        },
      });
      return buildTrialRecord(steps, {
        output: result.text,
        finishReason: result.finishReason,
        latencyMs: now() - started,
        renderedMessages,
        responseMessages: result.response.messages as ModelMessage[],
      });
    } catch (e) {
      return buildTrialRecord(steps, { latencyMs: now() - started, renderedMessages, error: classifyError(e, { aborted: call.abortSignal.aborted }) });
    }
  };
}
