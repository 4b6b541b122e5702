// Worker thread of server/suite/function-evaluator.ts: runs `evaluate` functions of eval modules
// (issue #6) away from the CLI's thread, with an empty environment (the parent starts it with
// `env: {}`) and resource limits; the parent enforces the deadline and terminates this thread on
// timeout.
//
// Plain JavaScript on purpose (no build step); eval modules are loaded with jiti, the same loader
// that compiled the release, so the function's source text matches the hash frozen in the release.
//
// Protocol (one job at a time):
//   parent → { id, file, exportPath, sha256, input }
//   worker → { id, phase: "loaded" }                       module loaded, function found, hash checked
//   worker → { id, ok: true, value }                       what evaluate returned (awaited)
//   worker → { id, ok: false, failure, message }           failure: "load" | "changed" | "crash"
import { parentPort } from "node:worker_threads";
import { createHash } from "node:crypto";
import { createJiti } from "jiti";

const jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: false, interopDefault: false });
/** Default exports by absolute file path (a module is loaded once per thread). */
const modules = new Map();

function describe(e) {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  try {
    return JSON.stringify(e) ?? String(e);
  } catch {
    return String(e);
  }
}

/** Follows `evaluate` or `cases[N].evaluate` inside the default export. */
function pick(root, exportPath) {
  let v = root;
  for (const part of exportPath.split(".")) {
    const m = /^(\w+)(?:\[(\d+)\])?$/.exec(part);
    if (!m || v == null) return undefined;
    v = v[m[1]];
    if (m[2] !== undefined) v = v == null ? undefined : v[Number(m[2])];
  }
  return v;
}

async function handle(job) {
  let fn;
  try {
    let def = modules.get(job.file);
    if (def === undefined) {
      const ns = await jiti.import(job.file);
      def = ns?.default;
      modules.set(job.file, def);
    }
    fn = pick(def, job.exportPath);
  } catch (e) {
    return { ok: false, failure: "load", message: `the eval module could not be loaded: ${describe(e)}` };
  }
  if (typeof fn !== "function") return { ok: false, failure: "load", message: `${job.exportPath} is not a function in the module's default export` };
  const sha = createHash("sha256").update(String(fn), "utf8").digest("hex");
  if (job.sha256 && sha !== job.sha256) {
    return { ok: false, failure: "changed", message: "the evaluate function changed since the release was compiled; compile again" };
  }
  parentPort.postMessage({ id: job.id, phase: "loaded" });
  try {
    return { ok: true, value: await fn(job.input) };
  } catch (e) {
    return { ok: false, failure: "crash", message: `evaluate threw ${describe(e)}` };
  }
}

parentPort.on("message", async (job) => {
  const outcome = await handle(job);
  try {
    parentPort.postMessage({ id: job.id, ...outcome });
  } catch (e) {
    parentPort.postMessage({ id: job.id, ok: false, failure: "crash", message: `evaluate returned a value that cannot be copied out of the worker (${describe(e)}); return a boolean or { passed, score, message, details }` });
  }
});
