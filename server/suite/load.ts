/**
 * Loading a benchmark repository (issue #6): finds `benchmark.config.ts`, imports it and the tools
 * and eval modules with jiti (a well-kept TypeScript/ESM loader: no loader of our own), reads the
 * data files, and compiles the release with lib/suite. The impure half of `compileBenchmark`.
 *
 * Within one load, modules share instances (an eval module importing the tools module sees the
 * same objects the agent uses, e.g. a store seeded by `setup`). Between loads, the benchmark's
 * modules are dropped from the module cache, so editing a file and compiling again in the same
 * process sees the change.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { createJiti } from "jiti";
import type { CustomEvaluatorSandbox } from "@/lib/evaluators/sandbox";
import { compileBenchmark, type CompileProblem, type CompiledBenchmark, type EvaluateCompiler, type LoadedModule } from "@/lib/suite/compile";
import { parseBenchmarkConfig, type ParsedBenchmarkConfig } from "@/lib/suite/config";
import { bundleEvaluate } from "./evaluate-bundle";
import { createFunctionSandbox } from "./function-evaluator";

/** Config file names looked for in a folder, in order. */
export const CONFIG_FILE_NAMES = ["benchmark.config.ts", "benchmark.config.mts", "benchmark.config.js", "benchmark.config.mjs"] as const;

/** Thrown when the config file does not exist (a usage error for the CLI). */
export class ConfigNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigNotFoundError";
  }
}

/**
 * The config file a CLI argument names: a file, or a folder holding one of {@link CONFIG_FILE_NAMES}.
 * @param arg the argument (default: the working folder)
 * @param cwd the working folder
 * @returns the absolute path of the config file
 * @throws ConfigNotFoundError naming what was looked for
 */
export function resolveConfigPath(arg: string | undefined, cwd: string = process.cwd()): string {
  const target = path.resolve(cwd, arg ?? ".");
  if (!existsSync(target)) throw new ConfigNotFoundError(`${arg ?? target}: no such file or folder`);
  if (statSync(target).isFile()) return target;
  for (const name of CONFIG_FILE_NAMES) {
    const file = path.join(target, name);
    if (existsSync(file)) return file;
  }
  throw new ConfigNotFoundError(`${arg ?? target}: no ${CONFIG_FILE_NAMES.join(" / ")} in this folder`);
}

/** A compiled benchmark with where it lives. */
export interface LoadedBenchmark {
  /** Absolute folder of the config file; module paths in the release are relative to it. */
  root: string;
  /** Absolute path of the config file. */
  configPath: string;
  config: ParsedBenchmarkConfig;
  compiled: CompiledBenchmark;
}

/** Result of {@link loadBenchmark}. */
export type LoadResult = { ok: true; benchmark: LoadedBenchmark } | { ok: false; problems: CompileProblem[] };

function describeError(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND") return e.message.split("\n")[0];
    return e.message;
  }
  return String(e);
}

/** `./tools/x.ts` or `tools\x.ts` → `tools/x.ts` (relative, `/`-separated). */
export function normalizeRelative(p: string): string {
  return path.posix.normalize(p.replace(/\\/g, "/")).replace(/^(\.\/)+/, "");
}

const nodeRequire = createRequire(import.meta.url);

/**
 * Drops the benchmark's modules from the CommonJS module cache that jiti uses: every file under
 * `root` outside node_modules, and every TypeScript file (only jiti loads those into this cache).
 */
function forgetModules(root: string): void {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  for (const key of Object.keys(nodeRequire.cache)) {
    const inNodeModules = key.includes(`${path.sep}node_modules${path.sep}`);
    if ((key.startsWith(prefix) && !inNodeModules) || (!inNodeModules && /\.(c|m)?tsx?$/.test(key))) delete nodeRequire.cache[key];
  }
}

