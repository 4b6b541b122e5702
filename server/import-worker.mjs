// Worker thread of server/parse-bounded.ts: parses ONE uploaded file with the import core and
// posts the result back. It runs under worker resourceLimits and is terminated on timeout, so a
// hostile or pathological file cannot stall or exhaust the server.
//
// Plain JavaScript on purpose: the Next.js production build does not bundle this file; it is
// loaded from the project root at run time and loads the import core from its bundle (`entry`:
// scripts/worker-bundles.mjs's "import-parser", resolved by the parent), without esbuild.
import { parentPort, workerData } from "node:worker_threads";
import { pathToFileURL } from "node:url";

const { op, bytes, fileName, options, entry } = workerData;

async function run() {
  const { inspect, parseFile } = await import(pathToFileURL(entry).href);
  const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (op === "inspect") return inspect(data, fileName, options);
  return parseFile(data, fileName, options);
}

try {
  const value = await run();
  parentPort.postMessage({ ok: true, value });
} catch (e) {
  if (e && typeof e === "object" && e.name === "ImportError") {
    parentPort.postMessage({ ok: false, importError: { code: e.code, message: e.message, fileName: e.fileName, limit: e.limit, actual: e.actual } });
  } else {
    parentPort.postMessage({ ok: false, error: String(e && e.stack ? e.stack : e) });
  }
}
