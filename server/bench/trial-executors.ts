/**
 * Where a job worker's trials run (issue 20): on trial threads (./trial-pool.ts) when it has any and
 * they start, else on the worker's own thread. One place for both stores' workers: SQLite's
 * (server/worker.ts) and PostgreSQL's (server/job-worker.ts), so the loop's thread keeps only the
 * queue's work (claims, stores, heartbeats), whose round trips then never wait behind a trial's CPU.
 */
import { availableParallelism } from "node:os";
import type { Db } from "@/db/client";
import type { TrialExecutor } from "@/lib/bench/worker";
import { poolExecutorFactory, TrialThreadPool } from "./trial-pool";

/**
 * Trial threads: `BENCHWORK_TRIAL_THREADS` (0 = run trials on the worker's own thread), default one
 * per core less `reserveCores`, at most 4. `store` is what the threads open: the SQLite file or the
 * PostgreSQL URL; a database that is not a file (`:memory:`) cannot be opened by threads: 0.
 * @param reserveCores cores left to other work in the process (the web server's pages: 1)
 * @throws {RangeError} when `BENCHWORK_TRIAL_THREADS` is not a whole number from 0 to 64
 */
export function trialThreadCount(env: Record<string, string | undefined>, store: string, reserveCores = 0): number {
  if (!store || store === ":memory:") return 0;
  const raw = env.BENCHWORK_TRIAL_THREADS;
  if (raw !== undefined && raw.trim() !== "") {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > 64) throw new RangeError(`BENCHWORK_TRIAL_THREADS: expected a whole number from 0 to 64, got "${raw}"`);
    return n;
  }
  return Math.max(0, Math.min(4, availableParallelism() - reserveCores));
}

/** What builds a bench's executor: the trial threads' or the worker's own. */
export type ExecutorFor = (benchId: number) => Promise<TrialExecutor>;

/** Settings of the executors: model keys and settings, and the executor's options. */
export interface TrialExecutorOptions {
  env: Record<string, string | undefined>;
  keepRecord?: boolean;
  retryBaseDelayMs?: number;
}

/**
 * Executors running trials on this thread. The executor code (ai SDK, providers, evaluators) is
 * loaded on first use, so a coordinator whose trials run on threads never holds it in memory.
 */
export function inlineExecutors(db: Db, o: TrialExecutorOptions): ExecutorFor {
  let factory: Promise<ExecutorFor> | null = null;
  return async (benchId) => {
    factory ??= Promise.all([import("./executor"), import("@/lib/evaluators/sandbox"), import("../http-fetch")]).then(([e, s, h]) =>
      e.createExecutorFactory(db, { ...o, fetch: h.nodeFetch, sandbox: s.getSharedSandbox }),
    );
    return (await factory)(benchId);
  };
}

/** A worker's executors once ready, and how to stop its threads. */
export interface TrialExecutors {
  /** Resolves when the threads have loaded (or the worker fell back to its own thread, the reason logged). */
  ready: Promise<ExecutorFor>;
  /** Stops the trial threads (none: nothing to do). */
  close(): Promise<void>;
}

/**
 * Starts `threads` trial threads on store `store` (the SQLite file or the PostgreSQL URL the
 * threads open to read benches), or none when `threads` is 0.
 */
export function startTrialExecutors(db: Db, store: string, threads: number, o: TrialExecutorOptions): TrialExecutors {
  const inline = () => inlineExecutors(db, o);
  if (threads <= 0) return { ready: Promise.resolve(inline()), close: async () => undefined };
  const pool = new TrialThreadPool({ size: threads, dbPath: store, env: o.env, keepRecord: o.keepRecord, retryBaseDelayMs: o.retryBaseDelayMs });
  const ready = pool.prewarm().then(
    () => poolExecutorFactory(db, pool),
    (e: Error) => {
      console.error(`benchwork: trial threads could not start (${e.message}); running trials on the worker's own thread`);
      void pool.close();
      return inline();
    },
  );
  return { ready, close: () => pool.close() };
}