/**
 * The compiler of `evaluate` functions for a benchmark folder: bundles each (evaluate-bundle.ts)
 * and loads the script once in the evaluator sandbox, so a script that fails there as it loads
 * (e.g. a package that reads `process` at the top level) is a compile problem, not a run-time one.
 * @returns the compiler and a `close` that stops the sandbox it started (if any)
 */
function evaluateCompiler(root: string): { compile: EvaluateCompiler; close: () => Promise<void> } {
  let sandbox: Promise<CustomEvaluatorSandbox> | null = null;
  const compile: EvaluateCompiler = async (module, exportPath) => {
    const r = await bundleEvaluate(root, module, exportPath);
    if (!r.ok) return r;
    let box: CustomEvaluatorSandbox;
    try {
      box = await (sandbox ??= createFunctionSandbox());
    } catch (e) {
      sandbox = null;
      return { ok: false, message: `the evaluator sandbox could not start to check it: ${(e as Error).message}` };
    }
    const problem = await box.checkCode(r.bundle.code);
    return problem === null
      ? r
      : { ok: false, message: `it cannot be loaded in the evaluator sandbox (QuickJS: no Node built-ins, \`process\`, \`fetch\` or environment): ${problem}` };
  };
  const close = async () => {
    const box = sandbox;
    sandbox = null;
    if (box)
      await box.then(
        (b) => b.dispose(),
        () => undefined,
      );
  };
  return { compile, close };
}

/**
 * Loads and compiles a benchmark. `evaluate` functions are compiled for the evaluator sandbox
 * (bundled with what they use) and checked to load there.
 * @param configPath absolute path of benchmark.config.ts (see {@link resolveConfigPath})
 * @returns the compiled benchmark, or every problem (config, modules, data files, cases, evaluate
 *   functions), each naming its file
 */
export async function loadBenchmark(configPath: string): Promise<LoadResult> {
  const root = path.dirname(configPath);
  const configFile = path.basename(configPath);
  forgetModules(root);
  const jiti = createJiti(import.meta.url, { moduleCache: true, fsCache: false, interopDefault: false });
  const importModule = async (rel: string): Promise<{ value?: Record<string, unknown>; error?: string }> => {
    const abs = path.resolve(root, rel);
    if (!existsSync(abs)) return { error: "file not found" };
    try {
      return { value: (await jiti.import(abs)) as Record<string, unknown> };
    } catch (e) {
      return { error: describeError(e) };
    }
  };

  const configModule = await importModule(configFile);
  if (configModule.error !== undefined) return { ok: false, problems: [{ file: configFile, message: `cannot be loaded: ${configModule.error}` }] };
  const parsed = parseBenchmarkConfig(configModule.value?.default);
  if (!parsed.ok) return { ok: false, problems: parsed.problems.map((message) => ({ file: configFile, message })) };
  const config = parsed.config;

  const toolModules: LoadedModule[] = [];
  for (const entry of config.tools) {
    const file = normalizeRelative(entry);
    const m = await importModule(file);
    toolModules.push(m.error !== undefined ? { file, error: m.error } : { file, value: m.value });
  }
  const evalModules: LoadedModule[] = [];
  for (const entry of config.evals) {
    const file = normalizeRelative(entry);
    const m = await importModule(file);
    if (m.error !== undefined) evalModules.push({ file, error: m.error });
    else if (m.value?.default === undefined) evalModules.push({ file, error: "the module has no default export: export default { id, prompt, evaluate, … }" });
    else evalModules.push({ file, value: m.value.default });
  }

  const evaluate = evaluateCompiler(root);
  let result: Awaited<ReturnType<typeof compileBenchmark>>;
  try {
    result = await compileBenchmark({
      configFile,
      config,
      toolModules,
      evalModules,
      readFile: (file) => readFileSync(path.resolve(root, file)),
      compileEvaluate: evaluate.compile,
    });
  } finally {
    await evaluate.close();
  }
  if (!result.ok) return { ok: false, problems: result.problems };
  return { ok: true, benchmark: { root, configPath, config, compiled: result.compiled } };
}
