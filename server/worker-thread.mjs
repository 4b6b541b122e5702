// The bench worker's thread inside the Next.js server process (server/in-server-worker.ts).
// Its own event loop and its own SQLite connection keep pages responsive while trials run.
// Plain JavaScript on purpose: not bundled by Next.js; it loads the worker's bundle built ahead by
// `npm run build` / `npm start` (scripts/worker-bundles.mjs; built here once, with a line saying
// so, when missing or stale), so a current build needs no esbuild at run time (issue 20).
import { parentPort, workerData } from "node:worker_threads";
import path from "node:path";
import { pathToFileURL } from "node:url";

const { root } = workerData;
const { workerBundles } = await import(pathToFileURL(path.join(root, "scripts", "worker-bundles.mjs")).href);
// Its trial threads' bundle too: checked (and built when stale) with this one, in one go.
const bundles = await workerBundles(root, ["worker-thread", "trial-thread"]);
const { runWorkerThread } = await import(pathToFileURL(bundles["worker-thread"]).href);
runWorkerThread(parentPort);
