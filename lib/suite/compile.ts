/**
 * Compile → frozen release (issue #6, DESIGN.md §6). Takes what the shell loaded (the config, the
 * tools modules, the eval modules and a data-file reader) and resolves every case: inheritance,
 * names, CSV/JSONL rows, tool names, evaluators, checks and sources. Fails with every problem found,
 * each naming its file (and data row); never writes anything.
 *
 * Rules enforced here:
 * - case ids are global and stored exactly as written; a duplicate id names both sources;
 * - an unknown tool name, a missing or unreadable data file, a bad CSV column, a CSV used with
 *   anything but an eval-level `non_empty`/`exact`/`contains` evaluator, an invalid evaluator
 *   declaration, and a case without any check are compile errors;
 * - an `evaluate` function is compiled by the injected {@link EvaluateCompiler} (bundled with
 *   what it uses, for the evaluator sandbox); one that cannot be is a compile error;
 * - the release's `contentHash` is the SHA-256 of its canonical JSON, so the same sources give
 *   the same release; an `evaluate` function counts by the hash of its compiled script, so a
 *   change to a helper or constant it uses changes the release.
 */
import path from "node:path";
import { asSchema, type Tool, type ToolSet } from "ai";
import type { EvaluatorSpec } from "@/lib/evaluators/spec";
import { validateEvaluatorSpecs } from "@/lib/evaluators/validate";
import { caseKeyProblem } from "@/lib/library/case-key";
import type { ModelConfig } from "@/lib/runtime/model-config";
import { contentHash, sha256Hex } from "./canonical";
import { parseModelBlock, type ParsedBenchmarkConfig } from "./config";
import { dataFileKind, readCsvCases, readJsonlCases, type DataRow } from "./data-files";
import { CSV_EVALUATOR_KINDS, EVAL_KEYS, INLINE_CASE_KEYS, JSONL_CASE_KEYS, fieldProblems, isPlainObject } from "./fields";
import { resolveFields } from "./inherit";
import { evalIdProblem, positionalName } from "./naming";
import type {
  CaseFields,
  CaseSource,
  FunctionEvaluatorRef,
  Release,
  ReleaseCase,
  ReleaseEval,
  ReleaseTool,
  SetupFunction,
  SuiteCase,
  TeardownFunction,
} from "./types";

const posix = path.posix;

/** A module as loaded by the shell: its path relative to the config folder, and its value or why it failed to load. */
export interface LoadedModule {
  file: string;
  /** Tools modules: the module's exports. Eval modules: the default export. */
  value?: unknown;
  /** Set when the module could not be loaded (the loader's message). */
  error?: string;
}

/** An `evaluate` function compiled for the evaluator sandbox: one script defining a global `evaluate`. */
export interface CompiledEvaluate {
  /** The script. */
  code: string;
  /** SHA-256 hex of `code` (recorded in the release). */
  sha256: string;
  /** Local files bundled into it, relative to the config folder. */
  files: string[];
}

/**
 * Compiles the `evaluate` function at `exportPath` of an eval module (a module path relative to
 * the config folder) for the evaluator sandbox; see server/suite/evaluate-bundle.ts.
 * @returns the script, or a message saying why it cannot run there (never rejects)
 */
export type EvaluateCompiler = (module: string, exportPath: string) => Promise<{ ok: true; bundle: CompiledEvaluate } | { ok: false; message: string }>;

/** What {@link compileBenchmark} needs; built by the shell (server/suite/load.ts). */
export interface BenchmarkSources {
  /** The config file's name (relative, for messages), e.g. `benchmark.config.ts`. */
  configFile: string;
  config: ParsedBenchmarkConfig;
  toolModules: LoadedModule[];
  evalModules: LoadedModule[];
  /**
   * Reads a data file by its path relative to the config folder (`/`-separated, may start with `..`).
   * @throws an Error (with `code` such as `ENOENT`) when it cannot be read
   */
  readFile: (file: string) => Uint8Array;
  /** Compiles `evaluate` functions; without it, a case with one is a compile problem. */
  compileEvaluate?: EvaluateCompiler;
}

