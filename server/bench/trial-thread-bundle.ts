/**
 * The trial threads' code as one bundled ES module, built ahead by `npm run build` / `npm start`
 * (scripts/worker-bundles.mjs) and built here once per process only when missing or stale: a
 * thread loading the TypeScript through tsx would cost about twice the memory (issue #5's
 * footprint target), and a current bundle needs no esbuild at run time (issue 20).
 */
import { workerBundle } from "../../scripts/worker-bundles.mjs";

/**
 * Path of the bundled trial-thread entry for the project at `root`, checked once per process.
 * @throws (rejects) with esbuild's messages when it has to be built and does not build
 */
export function trialThreadEntry(root: string): Promise<string> {
  return workerBundle(root, "trial-thread");
}
