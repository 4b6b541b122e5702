/**
 * Compiles an `evaluate` function of an eval module into one script for the evaluator sandbox
 * (QuickJS, see lib/evaluators/sandbox.ts): esbuild bundles the function with what it uses — its
 * helpers, constants and local imports — and the script defines a global `evaluate`.
 *
 * Steps:
 * 1. The module is stripped of TypeScript and rewritten so that its default export is the function
 *    alone (lib/suite/evaluate-source.ts); if its shape is not recognised, the whole module is
 *    bundled and the function picked from its default export at load time.
 * 2. First pass: local files are bundled and marked side-effect free (a local import that
 *    `evaluate` does not use — e.g. the tools module that `setup` seeds — is dropped); every
 *    package and Node built-in is left out as external.
 * 3. If `evaluate` still needs packages, a second pass bundles them (pure JavaScript packages can
 *    run in the sandbox). A Node built-in that `evaluate` still needs is an error naming the import
 *    and the file importing it: the sandbox has no file system, network, processes or environment.
 *
 * The script's SHA-256 is what a release records, so a change to a helper or constant that
 * `evaluate` uses changes the release and the published case. Paths in the script are relative to
 * the benchmark folder, so the same sources give the same script on every machine (with the same
 * esbuild version).
 */
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
// Loaded when an `evaluate` function is compiled, not with the module: the CLI's other commands
// (and runs without such functions) start without esbuild (issue 20).
import type * as esbuild from "esbuild";
import { sha256Hex } from "@/lib/suite/canonical";
import { exportPathExpression, isolateEvaluate } from "@/lib/suite/evaluate-source";

/** Largest script accepted, in bytes of UTF-8 (the sandbox loads it for every call). */
export const MAX_EVALUATE_BUNDLE_BYTES = 4 * 1024 * 1024;

/** The global the bundle's exports are assigned to; the script ends by defining `evaluate`. */
const GLOBAL = "__bw$evaluateModule";

/** A compiled `evaluate` function. */
export interface EvaluateBundle {
  /** The script: defines a global function `evaluate`. */
  code: string;
  /** SHA-256 hex of `code`. */
  sha256: string;
  /** Local files bundled into it, relative to the benchmark folder, `/`-separated, sorted. */
  files: string[];
}

/** Result of {@link bundleEvaluate}. */
export type BundleResult = { ok: true; bundle: EvaluateBundle } | { ok: false; message: string };

const BUILTINS = new Set(builtinModules);

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || BUILTINS.has(specifier) || BUILTINS.has(specifier.split("/")[0]);
}

function isLocal(specifier: string): boolean {
  return specifier.startsWith(".") || path.isAbsolute(specifier);
}

function loaderOf(file: string): esbuild.Loader {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".ts" || ext === ".mts" || ext === ".cts") return "ts";
  if (ext === ".tsx") return "tsx";
  if (ext === ".jsx") return "jsx";
  return "js";
}

const toPosix = (p: string) => p.split(path.sep).join("/");

function firstError(e: unknown): string {
  const errors = (e as { errors?: esbuild.Message[] }).errors;
  if (Array.isArray(errors) && errors.length > 0) {
    const m = errors[0];
    const where = m.location ? `${toPosix(m.location.file)}:${m.location.line}:${m.location.column + 1}: ` : "";
    return `${where}${m.text}`;
  }
  return (e as Error)?.message ?? String(e);
}

interface Pass {
  code: string;
  metafile: esbuild.Metafile;
}

/**
 * Runs one esbuild pass over `entry` (a virtual module importing the eval module).
 * @param bundlePackages false: packages stay external (first pass); true: they are bundled
 */
