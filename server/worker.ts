/**
 * Wires the job worker (lib/bench/job-worker.ts) to SQLite's trial job queue
 * (db/queries/trial-job-queue.ts), the executor and this process's environment. Used by Next.js
 * instrumentation (the in-server worker), by `npm run worker` (a separate process on the same
 * database) and by the CLI. PostgreSQL's twin is server/job-worker.ts: the same loop, pg-boss's queue.
 */
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { finalizeBench } from "@/db/queries/bench-finalize";
import { SqliteTrialJobQueue } from "@/db/queries/trial-job-queue";
import { benchesToCancel, benchesToFinalize } from "@/db/queries/trial-jobs";
import { startJobWorker } from "@/lib/bench/job-worker";
import { startTrialExecutors, trialThreadCount } from "./bench/trial-executors";
import { enqueueOrphanTrials } from "./bench/trial-jobs";
import { workerLeaseMs, workerSlots } from "./job-worker";

/** Per-provider concurrency: `BENCHWORK_PROVIDER_CONCURRENCY` (default 32). */
export function providerConcurrency(env: Record<string, string | undefined>): number {
  const n = Number(env.BENCHWORK_PROVIDER_CONCURRENCY);
  return Number.isInteger(n) && n > 0 ? n : 32;
}

/** A running bench worker (see {@link startBenchWorker}). */
export interface BenchWorkerHandle {
  /** Look for work now (after a launch or a cancel) instead of at the next poll. */
  wake(): void;
  /** Resolves once the trial threads have loaded (or the worker fell back to its own thread) and the loop claims. */
  ready: Promise<void>;
  /**
   * Stops claiming, lets running trials finish up to `graceMs`, stores their results, then stops
   * the trial threads. Trials still running then are not stored: their claims expire after the
   * lease and they run again.
   */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a job worker on the SQLite store `db`: this thread claims trials from the queue (which
 * holds each bench's concurrency and each provider's limit across every worker process on the
 * file) and stores every result; the trials run on {@link trialThreadCount} trial threads (or on
 * this thread when that is 0), which add no bound of their own. It first enqueues open trials that
 * have no job (a database from before the queue), then claims nothing until its threads have loaded
 * (~0.5–1 s); if the threads cannot start (the reason is logged), trials run on this thread.
 * @param o.env environment for model keys and settings (default `process.env`)
 * @param o.trialThreads overrides {@link trialThreadCount}
 * @param o.slots most trials this worker runs at once (default `BENCHWORK_WORKER_SLOTS`, else 256)
 * @param o.leaseMs how long a claim outlives a dead worker (default `BENCHWORK_WORKER_LEASE_MS`, else 60 s)
 */
export function startBenchWorker(
  db: Db,
  o: {
    env?: Record<string, string | undefined>;
    pollMs?: number;
    onBenchFinished?: (id: number) => void;
    keepRecord?: boolean;
    retryBaseDelayMs?: number;
    trialThreads?: number;
    slots?: number;
    leaseMs?: number;
  } = {},
): BenchWorkerHandle {
  const env = o.env ?? process.env;
  const threads = o.trialThreads ?? trialThreadCount(env, db.$client.name);
  const queue = new SqliteTrialJobQueue(db, { leaseMs: o.leaseMs ?? workerLeaseMs(env) });
  const trialExecutors = startTrialExecutors(db, db.$client.name, threads, { env, keepRecord: o.keepRecord, retryBaseDelayMs: o.retryBaseDelayMs });
  const executors = trialExecutors.ready;
  let stopped = false;
  const worker = executors.then(async (executorFor) => {
    // Trials of an older version's queue (claimed from the trials table) get their jobs first.
    await enqueueOrphanTrials(db, env).catch((e: unknown) => console.error("benchwork: enqueueing trials without a job failed:", e));
    return stopped
      ? null
      : startJobWorker({
          queue,
          workerId: `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`,
          slots: o.slots ?? workerSlots(env),
          leaseMs: queue.leaseMs,
          pollMs: o.pollMs,
          // Results are stored as they arrive, with the claim of the slots they free, in one
          // transaction (the queue's completeAndClaim, which also reads the claimed trials' rows).
          loadTrials: (ids) => queue.claimedTrials(ids),
          executorFor,
          onPoll: () => enqueueOrphanTrials(db, env, { unqueuedOnly: true }),
          cancelRequested: () => benchesToCancel(db),
          finalizable: () => benchesToFinalize(db),
          finalize: async (benchId, now) => (await finalizeBench(db, benchId, now)) !== null,
          onBenchFinished: o.onBenchFinished,
        });
  });
  return {
    wake: () => void worker.then((w) => w?.wake()),
    ready: worker.then(() => undefined),
    async stop(graceMs?: number): Promise<void> {
      stopped = true;
      await (await worker)?.stop(graceMs);
      await trialExecutors.close();
    },
  };
}