/** A compile problem: the file it is in, the data row and line when known, and what is wrong. */
export interface CompileProblem {
  file: string;
  row?: number;
  line?: number;
  message: string;
}

/** A compiled benchmark: the frozen release, the runnable cases (with live setup/teardown) and the tools by name. */
export interface CompiledBenchmark {
  release: Release;
  cases: SuiteCase[];
  /** Every tool of the tools modules, by name (the agent exposes a case's subset). */
  tools: ToolSet;
  /** The sandbox script of every `evaluate` function, by its SHA-256 (`FunctionEvaluatorRef.sha256`). */
  evaluateCode: Map<string, string>;
}

/** Result of {@link compileBenchmark}. */
export type CompileResult = { ok: true; compiled: CompiledBenchmark } | { ok: false; problems: CompileProblem[] };

/** `FILE row R (line L): message`. */
export function formatProblem(p: CompileProblem): string {
  return `${p.file}${p.row !== undefined ? ` row ${p.row}` : ""}${p.line !== undefined ? ` (line ${p.line})` : ""}: ${p.message}`;
}

/** Thrown by shells when compilation fails; carries every problem. */
export class CompileError extends Error {
  constructor(readonly problems: CompileProblem[]) {
    super(
      `the benchmark does not compile (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n${problems.map((p) => `  ${formatProblem(p)}`).join("\n")}`,
    );
    this.name = "CompileError";
  }
}

function errorCode(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  return typeof code === "string" ? (code === "ENOENT" ? "file not found" : code) : ((e as Error)?.message ?? String(e));
}

/** Where a case is, for messages and duplicate reports: `FILE row R`, `MODULE cases[N]` or `MODULE`. */
function describeSource(s: CaseSource, raw: { dataFile?: string; single?: boolean }): string {
  if (raw.dataFile !== undefined) return `${s.file} row ${s.row}`;
  return raw.single ? s.module : `${s.module} cases[${s.index}]`;
}

/** Clones JSON data so the release never shares objects with user modules. */
function cloneJson<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

interface ToolEntry {
  module: string;
  tool: Tool;
  record: ReleaseTool;
}

async function compileTools(src: BenchmarkSources, problems: CompileProblem[]): Promise<Map<string, ToolEntry>> {
  const tools = new Map<string, ToolEntry>();
  for (const m of src.toolModules) {
    if (m.error !== undefined) {
      problems.push({ file: m.file, message: `cannot be loaded: ${m.error}` });
      continue;
    }
    const exported = (m.value as { tools?: unknown } | undefined)?.tools;
    if (typeof exported !== "object" || exported === null || Array.isArray(exported)) {
      problems.push({
        file: m.file,
        message: "a tools module must export `tools`: an object of ai SDK tool() definitions, e.g. export const tools = { lookup_policy: tool({ … }) }",
      });
      continue;
    }
    for (const [name, value] of Object.entries(exported as Record<string, unknown>)) {
      const t = value as Partial<Tool> | null;
      if (typeof t !== "object" || t === null || t.inputSchema === undefined) {
        problems.push({ file: m.file, message: `tool "${name}" is not a tool() definition with an inputSchema` });
        continue;
      }
      if (typeof t.execute !== "function") {
        problems.push({ file: m.file, message: `tool "${name}" has no execute function: the agent forwards the model's calls to it` });
        continue;
      }
      const previous = tools.get(name);
      if (previous) {
        problems.push({ file: m.file, message: `tool "${name}" is also defined in ${previous.module}; tool names must be unique` });
        continue;
      }
      let inputSchema: unknown;
      try {
        inputSchema = cloneJson(await asSchema(t.inputSchema).jsonSchema);
      } catch (e) {
        problems.push({ file: m.file, message: `tool "${name}": its inputSchema cannot be turned into JSON Schema (${(e as Error).message})` });
        continue;
      }
      tools.set(name, {
        module: m.file,
        tool: t as Tool,
        record: {
          name,
          module: m.file,
          description: typeof t.description === "string" ? t.description : "",
          inputSchema,
          executeSha256: sha256Hex(String(t.execute)),
        },
      });
    }
  }
  return tools;
}

