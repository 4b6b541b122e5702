/**
 * The single entry point of the evaluator core: run every check of a trial.
 *
 * - {@link runStaticCheck}: one static spec, synchronously (compiled once per spec object).
 * - {@link runChecks}: any specs — static, custom (sandbox) and judge (model) — for one trial.
 * - {@link validateEvaluatorSpecsDeep}: save-time validation including a sandbox load of custom code.
 *
 * Configuration mistakes that reach a bench become verdict `error` (message starting
 * "evaluator configuration error: "), never a model failure.
 */
import type { CheckResult, EvaluationTrial, SpecProblem } from "./types";
import { isStaticSpec, type EvaluatorSpec, type StaticSpec } from "./spec";
import { configError, errorResult, infraError } from "./result";
import { intrinsicProblems, parseEvaluatorSpec, validateEvaluatorSpecs, type SpecContext } from "./validate";
import type { StaticRunner } from "./static/common";
import { compileNonEmpty } from "./static/non-empty";
import { compileExact } from "./static/exact";
import { compileContains } from "./static/contains";
import { compileAnswerBank } from "./static/answer-bank";
import { compileGsm8k } from "./static/gsm8k";
import { compileRegex } from "./static/regex";
import { compileJson } from "./static/json";
import { compileToolCallSyntax } from "./static/tool-call-syntax";
import { compileExpectedToolCalls } from "./static/expected-tool-calls";
import { runCustomCheck } from "./custom";
import { runJudgeCheck, type JudgeOptions } from "./judge/judge";
import { getSharedSandbox, type CustomEvaluatorSandbox } from "./sandbox";

function kindOf(spec: unknown): string {
  const k = typeof spec === "object" && spec !== null ? (spec as { kind?: unknown }).kind : undefined;
  return typeof k === "string" ? k : "unknown";
}

function compileByKind(spec: StaticSpec): StaticRunner {
  switch (spec.kind) {
    case "non_empty":
      return compileNonEmpty(spec);
    case "exact":
      return compileExact(spec);
    case "contains":
      return compileContains(spec);
    case "answer_bank":
      return compileAnswerBank(spec);
    case "gsm8k":
      return compileGsm8k(spec);
    case "regex":
      return compileRegex(spec);
    case "json":
      return compileJson(spec);
    case "tool_call_syntax":
      return compileToolCallSyntax(spec);
    case "expected_tool_calls":
      return compileExpectedToolCalls(spec);
  }
}

/**
 * Compiles a static spec into a reusable runner. Invalid specs compile into a runner that returns a
 * configuration `error`; `custom` and `judge` specs into one that returns an `error` saying they
 * need {@link runChecks}. Never throws.
 * @param spec a stored spec (unknown JSON)
 * @returns a synchronous function of the trial
 */
export function compileStaticCheck(spec: unknown): StaticRunner {
  const kind = kindOf(spec);
  const parsed = parseEvaluatorSpec(spec);
  if (!parsed.ok) {
    const problem = parsed.problems.map((p) => p.message).join("; ");
    return () => configError(kind, problem);
  }
  if (!isStaticSpec(parsed.spec)) {
    return () => errorResult(kind, `"${kind}" is not a static evaluator: run it with runChecks`);
  }
  const problems = intrinsicProblems(parsed.spec);
  if (problems.length > 0) {
    const problem = problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join("; ");
    return () => configError(kind, problem);
  }
  return compileByKind(parsed.spec);
}

const compiled = new WeakMap<object, StaticRunner>();

/**
 * Runs one static evaluator on a trial, synchronously.
 * The compiled form is cached per spec object, so treat specs as immutable once used.
 * @param spec a static spec (`non_empty`, `exact`, `contains`, `answer_bank`, `gsm8k`, `regex`,
 *   `json`, `tool_call_syntax`, `expected_tool_calls`), as stored
 * @param trial the completed trial
 * @returns the check result; never throws (bad specs and internal faults are `error`)
 */
export function runStaticCheck(spec: unknown, trial: EvaluationTrial): CheckResult {
  let runner = typeof spec === "object" && spec !== null ? compiled.get(spec) : undefined;
  if (!runner) {
    runner = compileStaticCheck(spec);
    if (typeof spec === "object" && spec !== null) compiled.set(spec, runner);
  }
  try {
    return runner(trial);
  } catch (e) {
    return errorResult(kindOf(spec), `the evaluator failed unexpectedly: ${(e as Error).message}`);
  }
}

