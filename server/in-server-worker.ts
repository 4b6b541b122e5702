/**
 * The bench worker of the Next.js server process: started once, in a worker thread so that model
 * calls and scoring never block page requests; restarted if the thread dies; stopped on shutdown.
 * Falls back to running in the main thread when the thread cannot start (the reason is logged).
 */
import path from "node:path";
import { existsSync } from "node:fs";
import { SHARE_ENV, Worker } from "node:worker_threads";
import { getDb } from "@/db/client";
import { startBenchWorker } from "./worker";

type Handle = { wake(): void; stop(): Promise<void> };
const g = globalThis as unknown as { benchworkWorker?: Handle };

function threadWorker(): Handle {
  const root = process.cwd();
  const file = path.join(/*turbopackIgnore: true*/ root, "server", "worker-thread.mjs");
  if (!existsSync(file)) throw new Error(`${file} is missing`);
  let thread: Worker | null = null;
  let stopping = false;
  let restarts = 0;
  const start = () => {
    const t = new Worker(file, { workerData: { root }, env: SHARE_ENV, resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 48 } });
    t.on("error", (e) => console.error("benchwork worker thread failed:", e));
    t.on("exit", (code) => {
      if (stopping) return;
      // Trials it held go back to the queue (its heartbeat stops); start a fresh thread.
      const delay = Math.min(30_000, 1_000 * 2 ** restarts++);
      console.error(`benchwork worker thread exited (${code}); restarting in ${delay} ms`);
      setTimeout(() => !stopping && (thread = start()), delay).unref();
    });
    t.on("message", (m) => m === "ready" && (restarts = 0));
    return t;
  };
  thread = start();
  return {
    wake: () => thread?.postMessage("wake"),
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        const t = thread;
        if (!t) return resolve();
        const timer = setTimeout(() => void t.terminate().finally(resolve), 5_000);
        t.once("message", (m) => m === "stopped" && (clearTimeout(timer), void t.terminate().finally(resolve)));
        t.postMessage("stop");
      }),
  };
}

/** Starts the in-server worker unless this process already runs one. */
export function startInServerWorker(): void {
  if (g.benchworkWorker) return;
  try {
    g.benchworkWorker = threadWorker();
  } catch (e) {
    console.error(`benchwork: running the bench worker on the main thread (${(e as Error).message})`);
    const w = startBenchWorker(getDb());
    g.benchworkWorker = { wake: w.wake, stop: () => w.stop(3_000) };
  }
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => {
      void g.benchworkWorker?.stop().finally(() => process.exit(0));
    });
  }
}

/** Wakes the worker (after a launch or a cancel) so it claims at once instead of at its next poll. */
export function wakeInServerWorker(): void {
  g.benchworkWorker?.wake();
}
