/**
 * Custom evaluators: user JavaScript defining `evaluate(trial)`, run in the sandbox (sandbox.ts).
 *
 * `evaluate` receives `{ output, caseData, toolCalls, normalizedToolCalls, finishReason, usage }`
 * (plus `input` and `expected` from the case, when known) and returns either a boolean or
 * `{ passed: boolean, score?: number in [0, 1], message?: string | null, details?: any JSON }`.
 * A crash, a timeout, exceeding the memory cap or a result of another shape is verdict `error`
 * with a message starting "evaluator infrastructure failure: " — never a model failure.
 */
import type { CustomSpec } from "./spec";
import type { CheckResult, EvaluationTrial } from "./types";
import { failed, infraError, passed } from "./result";
import { codeHash } from "./hash";
import type { CustomEvaluatorSandbox, SandboxResult } from "./sandbox";
import { normalizedCallsOf } from "./tool-calls/normalize";
import { outputOf } from "./static/common";
import { truncateText } from "./text/truncate";

const KIND = "custom";
/** Longest message kept from a custom evaluator (returned, or what it threw), in characters; longer ones are cut, marked. */
export const MAX_CUSTOM_MESSAGE = 2_000;
/** Largest `details` kept from a custom evaluator, in characters of JSON. */
export const MAX_CUSTOM_DETAILS_JSON = 64_000;

/** The argument `evaluate` receives (JSON-serialisable). */
export interface CustomEvaluatorInput {
  output: string;
  caseData: Record<string, unknown> | null;
  toolCalls: readonly unknown[];
  normalizedToolCalls: readonly { toolName: string; input: unknown }[];
  finishReason: string | null;
  usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | null;
  /** The case input (user message), when known. */
  input?: string;
  /** The case's expected result, when known. */
  expected?: string;
}

/** Builds the argument passed to `evaluate` from a trial. */
export function customEvaluatorInput(trial: EvaluationTrial): CustomEvaluatorInput {
  const input: CustomEvaluatorInput = {
    output: outputOf(trial),
    caseData: trial.caseData ?? null,
    toolCalls: trial.toolCalls ?? [],
    normalizedToolCalls: normalizedCallsOf(trial).map((c) => ({ toolName: c.toolName, input: c.input })),
    finishReason: trial.finishReason ?? null,
    usage: trial.usage ?? null,
  };
  if (trial.context?.input !== undefined) input.input = trial.context.input;
  if (trial.context?.expected !== undefined) input.expected = trial.context.expected;
  return input;
}

const SHAPE = "expected a boolean or an object { passed: boolean, score?: number from 0 to 1, message?: string, details?: object }";

function describeReturned(value: unknown): string {
  if (value === undefined) return "nothing (undefined)";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object")
    return `an object with keys ${
      Object.keys(value as object)
        .slice(0, 6)
        .map((k) => `"${k}"`)
        .join(", ") || "(none)"
    }`;
  const s = JSON.stringify(value);
  return `${typeof value === "string" ? "a string" : `a ${typeof value}`} (${s.length > 40 ? s.slice(0, 39) + "…" : s})`;
}

/**
 * Turns what `evaluate` returned into a check result.
 * @param value the JSON-decoded return value
 * @param extra details recorded with the result (code hash, timing, logs)
 */
export function interpretCustomResult(value: unknown, extra: Record<string, unknown>): CheckResult {
  if (typeof value === "boolean")
    return value ? passed(KIND, "The custom evaluator returned true.", extra) : failed(KIND, "The custom evaluator returned false.", extra);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return infraError(KIND, `evaluate returned ${describeReturned(value)}; ${SHAPE}`, extra);
  const r = value as Record<string, unknown>;
  if (typeof r.passed !== "boolean")
    return infraError(
      KIND,
      `evaluate returned ${describeReturned(value)} whose "passed" is ${r.passed === undefined ? "missing" : describeReturned(r.passed)}; ${SHAPE}`,
      extra,
    );
  let score = r.passed ? 1 : 0;
  if (r.score !== undefined && r.score !== null) {
    if (typeof r.score !== "number" || !Number.isFinite(r.score) || r.score < 0 || r.score > 1)
      return infraError(KIND, `evaluate returned score ${describeReturned(r.score)}; the score must be a number from 0 to 1`, extra);
    score = r.score;
  }
  if (r.message !== undefined && r.message !== null && typeof r.message !== "string")
    return infraError(KIND, `evaluate returned message ${describeReturned(r.message)}; the message must be a string`, extra);
  const given =
    typeof r.message === "string" && r.message.trim() !== ""
      ? r.message
      : r.passed
        ? "The custom evaluator passed the trial."
        : "The custom evaluator failed the trial.";
  const message = truncateText(given, MAX_CUSTOM_MESSAGE);
  const details: Record<string, unknown> = { ...extra };
  if (r.details !== undefined) {
    const json = JSON.stringify(r.details) ?? "null";
    details.evidence = json.length > MAX_CUSTOM_DETAILS_JSON ? { truncated: true, preview: json.slice(0, 2_000) } : r.details;
  }
  return r.passed ? passed(KIND, message, details, score) : failed(KIND, message, details, score);
}

/**
 * Says why a sandbox call failed, in words for a check message (e.g. "evaluate threw TypeError: …",
 * "timed out after 5000 ms", "exceeded the sandbox memory cap (…)").
 */
export function describeSandboxFailure(result: Extract<SandboxResult, { ok: false }>): string {
  switch (result.failure) {
    case "timeout":
      return result.message;
    case "memory":
      return `exceeded the sandbox memory cap (${result.message})`;
    case "compile":
      return `the code could not be compiled: ${result.message}`;
    case "crash":
      return result.message.startsWith("the code threw while loading") ? result.message : `evaluate threw ${result.message}`;
    default:
      return result.message;
  }
}

/**
 * Runs a custom evaluator on a trial.
 * @param spec the `custom` spec (its code is hashed and recorded as `details.codeHash`)
 * @param trial the completed trial
 * @param sandbox where to run (see sandbox.ts)
 * @param options.timeoutMs deadline override for this call
 * @returns the check result; never throws (sandbox failures become `error`)
 */
export async function runCustomCheck(
  spec: CustomSpec,
  trial: EvaluationTrial,
  sandbox: CustomEvaluatorSandbox,
  options: { timeoutMs?: number } = {},
): Promise<CheckResult> {
  const hash = codeHash(spec.code);
  const base: Record<string, unknown> = { codeHash: hash, isolation: sandbox.isolation };
  if (spec.name) base.name = spec.name;
  let result: SandboxResult;
  try {
    result = await sandbox.run(spec.code, customEvaluatorInput(trial), options);
  } catch (e) {
    return infraError(KIND, `the sandbox failed: ${(e as Error).message}`, base);
  }
  const extra: Record<string, unknown> = { ...base, durationMs: Math.round(result.durationMs * 1000) / 1000 };
  if (result.logs.length > 0) extra.logs = result.logs;
  if (!result.ok) return infraError(KIND, truncateText(describeSandboxFailure(result), MAX_CUSTOM_MESSAGE), { ...extra, failure: result.failure });
  return interpretCustomResult(result.value, extra);
}
