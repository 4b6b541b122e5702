/**
 * Code-first suites (DESIGN.md §2 `lib/suite`, §6; issue #6): eval modules, case expansion and
 * inheritance, compile to a frozen release, selection, the agent, the runner contract and the
 * result JSON. Pure: modules, files, models, clocks and hooks come in as parameters; the shells
 * (server/suite, cli/commands) load files and modules.
 */
export * from "./types";
export { canonicalJson, contentHash, sha256Hex } from "./canonical";
export { parseBenchmarkConfig, CONFIG_KEYS, type ParsedBenchmarkConfig } from "./config";
export {
  CASE_FIELD_KEYS,
  CSV_COLUMNS,
  CSV_EVALUATOR_KINDS,
  EVAL_KEYS,
  INLINE_CASE_KEYS,
  JSONL_CASE_KEYS,
  fieldProblems,
  isPlainObject,
  jsonProblem,
} from "./fields";
export { resolveFields, mergeLabels, mergeMetadata, type ResolvedFields } from "./inherit";
export { positionalName, evalIdProblem, parseVariantSelector, parseCaseName, isVariantSelector, type VariantSelector, type CaseNameParts } from "./naming";
export { readCsvCases, readJsonlCases, dataFileKind, DATA_FILE_LIMITS, type DataRow, type DataProblem, type DataFileCases } from "./data-files";
export {
  compileBenchmark,
  releaseCaseOf,
  releaseHash,
  releaseJson,
  formatProblem,
  CompileError,
  type BenchmarkSources,
  type LoadedModule,
  type CompileProblem,
  type CompiledBenchmark,
  type CompileResult,
  type CompiledEvaluate,
  type EvaluateCompiler,
} from "./compile";
export { isolateEvaluate, parseExportPath, exportPathExpression, type IsolateResult } from "./evaluate-source";
export { selectCases, matchesName, matchesVariant, samePath, type Selection, type SelectionResult } from "./select";
export { createAgent, caseToolSet, DEFAULT_AGENT_MAX_STEPS, type AgentOptions, type AgentRunner, type AgentCall, type RunEvent } from "./agent";
export {
  createChecker,
  judgeSpecOf,
  reliabilitySpecOf,
  evaluationTrialOf,
  type CaseChecker,
  type CaseVerdicts,
  type CheckerOptions,
  type FunctionEvaluatorRunner,
  type FunctionEvaluatorOutcome,
} from "./checks";
export { runSuite, DEFAULT_TIMEOUT_SECONDS, type RunSuiteOptions, type CaseDetail } from "./runner";
export { caseTrialOutcome, type CaseTrialOutcome } from "./trial-outcome";
export {
  casePassed,
  summarize,
  skippedResult,
  suiteResultToJson,
  caseListToJson,
  type SuiteResultJson,
  type SuiteSummaryJson,
  type CaseResultJson,
  type CaseListJson,
  type CaseListEntryJson,
} from "./result";
export { planPrompts, caseContentOf, libraryContentHash, type PromptPlan } from "./library-content";
