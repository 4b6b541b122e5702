/**
 * Types of code-first suites (DESIGN.md §6, issue #6): what a benchmark repository declares
 * (config, tools and eval modules), the frozen release compiled from it, and what running a
 * release produces (case results and the suite result).
 *
 * Three layers:
 * - authoring: {@link BenchmarkConfig}, {@link EvalDefinition}, {@link EvalCase} — written by users
 *   in TypeScript or JavaScript, may hold functions (`evaluate`, `setup`, `teardown`);
 * - release: {@link Release}, {@link ReleaseCase} — plain JSON, content-hashed, no functions;
 * - run: {@link SuiteCase} (a release case plus its live `setup`/`teardown`), {@link CaseResult},
 *   {@link SuiteResult}.
 */
import type { EvaluatorSpec } from "@/lib/evaluators/spec";
import type { CustomEvaluatorInput } from "@/lib/evaluators/custom";
import type { ModelConfig } from "@/lib/runtime/model-config";

/** The protocol version this code reads and writes (`protocolVersion` in benchmark.config.ts and releases). */
export const PROTOCOL_VERSION = 1;

/** Version of the suite-result JSON contract ({@link SuiteResultJson}); bumped only on breaking changes. */
export const RESULT_SCHEMA_VERSION = 1;

/** Judge scoring mode: `binary` pass/fail, or `numeric` 1–10 passing at the threshold. */
export type JudgeMode = "binary" | "numeric";

/**
 * What an `evaluate` function receives: the final output, the case's private `caseData`, the raw
 * `toolCalls` (`{ toolCallId, toolName, input }`), `normalizedToolCalls` (`{ toolName, input }`),
 * `finishReason`, token `usage`, and the case's `input` (prompt) and `expected` when set — the same
 * argument the app's sandboxed custom evaluators get (lib/evaluators/custom.ts).
 */
export type EvaluatorInput = CustomEvaluatorInput;

/**
 * What an `evaluate` function returns: a boolean, or `{ passed, score?, message?, details? }` with
 * `score` in [0, 1]. Anything else is an evaluator infrastructure error (never a model failure).
 */
export type EvaluatorOutcome = boolean | { passed: boolean; score?: number | null; message?: string | null; details?: unknown };

/**
 * A custom evaluator function in an eval module. It is bundled with what it uses and runs in the
 * QuickJS evaluator sandbox (no file system, network, processes or environment; 5 s deadline).
 */
export type EvaluateFunction = (input: EvaluatorInput) => EvaluatorOutcome | Promise<EvaluatorOutcome>;

/** A declarative `evaluate`: one evaluator spec (lib/evaluators/spec.ts) or a list of them. */
export type DeclarativeEvaluate = EvaluatorSpec | EvaluatorSpec[];

/** Runs before a case, outside its timeout; its value is passed to `teardown`. May be async. */
export type SetupFunction = () => unknown;

/** Runs after a case whenever `setup` completed (also on failure, error and timeout). May be async. */
export type TeardownFunction = (context: unknown, result: CaseResult) => unknown;

/**
 * Fields an eval declares for all of its cases and a case may override. In a case, a field that is
 * absent (or `undefined`) takes the eval's value, `null` clears it; `labels` merge with the eval's
 * without duplicates (`null` clears), `metadata` merges with the case winning (`null` clears).
 */
