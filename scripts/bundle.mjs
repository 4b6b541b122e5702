// Bundles a TypeScript entry of this project into one ES module with esbuild, for code that runs
// outside Next.js and must start lean: the bench worker process (`npm run worker`), its trial
// threads and the `benchwork` command. Loading the same code through tsx costs a module-hooks thread and in-memory transform
// caches (~40–50 MB of RSS per thread), and the runner's footprint target is 300 MB (issue #5).
// Plain JavaScript on purpose: the `npm run worker` launcher uses it before any TypeScript loads.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Packages left out of bundles: native addons and packages that load files next to themselves
 * (jiti, the CLI's loader of benchmark modules, requires its Babel build from its own folder).
 */
export const BUNDLE_EXTERNAL = ["better-sqlite3", "quickjs-emscripten", "@jitl/*", "esbuild", "jiti"];

/** The module-URL expression, spelled so that this file, once bundled itself, holds no such token. */
const MODULE_URL = ["import", "meta", "url"].join(".");

/**
 * Project files keep their own module URL (a module that starts a worker from a file next to
 * itself, like the evaluator sandbox, must still find it once bundled).
 */
const ownImportMetaUrl = {
  name: "own-import-meta-url",
  setup(build) {
    build.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = readFileSync(args.path, "utf8");
      if (!source.includes(MODULE_URL)) return undefined;
      return {
        contents: source.replaceAll(MODULE_URL, JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith("ts") ? "ts" : "js",
      };
    });
  },
};

/**
 * Builds `contents` (TypeScript, resolved from `root`) into `<dir>/<name>-<content hash>.mjs`
 * (default dir `<root>/node_modules/.cache/benchwork`; it must be inside `root` so that the bundle's
 * external imports resolve from the project's node_modules). Concurrent builders write the same
 * bytes and rename atomically.
 * @param {{ root: string, name: string, contents: string, dir?: string }} o
 * @returns {Promise<string>} the bundle's path
 * @throws esbuild's build failure (its messages name file, line and column)
 */
export async function bundle({ root, name, contents, dir = path.join(root, "node_modules", ".cache", "benchwork") }) {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    stdin: { contents, resolveDir: root, sourcefile: `${name}-entry.ts`, loader: "ts" },
    absWorkingDir: root,
    tsconfig: path.join(root, "tsconfig.json"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: BUNDLE_EXTERNAL,
    plugins: [ownImportMetaUrl],
    // Every thread keeps its own copy of the source: whitespace and syntax minified halve it.
    // Identifiers are not minified, so stack traces read as the source. No `keepNames`: it wraps
    // every function and class in a call that sets its name as it is created, ~2 % of a trial
    // thread's CPU (profiled with bench/runner.ts), only to keep the names of the few that
    // esbuild renames to avoid clashes (`parse2`).
    // BENCHWORK_BUNDLE_READABLE=1 keeps line breaks (readable CPU profiles of the worker).
    minifyWhitespace: !process.env.BENCHWORK_BUNDLE_READABLE,
    minifySyntax: true,
    // CommonJS dependencies call require() for Node built-ins; an ES module has none of its own.
    banner: { js: `import { createRequire as __benchworkRequire } from "node:module";\nconst require = __benchworkRequire(${MODULE_URL});` },
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  const file = path.join(dir, `${name}-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
    pruneOld(dir, name);
  }
  return file;
}

/** Keeps the newest few bundles of `name` (older ones were built from earlier code). */
function pruneOld(dir, name, keep = 4) {
  try {
    const files = readdirSync(dir)
      .filter((f) => f.startsWith(`${name}-`) && f.endsWith(".mjs"))
      .map((f) => ({ f, t: statSync(path.join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of files.slice(keep)) rmSync(path.join(dir, f), { force: true });
  } catch {
    // Pruning is housekeeping: another process may be doing the same.
  }
}
