/**
 * The agent between a case and the model (issue #6 runner contract): a case run through the one
 * trial engine of benches and suites (lib/runtime `runModelTrial`, issue #20). It exposes only the
 * case's tools (the benchmark's own `tool()` definitions, whose `execute` runs in-process: they are
 * the user's tools), forwards the model's tool calls to them, returns their results to the model,
 * and records the trace as the same {@link TrialRecord} benches store, so the evaluators see
 * identical trials. Tool calls keep the arguments the model sent (`input`, `rawInput`), not only
 * what the tool's schema let through (`parsedInput`).
 *
 * The case's timeout and the suite's cancellation are the trial engine's: it ends the trial at the
 * deadline (error kind `timeout`) or on the signal (`aborted`) even when the model or a tool
 * ignores the abort, keeping the calls whose tools were still running. The agent never throws: a
 * failed call is a record with `error` set (classified by lib/runtime `classifyError`).
 */
import type { LanguageModel, ToolSet } from "ai";
import { DEFAULT_MAX_STEPS, runModelTrial, type RunModelTrialInput, type TrialEvent } from "@/lib/runtime/run-trial";
import type { TrialRecord } from "@/lib/runtime/trial-record";
import type { ReleaseCase } from "./types";

/** Default number of model calls per case (tool rounds + final answer): the trial engine's. */
export const DEFAULT_AGENT_MAX_STEPS = DEFAULT_MAX_STEPS;

/**
 * An event of a running case (the `onRunEvent` presentation hook): the trial engine's
 * {@link TrialEvent} — `tool-calls` as the model's answer arrives (before the tools run), `step`
 * when a model call finished; `index` is the 0-based number of the model call in this case.
 */
export type RunEvent = TrialEvent;

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
  /** Clock in ms for the record's times. Default `performance.now`. */
  now?: () => number;
}

/** What the runner passes to an agent for one case. */
export interface AgentCall {
  /** The suite's cancellation: the trial ends `aborted`. */
  abortSignal: AbortSignal;
  /** The case's time budget in ms: the trial ends `timeout` after it. `0` or absent = no timeout. */
  timeoutMs?: number;
  onEvent?: (event: RunEvent) => void;
}

/**
 * Runs one case through the model and returns its trial record; ends by `timeoutMs` and on
 * `abortSignal` (see {@link AgentCall}). Never rejects.
 */
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
 * Creates the agent: for each case, `runModelTrial` with the case's system prompt and prompt, its
 * tools, its `maxSteps` and `temperature` (else the agent's), no retries.
 * @returns an {@link AgentRunner}
 */
export function createAgent(options: AgentOptions): AgentRunner {
  return (c, call) => {
    const input: RunModelTrialInput = {
      model: options.model,
      system: c.systemPrompt ?? "",
      messages: [{ role: "user", content: c.prompt }],
      timeoutMs: call.timeoutMs ?? 0,
      abortSignal: call.abortSignal,
    };
    const tools = caseToolSet(options.tools, c.tools);
    if (tools) input.toolSet = tools;
    const maxSteps = c.maxSteps ?? options.maxSteps;
    if (maxSteps !== undefined) input.maxSteps = maxSteps;
    const temperature = c.temperature ?? options.temperature;
    if (temperature !== undefined) input.temperature = temperature;
    if (options.maxOutputTokens !== undefined) input.maxOutputTokens = options.maxOutputTokens;
    if (options.now) input.now = options.now;
    if (call.onEvent) input.onEvent = call.onEvent;
    return runModelTrial(input);
  };
}