/** Options of {@link runChecks}. */
export interface RunChecksOptions {
  /** Judge model and call settings; without a model, judge checks are `unscored` ("no judge model configured"). */
  judge?: JudgeOptions;
  /**
   * Sandbox for custom evaluators, or a function that starts one (called only when a custom check
   * runs; a rejection makes each custom check an infrastructure `error`). Default: the shared
   * process-wide sandbox.
   */
  sandbox?: CustomEvaluatorSandbox | (() => Promise<CustomEvaluatorSandbox>);
  /** Deadline per custom-evaluator call in ms (default: the sandbox's, 5,000 ms). */
  customTimeoutMs?: number;
}

/**
 * Runs every check of one trial: static specs in-process, custom specs in the sandbox, judge specs
 * through the judge model (concurrently).
 * @param specs the case's evaluator specs plus the pinned rubric's judge specs, as stored
 * @param trial the completed trial
 * @param options judge model, sandbox, custom deadline
 * @returns one result per spec, in the same order; never rejects
 */
export async function runChecks(specs: readonly unknown[], trial: EvaluationTrial, options: RunChecksOptions = {}): Promise<CheckResult[]> {
  let sandbox: Promise<CustomEvaluatorSandbox> | undefined;
  const given = options.sandbox;
  const getSandbox = () => (sandbox ??= typeof given === "function" ? given() : given ? Promise.resolve(given) : getSharedSandbox());
  return Promise.all(
    specs.map(async (raw): Promise<CheckResult> => {
      const kind = kindOf(raw);
      if (kind !== "custom" && kind !== "judge") return runStaticCheck(raw, trial);
      const parsed = parseEvaluatorSpec(raw);
      if (!parsed.ok) return configError(kind, parsed.problems.map((p) => p.message).join("; "));
      const problems = intrinsicProblems(parsed.spec);
      if (problems.length > 0) return configError(kind, problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join("; "));
      const spec = parsed.spec as EvaluatorSpec;
      try {
        if (spec.kind === "custom") {
          let box: CustomEvaluatorSandbox;
          try {
            box = await getSandbox();
          } catch (e) {
            return infraError(kind, `the sandbox could not start: ${(e as Error).message}`);
          }
          return await runCustomCheck(spec, trial, box, { timeoutMs: options.customTimeoutMs });
        }
        if (spec.kind === "judge") return await runJudgeCheck(spec, trial, options.judge);
        return runStaticCheck(spec, trial);
      } catch (e) {
        return errorResult(kind, `the evaluator failed unexpectedly: ${(e as Error).message}`);
      }
    }),
  );
}

/**
 * Save-time validation including custom code: {@link validateEvaluatorSpecs} plus, for each valid
 * `custom` spec, loading its code in the sandbox (syntax errors, top-level exceptions, no
 * `evaluate` function).
 * @param specs the `evaluators` list as stored
 * @param context the case's expected result (see {@link validateEvaluatorSpecs})
 * @param sandbox where to load custom code (default: the shared sandbox)
 * @returns every problem found; never rejects (a sandbox that cannot start is reported as a problem)
 */
export async function validateEvaluatorSpecsDeep(specs: unknown, context?: SpecContext, sandbox?: CustomEvaluatorSandbox): Promise<SpecProblem[]> {
  const problems = validateEvaluatorSpecs(specs, context);
  if (!Array.isArray(specs)) return problems;
  const flagged = new Set(problems.map((p) => p.index));
  for (let index = 0; index < specs.length; index++) {
    if (flagged.has(index) || kindOf(specs[index]) !== "custom") continue;
    let box: CustomEvaluatorSandbox;
    try {
      box = sandbox ?? (await getSharedSandbox());
    } catch (e) {
      problems.push({ index, field: "code", message: `the code could not be checked: the sandbox could not start (${(e as Error).message})` });
      continue;
    }
    const message = await box.checkCode((specs[index] as { code: string }).code);
    if (message) problems.push({ index, field: "code", message });
  }
  return problems;
}