/** One case before resolution: its own fields and where it is. */
interface RawCase {
  own: Record<string, unknown>;
  index: number;
  row?: number;
  line?: number;
  /** Set for rows of a data file. */
  dataFile?: string;
  /** For an eval without `cases`: the single case named after the eval. */
  single?: boolean;
}

function specList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [v];
}

interface EvalContext {
  module: string;
  evalId: string;
  evalFields: CaseFields;
  /** The eval-level evaluate, cloned once (shared by the cases that inherit it). */
  evalSpecs: EvaluatorSpec[] | null;
  tools: Map<string, ToolEntry>;
}

function compileCase(ctx: EvalContext, raw: RawCase, problems: CompileProblem[]): SuiteCase | null {
  const fromData = raw.dataFile !== undefined;
  const givenId = typeof raw.own.id === "string";
  const id = raw.single ? ctx.evalId : givenId ? (raw.own.id as string) : positionalName(ctx.evalId, raw.index);
  const where = fromData ? { file: raw.dataFile!, row: raw.row, line: raw.line } : { file: ctx.module };
  const label = fromData ? `case "${id}"` : raw.single ? `the eval` : `cases[${raw.index}] ("${id}")`;
  const before = problems.length;
  const fail = (message: string) => problems.push({ ...where, message: `${label}: ${message}` });

  const keyProblem = caseKeyProblem(id);
  if (keyProblem) fail(`invalid case id: ${keyProblem}`);
  const f = resolveFields(ctx.evalFields, raw.own as CaseFields);

  if (typeof f.prompt !== "string" || f.prompt.trim() === "") fail("has no prompt: set prompt on the case or on its eval");

  const tools = [...new Set(f.tools ?? [])];
  const known = [...ctx.tools.keys()];
  for (const t of tools) {
    if (!ctx.tools.has(t))
      fail(`unknown tool "${t}"${known.length ? ` (the tools modules define ${known.join(", ")})` : " (no tools module defines any tool)"}`);
  }

  let evaluators: EvaluatorSpec[] = [];
  let evaluatorFunction: FunctionEvaluatorRef | null = null;
  const evaluate = f.evaluate;
  if (typeof evaluate === "function") {
    const own = raw.own.evaluate === evaluate;
    const source = String(evaluate);
    // sha256 and files are filled in once the function is bundled (compileFunctions).
    evaluatorFunction = { module: ctx.module, exportPath: own ? `cases[${raw.index}].evaluate` : "evaluate", source, sha256: "", files: [] };
  } else if (evaluate !== null) {
    const specs = raw.own.evaluate === undefined && ctx.evalSpecs ? ctx.evalSpecs : specList(evaluate);
    const specProblems = validateEvaluatorSpecs(specs, { expected: f.expected ?? undefined });
    for (const p of specProblems) fail(`evaluate${Array.isArray(evaluate) ? `[${p.index}]` : ""}${p.field ? `.${p.field}` : ""}: ${p.message}`);
    if (specProblems.length === 0) evaluators = specs === ctx.evalSpecs ? ctx.evalSpecs : cloneJson(specs as EvaluatorSpec[]);
  }

  const judgeMode = f.judgeMode ?? "binary";
  const judgeThreshold = f.judgeThreshold ?? 7;
  let judgeModel: ModelConfig | null = null;
  if (f.judgeModel !== null) {
    const parsed = parseModelBlock(f.judgeModel, "judgeModel");
    if (parsed.ok) judgeModel = parsed.config;
    else for (const p of parsed.problems) fail(p);
  }
  const expectedToolCalls = f.expectedToolCalls ? [...new Set(f.expectedToolCalls)] : null;
  for (const t of expectedToolCalls ?? []) {
    if (!tools.includes(t))
      fail(`expectedToolCalls names "${t}", which is not among the case's tools (${tools.join(", ") || "none"}), so it can never be called`);
  }
  if (evaluators.length === 0 && evaluatorFunction === null && f.criteria === null && expectedToolCalls === null && problems.length === before) {
    fail("has no checks: set evaluate, criteria or expectedToolCalls (on the case or its eval)");
  }
  if (problems.length > before) return null;

  const source: CaseSource = { module: ctx.module, file: raw.dataFile ?? ctx.module, index: raw.index };
  if (raw.row !== undefined) source.row = raw.row;
  if (raw.line !== undefined) source.line = raw.line;
  const c: ReleaseCase = {
    id,
    evalId: ctx.evalId,
    index: raw.index,
    givenId: raw.single ? true : givenId,
    title: f.title,
    description: f.description,
    prompt: f.prompt as string,
    systemPrompt: f.systemPrompt,
    expected: f.expected,
    tools,
    evaluators,
    evaluatorFunction,
    data: f.data === null ? null : cloneJson(f.data),
    labels: f.labels as string[],
    metadata: cloneJson(f.metadata as Record<string, unknown>),
    timeoutSeconds: f.timeoutSeconds,
    maxSteps: f.maxSteps,
    temperature: f.temperature,
    criteria: f.criteria,
    judgeMode,
    judgeThreshold,
    judgeModel,
    expectedToolCalls,
    allowAdditionalToolCalls: f.allowAdditionalToolCalls ?? true,
    hasSetup: typeof f.setup === "function",
    hasTeardown: typeof f.teardown === "function",
    source,
  };
  const suiteCase: SuiteCase = { ...c };
  if (typeof f.setup === "function") suiteCase.setup = f.setup as SetupFunction;
  if (typeof f.teardown === "function") suiteCase.teardown = f.teardown as TeardownFunction;
  return suiteCase;
}

