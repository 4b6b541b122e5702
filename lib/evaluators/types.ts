/**
 * Shared types of the evaluator core: what a check receives (a completed trial) and what it
 * returns (a check result). Pure types, no runtime code; safe to import from UI code.
 *
 * Words follow DESIGN.md §1: a *check* is one evaluator or criterion applied to one *trial*; its
 * *verdict* is `passed`, `failed`, `unscored` (cannot be observed) or `error` (infrastructure or
 * configuration failure, never counted as a model failure).
 */
import type { Turn } from "@/lib/library/case-content";

/** The four verdicts a check can have (DESIGN.md §1, "check"). */
export const VERDICTS = ["passed", "failed", "unscored", "error"] as const;

/**
 * Verdict of one check.
 * - `passed` / `failed`: the trial was scored.
 * - `unscored`: the check cannot be observed on this trial (e.g. no judge model configured, or the
 *   judge says a tool-use rule does not apply to a case without tools). Never a guessed result.
 * - `error`: the evaluator could not run (bad configuration, sandbox crash or timeout, judge failure).
 *   Never counted as a model failure.
 */
export type Verdict = (typeof VERDICTS)[number];

/**
 * Result of one check.
 * - `score`: a number in [0, 1]. Static evaluators give 1 (passed) or 0 (failed); custom evaluators
 *   may give any value in [0, 1]; numeric judges give `score / 10`. For `unscored` and `error` the
 *   score is always 0 and must not be averaged: aggregate by verdict (scored checks only).
 * - `message`: why, in words a user understands; shows the difference when a comparison fails.
 * - `details`: optional JSON-serialisable evidence (extracted answer, matched alternative, judge
 *   prompt and model id, ...).
 */
export interface CheckResult {
  /** Evaluator kind that produced the result (`exact`, `gsm8k`, `custom`, `judge`, ...), or `unknown`. */
  kind: string;
  verdict: Verdict;
  /** Score in [0, 1]; 0 for `unscored` and `error`. */
  score: number;
  message: string;
  details?: Record<string, unknown>;
}

/** Token usage of a trial, in tokens (as reported by the provider; absent when unknown). */
export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}

/**
 * A tool call in one common shape, whatever shape the model or dataset used.
 * `input` holds the parsed arguments: usually a JSON object; an argument string that could not be
 * parsed as JSON stays a string and `argumentsError` says why.
 */
export interface NormalizedToolCall {
  toolName: string;
  input: unknown;
  /** The call id when the source had one (`toolCallId` or OpenAI `id`). */
  toolCallId?: string;
  /** Set when the arguments were a string that is not valid JSON: the parser's message. */
  argumentsError?: string;
}

/**
 * Context of the case a trial ran, used by evaluators whose expected value comes from the case
 * (e.g. `{ kind: "exact" }` without `expected`) and shown to judge models.
 * Fields mirror `CaseContent` (lib/library/case-content.ts).
 */
export interface TrialCaseContext {
  /** The user message sent to the model. */
  input?: string;
  /** The case's expected result (text). */
  expected?: string;
  /** Conversation turns replayed before the input. */
  history?: readonly Turn[];
  /** Names of the tools the case made available to the model (empty or absent: no tools). */
  tools?: readonly string[];
  /** The rendered system prompt, when known. */
  systemPrompt?: string;
}

/**
 * A completed trial as evaluators see it (issue 4).
 * - `output`: final text of the model (null/undefined is read as "").
 * - `caseData`: the case's private JSON data for custom evaluators.
 * - `toolCalls`: tool calls exactly as the model (or the recorded dataset) sent them.
 * - `normalizedToolCalls`: `{ toolName, input }` with JSON-string arguments parsed; computed with
 *   `normalizeToolCalls(toolCalls)` when absent.
 * - `finishReason`: e.g. `stop`, `length`, `tool-calls`.
 * - `usage`: token counts.
 * - `context`: case context (input, expected result, history, tools) for judges and defaults.
 */
export interface EvaluationTrial {
  output: string | null | undefined;
  caseData?: Record<string, unknown> | null;
  toolCalls?: readonly unknown[] | null;
  normalizedToolCalls?: readonly NormalizedToolCall[] | null;
  finishReason?: string | null;
  usage?: TokenUsage | null;
  context?: TrialCaseContext;
}

/** One configuration problem found when a case is saved: spec index, field path and message. */
export interface SpecProblem {
  /** Index of the evaluator spec in the list that was validated. */
  index: number;
  /** Dotted path of the offending field inside that spec, e.g. `alternatives[0].calls[1].toolName`; "" for the spec itself. */
  field: string;
  /** What is wrong and how to fix it. */
  message: string;
}