async function pass(root: string, entry: string, moduleAbs: string, rewritten: string | null, bundlePackages: boolean): Promise<Pass> {
  const plugin: esbuild.Plugin = {
    name: "benchwork-evaluate",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === "entry-point" || args.pluginData === "inner") return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true, sideEffects: false };
        if (!isLocal(args.path)) return bundlePackages ? undefined : { path: args.path, external: true, sideEffects: false };
        const r = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "inner" });
        if (r.errors.length > 0) return { errors: r.errors };
        // The benchmark's own files are side-effect free: an import whose bindings evaluate does
        // not use is dropped. Files inside packages keep their package's own declaration.
        if (r.path.split(path.sep).includes("node_modules")) return { path: r.path, external: r.external };
        return { path: r.path, external: r.external, sideEffects: false };
      });
      if (rewritten !== null) {
        const only = new RegExp(`^${moduleAbs.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
        build.onLoad({ filter: only }, () => ({ contents: rewritten, loader: "js", resolveDir: path.dirname(moduleAbs) }));
      }
    },
  };
  const result = await (
    await import("esbuild")
  ).build({
    stdin: { contents: entry, resolveDir: root, sourcefile: "benchwork-evaluate-entry.js", loader: "js" },
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    format: "iife",
    globalName: GLOBAL,
    footer: { js: `var evaluate = ${GLOBAL}.evaluate;` },
    platform: "neutral",
    mainFields: ["module", "main"],
    target: "es2020",
    charset: "utf8",
    legalComments: "none",
    logLevel: "silent",
    resolveExtensions: [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json"],
    plugins: [plugin],
  });
  return { code: result.outputFiles[0].text, metafile: result.metafile };
}

/** External imports left in a pass's output, each with the bundled files that import it. */
function externalsOf(p: Pass, moduleRel: string): { specifier: string; importers: string[] }[] {
  const output = Object.values(p.metafile.outputs)[0];
  const included = new Set(Object.keys(output.inputs));
  const specifiers = [...new Set(output.imports.filter((i) => i.external).map((i) => i.path))];
  return specifiers.map((specifier) => ({
    specifier,
    importers: Object.entries(p.metafile.inputs)
      .filter(([file, input]) => included.has(file) && input.imports.some((i) => i.external && i.path === specifier))
      .map(([file]) => (file.includes("benchwork-evaluate-entry") ? moduleRel : toPosix(file))),
  }));
}

function describeExternals(list: { specifier: string; importers: string[] }[]): string {
  return list.map((x) => `"${x.specifier}"${x.importers.length > 0 ? ` (imported by ${x.importers.join(", ")})` : ""}`).join(", ");
}

/**
 * Bundles the `evaluate` function at `exportPath` of an eval module into one sandbox script.
 * @param root absolute folder of benchmark.config.ts (paths in the script and `files` are relative to it)
 * @param module the eval module, relative to `root`
 * @param exportPath `evaluate` or `cases[N].evaluate`
 * @returns the script with its SHA-256 and bundled files, or a message saying what cannot be
 *   bundled (a Node built-in import, naming it and its importer; a syntax error with file, line and
 *   column; an unresolved import; a script over {@link MAX_EVALUATE_BUNDLE_BYTES}); never throws
 */
export async function bundleEvaluate(root: string, module: string, exportPath: string): Promise<BundleResult> {
  root = path.resolve(root);
  const moduleAbs = path.resolve(root, module);
  const accessor = exportPathExpression("ev", exportPath);
  if (!accessor) return { ok: false, message: `unsupported export path "${exportPath}"` };
  let source: string;
  try {
    source = readFileSync(moduleAbs, "utf8");
  } catch (e) {
    return { ok: false, message: `the module cannot be read: ${(e as Error).message}` };
  }
  let js: string;
  try {
    js = (await (await import("esbuild")).transform(source, { loader: loaderOf(moduleAbs), target: "esnext", sourcefile: module, charset: "utf8" })).code;
  } catch (e) {
    return { ok: false, message: `the module could not be compiled: ${firstError(e)}` };
  }
  const isolated = isolateEvaluate(js, exportPath);
  const importPath = JSON.stringify(`./${toPosix(path.relative(root, moduleAbs))}`);
  // Isolated: the module's default export is the function. Otherwise the whole module is bundled.
  const entry = isolated.ok
    ? `import fn from ${importPath};\nexport const evaluate = fn;\n`
    : `import ev from ${importPath};\nexport const evaluate = ${accessor};\n`;
  const hint = isolated.ok
    ? ""
    : ` (the whole module was bundled because ${isolated.reason}; write evaluate in the object literal the module default-exports so that only what it uses is bundled)`;

  let result: Pass;
  try {
    result = await pass(root, entry, moduleAbs, isolated.ok ? isolated.code : null, false);
    let externals = externalsOf(result, module);
    const builtins = externals.filter((x) => isBuiltin(x.specifier));
    if (builtins.length === 0 && externals.length > 0) {
      result = await pass(root, entry, moduleAbs, isolated.ok ? isolated.code : null, true);
      externals = externalsOf(result, module);
    }
    if (externals.length > 0) {
      return {
        ok: false,
        message: `it needs ${describeExternals(externals)}, which cannot run in the evaluator sandbox: evaluate functions run in QuickJS without Node built-ins (no file system, network, processes or environment) — compute the verdict from the trial it receives${hint}`,
      };
    }
  } catch (e) {
    return { ok: false, message: `it could not be bundled: ${firstError(e)}${hint}` };
  }
  const bytes = Buffer.byteLength(result.code, "utf8");
  if (bytes > MAX_EVALUATE_BUNDLE_BYTES) {
    return {
      ok: false,
      message: `its bundle is ${(bytes / 1024 / 1024).toFixed(1)} MB, over the ${MAX_EVALUATE_BUNDLE_BYTES / 1024 / 1024} MB limit of the evaluator sandbox${hint}`,
    };
  }
  const output = Object.values(result.metafile.outputs)[0];
  const files = Object.keys(output.inputs)
    .filter((f) => !f.includes("benchwork-evaluate-entry") && !f.split("/").includes("node_modules"))
    .map(toPosix)
    .sort();
  return { ok: true, bundle: { code: result.code, sha256: sha256Hex(result.code), files } };
}
