/**
 * Benchwork evaluator core (issue 4): static evaluators, the custom-evaluator sandbox, judge
 * criteria and one registry. Pure: no next/*, react, db/*, process.env or fs.
 *
 * Server code imports from here. UI (client) code should import the light files directly —
 * `@/lib/evaluators/spec`, `@/lib/evaluators/describe`, `@/lib/evaluators/validate` — because this
 * barrel also pulls in the sandbox (worker threads, WebAssembly) and the ai SDK.
 */
export type { CheckResult, Verdict, EvaluationTrial, NormalizedToolCall, TokenUsage, TrialCaseContext, SpecProblem } from "./types";
export { VERDICTS } from "./types";
export {
  evaluatorSpecSchema,
  nonEmptySpecSchema,
  exactSpecSchema,
  containsSpecSchema,
  answerBankSpecSchema,
  gsm8kSpecSchema,
  regexSpecSchema,
  jsonSpecSchema,
  toolCallSyntaxSpecSchema,
  expectedToolCallsSpecSchema,
  customSpecSchema,
  judgeSpecSchema,
  criterionSchema,
  EVALUATOR_KINDS,
  SPEC_DEFAULTS,
  isStaticSpec,
} from "./spec";
export type {
  EvaluatorSpec,
  EvaluatorKind,
  StaticSpec,
  NonEmptySpec,
  ExactSpec,
  ContainsSpec,
  AnswerBankSpec,
  Gsm8kSpec,
  RegexSpec,
  JsonSpec,
  ToolCallSyntaxSpec,
  ToolCallAlternative,
  ExpectedCall,
  ArgumentRule,
  ExpectedToolCallsSpec,
  CustomSpec,
  JudgeSpec,
  Criterion,
} from "./spec";
export { validateEvaluatorSpecs, parseEvaluatorSpec, type SpecContext } from "./validate";
export { describeEvaluator } from "./describe";
export { runStaticCheck, runChecks, compileStaticCheck, validateEvaluatorSpecsDeep, type RunChecksOptions } from "./registry";
export { CONFIG_ERROR_PREFIX, INFRA_ERROR_PREFIX } from "./result";
export { normalizeToolCalls, normalizeToolCall, parseToolArguments } from "./tool-calls/normalize";
export { bfclGroundTruthToSpec } from "./tool-calls/bfcl";
export { valuesEqual } from "./tool-calls/values";
export { extractGsm8kAnswer, parseGsm8kExpected } from "./static/gsm8k";
export { describeDifference, firstDifference } from "./text/diff";
export { visualize, isBlank } from "./text/invisible";
export { codeHash } from "./hash";
export {
  createSandbox,
  getSharedSandbox,
  InProcessSandbox,
  WorkerSandbox,
  DEFAULT_SANDBOX_TIMEOUT_MS,
  DEFAULT_SANDBOX_MEMORY_BYTES,
  DEFAULT_SANDBOX_STACK_BYTES,
  type CustomEvaluatorSandbox,
  type SandboxOptions,
  type SandboxResult,
  type SandboxFailure,
} from "./sandbox";
export { runCustomCheck, customEvaluatorInput, type CustomEvaluatorInput } from "./custom";
export { runJudgeCheck, NO_JUDGE_MODEL, type JudgeOptions } from "./judge/judge";
export { buildJudgePrompt, type JudgePrompt, type JudgeMode } from "./judge/prompt";
export { extractJsonObject, interpretJudgeAnswer } from "./judge/parse";
