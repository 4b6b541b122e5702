/**
 * Body of the worker thread: opens its own connection to BENCHWORK_DB, runs the bench worker, and
 * answers the server's messages (`wake` after a launch or a cancel, `stop` on shutdown).
 */
import type { MessagePort } from "node:worker_threads";
import { openDatabase } from "@/db/client";
import { startBenchWorker } from "./worker";
import { trialThreadCount } from "./bench/trial-executors";

/** Runs until the parent sends `stop`; then replies `stopped`. */
export function runWorkerThread(port: MessagePort | null): void {
  const db = openDatabase();
  // Pages share this process: one core stays theirs (on 2 cores: 1 trial thread beside this one).
  let trialThreads: number;
  try {
    trialThreads = trialThreadCount(process.env, db.$client.name, 1);
  } catch (e) {
    // A bad setting must not stop the server's pages: say so once and use the default.
    console.error(`benchwork: ${(e as Error).message}; using the default`);
    trialThreads = trialThreadCount({ ...process.env, BENCHWORK_TRIAL_THREADS: "" }, db.$client.name, 1);
  }
  const worker = startBenchWorker(db, { trialThreads });
  port?.on("message", (m: unknown) => {
    if (m === "wake") worker.wake();
    else if (m === "stop") void worker.stop(3_000).finally(() => port.postMessage("stopped"));
  });
  void worker.ready.then(() => port?.postMessage("ready"));
}
