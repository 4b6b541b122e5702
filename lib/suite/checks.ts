/**
 * Scoring a case's trial (issue #6 runner contract) with the app's evaluator core, so semantics are
 * identical to benches:
 * - `evaluate` declarations → lib/evaluators `runChecks` (static, sandboxed custom, judge specs);
 * - an `evaluate` function → the injected {@link FunctionEvaluatorRunner} (the QuickJS evaluator
 *   sandbox in the shell), its answer read by lib/evaluators `interpretCustomResult` (same result rules as the app's
 *   custom evaluators);
 * - `criteria` → a `judge` spec (mode, threshold) run by `runChecks` with the case's own judge model
 *   (`judgeModelOf`) or the run's;
 * - `expectedToolCalls` → an `expected_tool_calls` spec (`allowAdditional`).
 *
 * A check whose verdict is `error` (infrastructure or configuration) or `unscored` sets its
 * `…Passed` to null and adds an error (`evaluator: …`, `judge: …`, `reliability: …`) — never a
 * guessed pass or fail, never counted as a model failure.
 */
import type { LanguageModel } from "ai";
import { customEvaluatorInput, interpretCustomResult } from "@/lib/evaluators/custom";
import { runChecks, type RunChecksOptions } from "@/lib/evaluators/registry";
import { infraError } from "@/lib/evaluators/result";
import type { SandboxFailure } from "@/lib/evaluators/sandbox";
import type { EvaluatorSpec, ExpectedToolCallsSpec, JudgeSpec } from "@/lib/evaluators/spec";
import type { CheckResult, EvaluationTrial } from "@/lib/evaluators/types";
import type { TrialRecord } from "@/lib/runtime/trial-record";
import type { EvaluatorInput, FunctionEvaluatorRef, ReleaseCase } from "./types";
import { NO_VERDICTS } from "./result";

/**
 * What a function evaluator run produced: the returned value, or why there is none (`load`: no
 * compiled code; `host`: the sandbox failed; the others are the sandbox's failures: `timeout`,
 * `memory`, `crash`, `unserializable`, …). `logs`: the function's captured `console` output.
 */
export type FunctionEvaluatorOutcome =
  | { ok: true; value: unknown; durationMs: number; logs?: string[] }
  | { ok: false; failure: "load" | "host" | SandboxFailure; message: string; durationMs?: number; logs?: string[] };

/** Runs an `evaluate` function of an eval module on one trial (in the evaluator sandbox: see server/suite/function-evaluator.ts). */
export type FunctionEvaluatorRunner = (ref: FunctionEvaluatorRef, input: EvaluatorInput) => Promise<FunctionEvaluatorOutcome>;

/** The check part of a case result (see `CaseResult`), plus the errors to join into `error`. */
export interface CaseVerdicts {
  judgePassed: boolean | null;
  judgeReason: string | null;
  judgeScore: number | null;
  reliabilityPassed: boolean | null;
  evaluatorPassed: boolean | null;
  evaluatorScore: number | null;
  evaluatorMessage: string | null;
  /** The evidence an `evaluate` function (or `custom` evaluator) returned; null when none. */
  evaluatorDetails: unknown;
  /** Prefixed error messages (`evaluator: …`, `judge: …`, `reliability: …`). */
  errors: string[];
  /** Every check result, in order: evaluators, function, judge, reliability. */
  checks: CheckResult[];
}

/** Options of {@link createChecker}. */
export interface CheckerOptions {
  /** Judge model for `criteria`; null/absent → judge checks are not scored (an error says so). */
  judgeModel?: LanguageModel | null;
  /** A case's own judge model (its `judgeModel` block, built by the shell); undefined → {@link CheckerOptions.judgeModel}. */
  judgeModelOf?: (c: ReleaseCase) => LanguageModel | undefined;
  /** Runs `evaluate` functions; absent → a case with one gets an evaluator error. */
  functionEvaluator?: FunctionEvaluatorRunner;
  /** Sandbox and custom-code deadline for declarative `custom` specs (see lib/evaluators `runChecks`). */
  runChecks?: Omit<RunChecksOptions, "judge">;
}

/** Scores one case's trial. Never rejects. */
export type CaseChecker = (c: ReleaseCase, trial: TrialRecord, opts?: { abortSignal?: AbortSignal }) => Promise<CaseVerdicts>;

/** The judge spec of a case's `criteria` (threshold only in numeric mode). */
export function judgeSpecOf(c: Pick<ReleaseCase, "criteria" | "judgeMode" | "judgeThreshold">): JudgeSpec | null {
  if (c.criteria === null) return null;
  return c.judgeMode === "numeric"
    ? { kind: "judge", criterion: { rule: c.criteria }, mode: "numeric", threshold: c.judgeThreshold }
    : { kind: "judge", criterion: { rule: c.criteria }, mode: "binary" };
}

/** The `expected_tool_calls` spec of a case, or null. */
export function reliabilitySpecOf(c: Pick<ReleaseCase, "expectedToolCalls" | "allowAdditionalToolCalls">): ExpectedToolCallsSpec | null {
  if (c.expectedToolCalls === null) return null;
  return { kind: "expected_tool_calls", names: c.expectedToolCalls, allowAdditional: c.allowAdditionalToolCalls };
}

