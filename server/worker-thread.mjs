// The bench worker's thread inside the Next.js server process (server/in-server-worker.ts).
// Its own event loop and its own SQLite connection keep pages responsive while trials run.
// Plain JavaScript on purpose: not bundled by Next.js; it loads the TypeScript worker through tsx.
import { parentPort, workerData } from "node:worker_threads";
import path from "node:path";
import { pathToFileURL } from "node:url";

const { root } = workerData;
const { register } = await import("tsx/esm/api");
register({ tsconfig: path.join(root, "tsconfig.json") });
const { runWorkerThread } = await import(pathToFileURL(path.join(root, "server/worker-thread-main.ts")).href);
runWorkerThread(parentPort);
