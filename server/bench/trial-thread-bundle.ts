/**
 * The trial threads' code as one bundled ES module (scripts/bundle.mjs), built when the first pool
 * of this process starts (~0.4 s): a thread loading the TypeScript through tsx would cost about
 * twice the memory (issue #5's footprint target).
 */
import { bundle } from "../../scripts/bundle.mjs";

const built = new Map<string, Promise<string>>();

/**
 * Path of the bundled trial-thread entry for the project at `root`, built once per process.
 * @throws (rejects) with esbuild's messages when the code does not build
 */
export function trialThreadEntry(root: string): Promise<string> {
  let p = built.get(root);
  if (!p) {
    p = bundle({
      root,
      name: "trial-thread",
      contents: `import { parentPort, workerData } from "node:worker_threads";\nimport { runTrialThread } from "./server/bench/trial-thread-main.ts";\nrunTrialThread(parentPort, workerData);\n`,
    });
    built.set(root, p);
    p.catch(() => built.delete(root));
  }
  return p;
}