async function expandCases(
  src: BenchmarkSources,
  module: string,
  ev: Record<string, unknown>,
  problems: CompileProblem[],
): Promise<{ raws: RawCase[]; dataFile: string | null } | null> {
  const cases = ev.cases;
  if (cases === undefined || cases === null) return { raws: [{ own: {}, index: 0, single: true }], dataFile: null };
  if (Array.isArray(cases)) {
    // Cases with field problems are reported and left out; the others are still compiled, so one
    // compile reports every problem.
    const raws: RawCase[] = [];
    cases.forEach((c, index) => {
      if (!isPlainObject(c)) {
        problems.push({ file: module, message: `cases[${index}] must be an object (got ${Array.isArray(c) ? "a list" : typeof c})` });
        return;
      }
      const p = fieldProblems(c, INLINE_CASE_KEYS, `cases[${index}]`);
      for (const message of p) problems.push({ file: module, message });
      if (p.length === 0) raws.push({ own: c, index });
    });
    if (cases.length === 0) {
      problems.push({ file: module, message: "cases is an empty list: add cases, or leave cases out for a single case" });
      return null;
    }
    return { raws, dataFile: null };
  }
  if (typeof cases !== "string") {
    problems.push({ file: module, message: "cases must be a list of cases or a path to a .csv or .jsonl file" });
    return null;
  }
  const dataFile = posix.normalize(posix.join(posix.dirname(module), cases.replace(/\\/g, "/")));
  const kind = dataFileKind(dataFile);
  if (!kind) {
    problems.push({ file: module, message: `cases file "${cases}" must end in .csv or .jsonl` });
    return null;
  }
  let bytes: Uint8Array;
  try {
    bytes = src.readFile(dataFile);
  } catch (e) {
    problems.push({ file: module, message: `cases file "${cases}" (${dataFile}) cannot be read: ${errorCode(e)}` });
    return null;
  }
  if (kind === "csv") {
    const evaluate = ev.evaluate;
    const kinds =
      typeof evaluate === "function" ? null : evaluate === undefined || evaluate === null ? [] : specList(evaluate).map((s) => (s as { kind?: unknown })?.kind);
    const allowed = new Set<unknown>(CSV_EVALUATOR_KINDS);
    if (kinds === null || kinds.length === 0 || !kinds.every((k) => allowed.has(k))) {
      const got = kinds === null ? "a function" : kinds.length === 0 ? "no evaluator" : kinds.map((k) => JSON.stringify(k)).join(", ");
      problems.push({
        file: module,
        message: `cases come from the CSV file ${dataFile}, so the eval's evaluate must be ${CSV_EVALUATOR_KINDS.join(", ")} (got ${got}): CSV cells are plain text and can only fill id, prompt, expected and description; use a JSONL file or inline cases for other evaluators`,
      });
      return null;
    }
  }
  const read = kind === "csv" ? await readCsvCases(bytes, dataFile) : readJsonlCases(bytes, dataFile);
  for (const p of read.problems)
    problems.push({ file: dataFile, ...(p.row !== undefined ? { row: p.row } : {}), ...(p.line !== undefined ? { line: p.line } : {}), message: p.message });
  const raws: RawCase[] = [];
  read.rows.forEach((r: DataRow, i) => {
    if (kind === "jsonl") {
      const p = fieldProblems(r.fields, JSONL_CASE_KEYS, `row ${r.row}`);
      for (const message of p) problems.push({ file: dataFile, row: r.row, line: r.line, message });
      if (p.length > 0) return;
    }
    raws.push({ own: r.fields, index: i, row: r.row, line: r.line, dataFile });
  });
  return { raws, dataFile };
}

