// The worker's bundles, built ahead of time (issue 20): `npm run build` and `npm start`'s build step
// write them into BUNDLE_DIR with a stamp of their sources, so that `npm run worker`, the server's
// worker and trial threads, the upload parser and the seed step start from plain JavaScript without
// esbuild (or tsx, which starts esbuild too). When they are missing or older than their
// sources (a fresh clone, a development checkout, the tests) the first process that needs them says
// so on one line and builds them once; later processes find them current.
// Plain JavaScript on purpose: the `npm run worker` launcher uses it before any TypeScript loads.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fingerprintOf } from "./build-state.mjs";
import { bundle } from "./bundle.mjs";

/**
 * The bundles, by name: the TypeScript entry each is built from (resolved from the project root).
 * The one place to change when an entry moves or is renamed.
 */
export const WORKER_BUNDLES = {
  // `npm run worker` (scripts/worker.mjs).
  worker: `import "./server/worker-main.ts";\n`,
  // The bench worker's thread in the Next.js server (server/worker-thread.mjs).
  "worker-thread": `export { runWorkerThread } from "./server/worker-thread-main.ts";\n`,
  // The import core for the bounded parser thread of uploads (server/parse-bounded.ts, server/import-worker.mjs).
  "import-parser": `export { inspect } from "./lib/import/inspect.ts";\nexport { parseFile } from "./lib/import/parse.ts";\n`,
  // `npm start`'s seed step: migrate the store, seed the demo workspace once (scripts/seed-command.mjs).
  seed: `import "./db/seed/cli.ts";\n`,
  // The trial threads of a worker (server/bench/trial-pool.ts), in `npm run worker` and in the server.
  "trial-thread": `import { parentPort, workerData } from "node:worker_threads";\nimport { runTrialThread } from "./server/bench/trial-thread-main.ts";\nrunTrialThread(parentPort, workerData);\n`,
};

/** What the bundles are built from (folders or files, relative to the root): a change in any makes them stale. */
export const BUNDLE_SOURCES = [
  "lib",
  "db",
  "server",
  "scripts/bundle.mjs",
  "scripts/build-state.mjs",
  "scripts/worker-bundles.mjs",
  "patches",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
];

/** The bundles' folder, relative to the project root (git-ignored; inside the root so their external imports resolve from its node_modules). */
export const BUNDLE_DIR = path.join("dist", "worker");

const STAMP = "manifest.json";

/**
 * The stamp of the current sources: the files' fingerprint (build-state.mjs), the entries, and
 * whether the bundles are readable (BENCHWORK_BUNDLE_READABLE keeps line breaks for profiling).
 */
function stampOf(root, bundles, sources) {
  const readable = Boolean(process.env.BENCHWORK_BUNDLE_READABLE);
  return createHash("sha256")
    .update(JSON.stringify({ files: fingerprintOf(root, sources), bundles, readable }))
    .digest("hex");
}

/** The bundles' paths by name when the stamp in `dir` matches `stamp` and every bundle is there, else why not. */
function readStamp(dir, bundles, stamp) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, STAMP), "utf8"));
  } catch {
    return { why: "missing" };
  }
  const files = Object.fromEntries(Object.keys(bundles).map((name) => [name, manifest?.bundles?.[name] && path.join(dir, manifest.bundles[name])]));
  if (Object.values(files).some((f) => !f || !existsSync(f))) return { why: "missing" };
  if (manifest.stamp !== stamp) return { why: "stale" };
  return { files };
}

/**
 * Builds every bundle into `<root>/dist/worker/` and writes the stamp of the sources they came from.
 * @param {{ root: string, bundles?: Record<string, string>, sources?: readonly string[] }} o
 *   `bundles` and `sources` default to {@link WORKER_BUNDLES} and {@link BUNDLE_SOURCES}
 * @returns {Promise<Record<string, string>>} each bundle's absolute path, by name
 * @throws esbuild's build failure (its messages name file, line and column)
 */
export async function buildWorkerBundles({ root, bundles = WORKER_BUNDLES, sources = BUNDLE_SOURCES }) {
  const dir = path.join(root, BUNDLE_DIR);
  // The stamp is taken before building: a source changed during the build makes the result stale.
  const stamp = stampOf(root, bundles, sources);
  mkdirSync(dir, { recursive: true });
  // At once: esbuild runs them side by side in one service.
  const built = await Promise.all(Object.entries(bundles).map(async ([name, contents]) => [name, await bundle({ root, name, contents, dir })]));
  const files = Object.fromEntries(built);
  const manifest = { stamp, bundles: Object.fromEntries(Object.entries(files).map(([name, f]) => [name, path.basename(f)])) };
  // Concurrent builders write equivalent stamps; the rename keeps a reader from seeing half of one.
  const tmp = path.join(dir, `${STAMP}.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(tmp, JSON.stringify(manifest, null, 2) + "\n");
  renameSync(tmp, path.join(dir, STAMP));
  return files;
}

/**
 * The bundles' paths, built first when they are missing or older than their sources (saying so on
 * one line through `log`). When they are current, esbuild is not loaded.
 * @param {{ root: string, bundles?: Record<string, string>, sources?: readonly string[], log?: (line: string) => void }} o
 *   `log` defaults to console.log (standard output: a worker's standard error is for failures)
 * @returns {Promise<Record<string, string>>} each bundle's absolute path, by name
 * @throws esbuild's build failure when a bundle has to be built and does not build
 */
export async function ensureWorkerBundles({ root, bundles = WORKER_BUNDLES, sources = BUNDLE_SOURCES, log = (line) => console.log(line) }) {
  const current = readStamp(path.join(root, BUNDLE_DIR), bundles, stampOf(root, bundles, sources));
  if (current.files) return current.files;
  const state = current.why === "missing" ? "are missing" : "are older than their sources";
  log(`benchwork: the worker's bundles (${BUNDLE_DIR}) ${state}; building them now, once (\`npm run build\` builds them ahead)`);
  return buildWorkerBundles({ root, bundles, sources });
}

/** Shared by every copy of this module in a process (the launcher's and the one bundled into the worker). */
const MEMO = Symbol.for("benchwork.workerBundles");

/**
 * The path of one of the {@link WORKER_BUNDLES} of the project at `root`, checked (and built when
 * needed) once per process, so that every thread of a process loads the same build.
 * @param {string} root the project root
 * @param {string} name a key of {@link WORKER_BUNDLES}
 * @returns {Promise<string>}
 * @throws (rejects) when the bundles have to be built and do not build
 */
export async function workerBundle(root, name) {
  const memo = (globalThis[MEMO] ??= new Map());
  const key = path.resolve(root);
  let p = memo.get(key);
  if (!p) {
    p = ensureWorkerBundles({ root: key });
    memo.set(key, p);
    p.catch(() => memo.delete(key));
  }
  const files = await p;
  if (!files[name]) throw new Error(`no worker bundle named ${name}`);
  return files[name];
}
