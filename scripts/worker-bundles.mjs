// The worker's bundles, built ahead of time (issue 20): `npm install`'s last step, `npm run build`
// and `npm start`'s build step write them into BUNDLE_DIR with a stamp of their sources, so that
// `npm run worker`, the server's worker and trial threads, the upload parser, the seed step and the
// `benchwork` command start from plain JavaScript without esbuild (or tsx, which starts esbuild too). When they are missing or older than their
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
  // The `benchwork` command (cli/bin.mjs).
  cli: `export { main } from "./cli/main.ts";\n`,
};

/** What the bundles are built from (folders or files, relative to the root): a change in any makes them stale. */
export const BUNDLE_SOURCES = [
  "lib",
  "db",
  "server",
  "cli",
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
 * Each bundle's stamp of the current sources: the files' fingerprint (build-state.mjs, taken once),
 * the bundle's entry, and whether bundles are readable (BENCHWORK_BUNDLE_READABLE keeps line
 * breaks for profiling).
 * @returns {(name: string) => string}
 */
function stampsOf(root, bundles, sources) {
  const files = fingerprintOf(root, sources);
  const readable = Boolean(process.env.BENCHWORK_BUNDLE_READABLE);
  return (name) =>
    createHash("sha256")
      .update(JSON.stringify({ files, entry: bundles[name], readable }))
      .digest("hex");
}

/** The manifest in `dir`: `{ bundles: { [name]: { file, stamp } } }` (empty when missing or unreadable). */
function readManifest(dir) {
  try {
    const m = JSON.parse(readFileSync(path.join(dir, STAMP), "utf8"));
    return m && typeof m.bundles === "object" && m.bundles ? m : { bundles: {} };
  } catch {
    return { bundles: {} };
  }
}

/** Writes the manifest whole (a rename, so a reader never sees half of one). */
function writeManifest(dir, manifest) {
  const tmp = path.join(dir, `${STAMP}.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(tmp, JSON.stringify(manifest, null, 2) + "\n");
  renameSync(tmp, path.join(dir, STAMP));
}

/** Builds `names` side by side (esbuild runs them in one service); resolves `{ name: { file, stamp } }`. */
async function buildSome(root, dir, bundles, names, stampOf) {
  // Stamps are taken before building: a source changed during the build leaves the result stale.
  const stamps = Object.fromEntries(names.map((name) => [name, stampOf(name)]));
  mkdirSync(dir, { recursive: true });
  const built = await Promise.all(
    names.map(async (name) => [name, { file: path.basename(await bundle({ root, name, contents: bundles[name], dir })), stamp: stamps[name] }]),
  );
  return Object.fromEntries(built);
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
  const entries = await buildSome(root, dir, bundles, Object.keys(bundles), stampsOf(root, bundles, sources));
  writeManifest(dir, { bundles: entries });
  return Object.fromEntries(Object.entries(entries).map(([name, e]) => [name, path.join(dir, e.file)]));
}

/**
 * The paths of the bundles `names`, building first those that are missing or older than their
 * sources (saying so on one line through `log`). When they are current, esbuild is not loaded.
 * @param {{ root: string, names?: readonly string[], bundles?: Record<string, string>, sources?: readonly string[], log?: (line: string) => void }} o
 *   `names` defaults to every bundle; `log` to console.log (standard output: a worker's standard
 *   error is for failures)
 * @returns {Promise<Record<string, string>>} each bundle's absolute path, by name
 * @throws {Error} naming an unknown bundle; esbuild's build failure when one has to be built and does not build
 */
export async function ensureWorkerBundles({ root, names, bundles = WORKER_BUNDLES, sources = BUNDLE_SOURCES, log = (line) => console.log(line) }) {
  const wanted = names ?? Object.keys(bundles);
  for (const name of wanted) if (!(name in bundles)) throw new Error(`no worker bundle named ${name}`);
  const dir = path.join(root, BUNDLE_DIR);
  const stampOf = stampsOf(root, bundles, sources);
  const manifest = readManifest(dir);
  const missing = wanted.filter((name) => !manifest.bundles[name]?.file || !existsSync(path.join(dir, manifest.bundles[name].file)));
  const stale = wanted.filter((name) => !missing.includes(name) && manifest.bundles[name].stamp !== stampOf(name));
  if (missing.length || stale.length) {
    const why = [missing.length && `${missing.join(", ")} missing`, stale.length && `${stale.join(", ")} older than their sources`].filter(Boolean).join("; ");
    log(`benchwork: worker bundles in ${BUNDLE_DIR}: ${why}; building them now, once (\`npm run build\` builds them ahead)`);
    const built = await buildSome(root, dir, bundles, [...missing, ...stale], stampOf);
    // Read again: another process may have built other bundles meanwhile.
    const latest = readManifest(dir);
    writeManifest(dir, { bundles: { ...latest.bundles, ...built } });
    Object.assign(manifest.bundles, built);
  }
  return Object.fromEntries(wanted.map((name) => [name, path.join(dir, manifest.bundles[name].file)]));
}

/** Shared by every copy of this module in a process (the launcher's and the one bundled into the worker). */
const MEMO = Symbol.for("benchwork.workerBundles");
const LOG = Symbol.for("benchwork.workerBundles.log");

/**
 * Sends this process's lines about building bundles (see {@link workerBundles}) to `log` instead of
 * standard output: the CLI's standard output is the command's own (`--json`), whichever bundle a
 * command needs (its own, the upload parser's, the trial threads').
 * @param {(line: string) => void} log
 */
export function logBundleBuildsTo(log) {
  globalThis[LOG] = log;
}

/**
 * The paths of some of the {@link WORKER_BUNDLES} of the project at `root`, each checked (and built
 * when needed) once per process, so that every thread of a process loads the same build. A process
 * that needs several asks for them at once (one check, one build when stale).
 * @param {string} root the project root
 * @param {readonly string[]} names keys of {@link WORKER_BUNDLES}
 * @returns {Promise<Record<string, string>>} each bundle's absolute path, by name
 * @throws (rejects) naming an unknown bundle, or when one has to be built and does not build
 */
export async function workerBundles(root, names) {
  const key = path.resolve(root);
  const all = (globalThis[MEMO] ??= new Map());
  if (!all.has(key)) all.set(key, new Map());
  const memo = all.get(key);
  const todo = names.filter((name) => !memo.has(name));
  if (todo.length) {
    const log = globalThis[LOG];
    const p = ensureWorkerBundles({ root: key, names: todo, ...(log && { log }) });
    for (const name of todo) {
      const one = p.then((files) => files[name]);
      memo.set(name, one);
      one.catch(() => memo.delete(name));
    }
  }
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await memo.get(name)])));
}

/**
 * The path of one of the {@link WORKER_BUNDLES} (see {@link workerBundles}).
 * @param {string} root the project root
 * @param {string} name a key of {@link WORKER_BUNDLES}
 * @returns {Promise<string>}
 * @throws (rejects) naming an unknown bundle, or when it has to be built and does not build
 */
export async function workerBundle(root, name) {
  return (await workerBundles(root, [name]))[name];
}