/**
 * Compiles a loaded benchmark into a frozen release.
 * @param src the config, modules and data-file reader (see {@link BenchmarkSources})
 * @returns the compiled benchmark, or every problem found (in config order); never throws for
 *   problems in the benchmark itself
 */
export async function compileBenchmark(src: BenchmarkSources): Promise<CompileResult> {
  const problems: CompileProblem[] = [];
  const tools = await compileTools(src, problems);
  const evals: ReleaseEval[] = [];
  const cases: SuiteCase[] = [];
  const evalIds = new Map<string, string>();
  const caseIds = new Map<string, string>();

  for (const m of src.evalModules) {
    if (m.error !== undefined) {
      problems.push({ file: m.file, message: `cannot be loaded: ${m.error}` });
      continue;
    }
    const ev = m.value;
    if (!isPlainObject(ev)) {
      problems.push({ file: m.file, message: "an eval module must default-export one eval: export default { id, prompt, evaluate, … }" });
      continue;
    }
    const p = fieldProblems(ev, EVAL_KEYS, "the eval");
    for (const message of p) problems.push({ file: m.file, message });
    if (typeof ev.id !== "string") {
      problems.push({ file: m.file, message: "the eval has no id: set id (text)" });
      continue;
    }
    const idProblem = evalIdProblem(ev.id);
    if (idProblem) {
      problems.push({ file: m.file, message: idProblem });
      continue;
    }
    const otherModule = evalIds.get(ev.id);
    if (otherModule) {
      problems.push({ file: m.file, message: `eval id "${ev.id}" is also used by ${otherModule}; eval ids must be unique` });
      continue;
    }
    evalIds.set(ev.id, m.file);
    if (p.length > 0) continue;

    let evalSpecs: EvaluatorSpec[] | null = null;
    if (ev.evaluate !== undefined && ev.evaluate !== null && typeof ev.evaluate !== "function") {
      try {
        evalSpecs = cloneJson(specList(ev.evaluate)) as EvaluatorSpec[];
      } catch (e) {
        problems.push({ file: m.file, message: `evaluate is not JSON data: ${(e as Error).message}` });
        continue;
      }
    }
    const expanded = await expandCases(src, m.file, ev, problems);
    if (!expanded) continue;
    const ctx: EvalContext = { module: m.file, evalId: ev.id, evalFields: ev as CaseFields, evalSpecs, tools };
    let count = 0;
    for (const raw of expanded.raws) {
      const c = compileCase(ctx, raw, problems);
      if (!c) continue;
      const here = describeSource(c.source, raw);
      const first = caseIds.get(c.id);
      if (first !== undefined) {
        problems.push({
          file: c.source.file,
          ...(c.source.row !== undefined ? { row: c.source.row, line: c.source.line } : {}),
          message: `duplicate case id "${c.id}": used by ${first} and by ${here} (case ids are global across the benchmark)`,
        });
        continue;
      }
      caseIds.set(c.id, here);
      cases.push(c);
      count++;
    }
    evals.push({ id: ev.id, title: typeof ev.title === "string" ? ev.title : null, module: m.file, dataFile: expanded.dataFile, caseCount: count });
  }
  const evaluateCode = await compileFunctions(cases, src.compileEvaluate, problems);
  if (problems.length > 0) return { ok: false, problems };

  const body: Omit<Release, "contentHash"> = {
    format: "benchwork.release",
    protocolVersion: 1,
    title: src.config.title,
    version: src.config.version,
    license: src.config.license,
    description: src.config.description ?? null,
    tools: [...tools.values()].map((t) => t.record),
    evals,
    cases: cases.map(releaseCaseOf),
  };
  const release: Release = { ...body, contentHash: contentHash(body) };
  const toolSet: ToolSet = {};
  for (const [name, t] of tools) toolSet[name] = t.tool;
  return { ok: true, compiled: { release, cases, tools: toolSet, evaluateCode } };
}