/** The trial as evaluators see it (output, case data, tool calls, finish reason, usage, case context). */
export function evaluationTrialOf(c: ReleaseCase, trial: TrialRecord): EvaluationTrial {
  return {
    output: trial.output,
    caseData: c.data,
    toolCalls: trial.toolCalls,
    normalizedToolCalls: trial.normalizedToolCalls,
    finishReason: trial.finishReason,
    usage: trial.usage,
    context: {
      input: c.prompt,
      ...(c.expected !== null ? { expected: c.expected } : {}),
      tools: c.tools,
      ...(c.systemPrompt !== null ? { systemPrompt: c.systemPrompt } : {}),
    },
  };
}

function isScored(r: CheckResult): boolean {
  return r.verdict === "passed" || r.verdict === "failed";
}

function notScored(r: CheckResult): string {
  return r.verdict === "unscored" ? `not scored: ${r.message}` : r.message;
}

async function runFunction(ref: FunctionEvaluatorRef, trial: EvaluationTrial, runner: FunctionEvaluatorRunner | undefined): Promise<CheckResult> {
  const base = { module: ref.module, exportPath: ref.exportPath, sha256: ref.sha256 };
  if (!runner) return { ...infraError("function", "no runner for evaluate functions is configured", base), kind: "function" };
  let outcome: FunctionEvaluatorOutcome;
  try {
    outcome = await runner(ref, customEvaluatorInput(trial));
  } catch (e) {
    outcome = { ok: false, failure: "host", message: (e as Error).message };
  }
  const logs = outcome.logs && outcome.logs.length > 0 ? { logs: outcome.logs } : {};
  const durationMs = outcome.durationMs === undefined ? {} : { durationMs: Math.round(outcome.durationMs * 1000) / 1000 };
  if (!outcome.ok)
    return {
      ...infraError("function", `${ref.module} ${ref.exportPath}: ${outcome.message}`, { ...base, ...durationMs, ...logs, failure: outcome.failure }),
      kind: "function",
    };
  return { ...interpretCustomResult(outcome.value, { ...base, ...durationMs, ...logs }), kind: "function" };
}

/**
 * Creates the checker of a run.
 * @returns a {@link CaseChecker}: runs the case's checks on its trial and maps them to the result fields
 */
export function createChecker(options: CheckerOptions = {}): CaseChecker {
  return async (c, trial, opts = {}) => {
    const evalTrial = evaluationTrialOf(c, trial);
    const judge = judgeSpecOf(c);
    const reliability = reliabilitySpecOf(c);
    const specs: EvaluatorSpec[] = [...c.evaluators, ...(judge ? [judge] : []), ...(reliability ? [reliability] : [])];
    const [results, fnResult] = await Promise.all([
      specs.length > 0
        ? runChecks(specs, evalTrial, {
            ...options.runChecks,
            judge: {
              model: (judge ? options.judgeModelOf?.(c) : undefined) ?? options.judgeModel ?? null,
              ...(opts.abortSignal ? { abortSignal: opts.abortSignal } : {}),
            },
          })
        : Promise.resolve([] as CheckResult[]),
      c.evaluatorFunction ? runFunction(c.evaluatorFunction, evalTrial, options.functionEvaluator) : Promise.resolve(null),
    ]);
    const evaluatorResults = results.slice(0, c.evaluators.length);
    if (fnResult) evaluatorResults.push(fnResult);
    const judgeResult = judge ? results[c.evaluators.length] : null;
    const reliabilityResult = reliability ? results[c.evaluators.length + (judge ? 1 : 0)] : null;
    const errors: string[] = [];

    const v: CaseVerdicts = {
      ...NO_VERDICTS,
      errors,
      checks: [...evaluatorResults, ...(judgeResult ? [judgeResult] : []), ...(reliabilityResult ? [reliabilityResult] : [])],
    };

    if (evaluatorResults.length > 0) {
      const unscoredOnes = evaluatorResults.filter((r) => !isScored(r));
      for (const r of unscoredOnes) errors.push(`evaluator: ${r.kind}: ${notScored(r)}`);
      const scored = evaluatorResults.filter(isScored);
      const failedOnes = scored.filter((r) => r.verdict === "failed");
      v.evaluatorPassed = unscoredOnes.length > 0 ? null : failedOnes.length === 0;
      v.evaluatorScore = scored.length > 0 ? scored.reduce((s, r) => s + r.score, 0) / scored.length : null;
      const shown = failedOnes.length > 0 ? failedOnes : unscoredOnes.length > 0 ? unscoredOnes : scored;
      v.evaluatorMessage = shown.map((r) => r.message).join("; ") || null;
      // interpretCustomResult keeps what the function returned as `details` under `evidence`.
      const withEvidence = scored.find((r) => r.details?.evidence !== undefined);
      v.evaluatorDetails = withEvidence ? withEvidence.details!.evidence : null;
    }
    if (judgeResult) {
      v.judgeReason = judgeResult.message;
      const score = (judgeResult.details?.judge as { score?: unknown } | undefined)?.score;
      v.judgeScore = typeof score === "number" ? score : null;
      if (isScored(judgeResult)) v.judgePassed = judgeResult.verdict === "passed";
      else errors.push(`judge: ${notScored(judgeResult)}`);
    }
    if (reliabilityResult) {
      if (isScored(reliabilityResult)) v.reliabilityPassed = reliabilityResult.verdict === "passed";
      else errors.push(`reliability: ${notScored(reliabilityResult)}`);
    }
    return v;
  };
}