export interface CaseFields {
  /** Human title. */
  title?: string | null;
  /** What the case checks (kept with the case; shown in the library's notes). */
  description?: string | null;
  /** The user message sent to the model. Required after inheritance. */
  prompt?: string | null;
  /** System prompt of the agent. */
  systemPrompt?: string | null;
  /** Expected result text, used by `exact`, `contains` and `gsm8k` specs without their own `expected`. */
  expected?: string | null;
  /** Names of the tools (from the tools modules) exposed to the model for this case. */
  tools?: string[] | null;
  /** The checks: a declarative spec (or list), or — on an eval or an inline case — a function. */
  evaluate?: DeclarativeEvaluate | EvaluateFunction | null;
  /** Private JSON-compatible data for evaluators (`caseData`). */
  data?: Record<string, unknown> | null;
  /** Tags used by `--tag`; reported as the result's `tags`. */
  labels?: string[] | null;
  /** Free JSON metadata (not sent to the model). */
  metadata?: Record<string, unknown> | null;
  /** Per-case timeout in seconds; falls back to the runner's default (120 s). */
  timeoutSeconds?: number | null;
  /** Most model calls of the agent loop (tool rounds + final answer); default 5. */
  maxSteps?: number | null;
  /** Sampling temperature for this case (overrides the model configuration's). */
  temperature?: number | null;
  /** Judge criteria: enables the judge check (`judgePassed`). */
  criteria?: string | null;
  /** Judge mode, default `binary`. */
  judgeMode?: JudgeMode | null;
  /** Numeric-mode pass bar, 1–10, default 7. */
  judgeThreshold?: number | null;
  /**
   * The model that judges this case's `criteria` (a model block like the config's `judgeModel`);
   * wins over `--judge-model`, the config's `judgeModel` and the run model.
   */
  judgeModel?: ConfigModel | null;
  /** Tool names that must fire: enables the reliability check (`reliabilityPassed`). */
  expectedToolCalls?: string[] | null;
  /** Allow tools outside `expectedToolCalls` (default true). */
  allowAdditionalToolCalls?: boolean | null;
  /** See {@link SetupFunction}. Inline cases and evals only. */
  setup?: SetupFunction | null;
  /** See {@link TeardownFunction}. Inline cases and evals only. */
  teardown?: TeardownFunction | null;
}

/** One case of an eval (inline or a JSONL line). `id` is kept exactly as written; absent → `EVAL[position]`. */
export interface EvalCase extends CaseFields {
  id?: string;
}

/** The default export of an eval module. */
export interface EvalDefinition extends CaseFields {
  /** Eval id; also the case id of an eval without `cases`, and the prefix of positional names. */
  id: string;
  /** Inline cases, or a path (relative to the module) to a `.csv` or `.jsonl` file of cases. */
  cases?: EvalCase[] | string;
}

/** A model block in benchmark.config.ts (keys come from the environment: `apiKeyEnv` names the variable). */
export interface ConfigModel {
  name?: string;
  provider: "openai" | "anthropic" | "openai-compatible";
  modelId: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  temperature?: number;
  maxOutputTokens?: number;
}

/** The default export of `benchmark.config.ts`. Paths are relative to the config file. */
export interface BenchmarkConfig {
  protocolVersion: 1;
  title: string;
  version: string;
  license: string;
  description?: string;
  /** Tools modules: each exports `tools`, a record of ai SDK `tool()` definitions. */
  tools?: string[];
  /** Eval modules: each default-exports one eval. */
  evals: string[];
  /** Model used by `benchwork run` when no model flag is given. */
  model?: ConfigModel;
  /** Judge model for `criteria` (default: the run model). */
  judgeModel?: ConfigModel;
}

/**
 * Where a compiled case comes from. Paths are relative to the config file's folder, with `/`.
 * - `module`: the eval module.
 * - `file`: the file holding the case: the data file for CSV/JSONL rows, else the module.
 * - `row`: 1-based data row of a CSV/JSONL file (first row after the CSV header = 1; JSONL: the n-th object line).
 * - `line`: 1-based physical line of that row in the file.
 * - `index`: 0-based position of the case in its eval (the `N` of `EVAL[N]`).
 */
export interface CaseSource {
  module: string;
  file: string;
  row?: number;
  line?: number;
  index: number;
}

/**
 * Reference to an `evaluate` function in an eval module, frozen in a release by the hash of the
 * script that runs: the function bundled with the helpers, constants and local imports it uses
 * (server/suite/evaluate-bundle.ts).
 */
export interface FunctionEvaluatorRef {
  /** The eval module (relative path). */
  module: string;
  /** Where the function is in the module's default export: `evaluate` or `cases[N].evaluate`. */
  exportPath: string;
  /** The function's own source text as loaded (after TypeScript is stripped), for reading. */
  source: string;
  /** SHA-256 hex of the bundled script (what runs in the evaluator sandbox). */
  sha256: string;
  /** Local files bundled into the script (relative paths, sorted): the module and what it imports for `evaluate`. */
  files: string[];
}