/**
 * Compiles every distinct `evaluate` function (module × export path) once, and records its script
 * hash and files on each case using it, so the release hash covers the code that runs.
 * @returns the scripts by SHA-256; problems name the module and the function
 */
async function compileFunctions(cases: SuiteCase[], compile: EvaluateCompiler | undefined, problems: CompileProblem[]): Promise<Map<string, string>> {
  const code = new Map<string, string>();
  const users = new Map<string, SuiteCase[]>();
  for (const c of cases) {
    const ref = c.evaluatorFunction;
    if (!ref) continue;
    const key = `${ref.module}\u0000${ref.exportPath}`;
    const list = users.get(key);
    if (list) list.push(c);
    else users.set(key, [c]);
  }
  for (const list of users.values()) {
    const { module, exportPath } = list[0].evaluatorFunction!;
    const label = exportPath === "evaluate" ? "the eval's evaluate" : `cases[${list[0].index}] ("${list[0].id}") evaluate`;
    const r = compile ? await compile(module, exportPath) : { ok: false as const, message: "no compiler for evaluate functions was given (internal error)" };
    if (!r.ok) {
      problems.push({ file: module, message: `${label}: ${r.message}` });
      continue;
    }
    code.set(r.bundle.sha256, r.bundle.code);
    for (const c of list) {
      c.evaluatorFunction!.sha256 = r.bundle.sha256;
      c.evaluatorFunction!.files = [...r.bundle.files];
    }
  }
  return code;
}

/** The JSON part of a suite case (drops `setup` and `teardown`). */
export function releaseCaseOf(c: SuiteCase): ReleaseCase {
  const { setup: _s, teardown: _t, ...rest } = c;
  return rest;
}

/**
 * Recomputes a release's content hash (for checking a release file read back from disk).
 * @returns `sha256:…` of the canonical JSON of everything but `contentHash`
 */
export function releaseHash(release: Release): string {
  const { contentHash: _h, ...body } = release;
  return contentHash(body);
}

/** The release as pretty JSON text with a final newline (what `benchwork compile` writes). Formatting never changes the hash. */
export function releaseJson(release: Release): string {
  return JSON.stringify(release, null, 2) + "\n";
}
