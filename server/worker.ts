/**
 * Wires the bench worker (lib/bench/worker.ts) to the SQLite queue, the executor and this
 * process's environment. Used by Next.js instrumentation (the in-server worker), by
 * `npm run worker` (a separate process on the same database) and by the CLI.
 */
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { SqliteTrialQueue } from "@/db/queries/trial-queue";
import { startWorker } from "@/lib/bench/worker";
import { getSharedSandbox } from "@/lib/evaluators/sandbox";
import { createExecutorFactory } from "./bench/executor";
import { nodeFetch } from "./http-fetch";

/** True when a process with this pid exists on this machine (signal 0 checks without signalling). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Per-provider concurrency: `BENCHWORK_PROVIDER_CONCURRENCY` (default 32). */
export function providerConcurrency(env: Record<string, string | undefined>): number {
  const n = Number(env.BENCHWORK_PROVIDER_CONCURRENCY);
  return Number.isInteger(n) && n > 0 ? n : 32;
}

/**
 * Starts a worker on `db`.
 * @param o.env environment for model keys and settings (default `process.env`)
 */
export function startBenchWorker(
  db: Db,
  o: { env?: Record<string, string | undefined>; pollMs?: number; onBenchFinished?: (id: number) => void; keepRecord?: boolean; retryBaseDelayMs?: number } = {},
) {
  const env = o.env ?? process.env;
  const limit = providerConcurrency(env);
  return startWorker({
    queue: new SqliteTrialQueue(db),
    workerId: `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`,
    pid: process.pid,
    executorFor: createExecutorFactory(db, { env, fetch: nodeFetch, sandbox: getSharedSandbox, keepRecord: o.keepRecord, retryBaseDelayMs: o.retryBaseDelayMs }),
    providerLimit: () => limit,
    isAlive: pidAlive,
    pollMs: o.pollMs,
    onBenchFinished: o.onBenchFinished,
  });
}