/** One compiled case of a release: plain JSON, every inheritable field resolved. */
export interface ReleaseCase {
  /** Case id, global in the release, exactly as written (or `EVAL[N]`). */
  id: string;
  /** Id of the eval it belongs to. */
  evalId: string;
  /** Position in its eval (0-based). */
  index: number;
  /** True when the id was written by the author (not positional). */
  givenId: boolean;
  title: string | null;
  description: string | null;
  prompt: string;
  systemPrompt: string | null;
  expected: string | null;
  tools: string[];
  /** Declarative evaluator specs (may be empty). */
  evaluators: EvaluatorSpec[];
  /** A function evaluator, when `evaluate` is a function. */
  evaluatorFunction: FunctionEvaluatorRef | null;
  data: Record<string, unknown> | null;
  labels: string[];
  metadata: Record<string, unknown>;
  timeoutSeconds: number | null;
  maxSteps: number | null;
  temperature: number | null;
  criteria: string | null;
  judgeMode: JudgeMode;
  judgeThreshold: number;
  /** The case's own judge model (validated; `name` defaults to the model id), or null for the run's judge. */
  judgeModel: ModelConfig | null;
  expectedToolCalls: string[] | null;
  allowAdditionalToolCalls: boolean;
  /** Whether the case has a `setup` / `teardown` function (the functions live in the module). */
  hasSetup: boolean;
  hasTeardown: boolean;
  source: CaseSource;
}

/** A tool as recorded in a release: name, module, description, JSON schema, and a hash of its `execute` source. */
export interface ReleaseTool {
  name: string;
  module: string;
  description: string;
  inputSchema: unknown;
  executeSha256: string;
}

/** An eval as recorded in a release. */
export interface ReleaseEval {
  id: string;
  title: string | null;
  module: string;
  /** Data file of the cases (`.csv`/`.jsonl`), or null for inline cases or a single case. */
  dataFile: string | null;
  caseCount: number;
}

/**
 * A frozen release: every case resolved, plain JSON. `contentHash` is `sha256:` + the SHA-256 of
 * the canonical JSON of everything else (keys sorted), so compiling the same sources twice gives
 * the same hash, and any change to a case, tool or evaluator gives another.
 */
export interface Release {
  format: "benchwork.release";
  protocolVersion: 1;
  title: string;
  version: string;
  license: string;
  description: string | null;
  tools: ReleaseTool[];
  evals: ReleaseEval[];
  cases: ReleaseCase[];
  contentHash: string;
}

/** A release case ready to run: the JSON case plus its live `setup`/`teardown` (when any). */
export interface SuiteCase extends ReleaseCase {
  setup?: SetupFunction;
  teardown?: TeardownFunction;
}

/**
 * The result of one case (runner contract, issue #6).
 * - `judge*`: null when the case has no `criteria`; `judgeScore` is the 1–10 score in numeric mode.
 * - `reliabilityPassed`: the `expectedToolCalls` check; null when none.
 * - `evaluator*`: the `evaluate` checks (declarative specs and/or the function); null when none, or
 *   when an evaluator could not run (then `error` says why — never a model failure);
 *   `evaluatorDetails` is the evidence the function returned.
 * - `toolsCalled`: tool names in call order.
 * - `error`: run, setup, evaluator, judge, reliability, hook and teardown errors joined with `; `,
 *   each prefixed with its origin (`run: …`, `hook: …`).
 * - `passed`: true only when there is no error and every configured check passed; false when no
 *   check ran (skipped, timed out, failed run).
 */
export interface CaseResult {
  name: string;
  tags: string[];
  sessionId: string;
  /** Wall time of the case including setup and teardown, in seconds. */
  durationSeconds: number;
  judgePassed: boolean | null;
  judgeReason: string | null;
  judgeScore: number | null;
  reliabilityPassed: boolean | null;
  evaluatorPassed: boolean | null;
  evaluatorScore: number | null;
  evaluatorMessage: string | null;
  /**
   * The evidence (`details`) returned by the case's `evaluate` function (or by a declarative
   * `custom` evaluator; with several, the first that returned some): any JSON, null when none.
   */
  evaluatorDetails: unknown;
  output: string | null;
  toolsCalled: string[];
  timedOut: boolean;
  skipped: boolean;
  error: string | null;
  passed: boolean;
}

/** Aggregate of a run: one result per selected case (skipped ones included). */
export interface SuiteResult {
  results: CaseResult[];
  total: number;
  passed: number;
  failed: number;
  /** `PASS` only when every case passed; an empty suite is `FAIL`. */
  status: "PASS" | "FAIL";
}
