// `npm run worker`: a bench worker as its own process on BENCHWORK_DB (server/worker-main.ts).
// It runs the bundle built ahead by `npm run build` / `npm start` (scripts/worker-bundles.mjs; built
// here once, with a line saying so, when missing or older than the sources): a worker loaded through
// tsx carries its module-hooks thread and transform caches, ~40 MB more (issue #5 memory), and a
// current bundle needs no esbuild at run time (issue 20).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { workerBundles } from "./worker-bundles.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
process.env.BENCHWORK_ROOT ||= path.resolve(root);
// Its trial threads' bundle too: checked (and built when stale) with the worker's, in one go.
const { worker } = await workerBundles(process.env.BENCHWORK_ROOT, ["worker", "trial-thread"]);
await import(pathToFileURL(worker).href);
