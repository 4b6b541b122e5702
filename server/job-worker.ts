/**
 * Wires the job worker (lib/bench/job-worker.ts) to PostgreSQL's trial job queue (pg-boss), the
 * bench executors and this process's environment (issue 20). Started by Next.js instrumentation on
 * a PostgreSQL store (unless `BENCHWORK_WORKER=off`) and by `npm run worker` with
 * `BENCHWORK_DATABASE_URL` set; any number of them, on any hosts, share the queue's limits.
 */
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { PgTrialJobQueue } from "@/db/pg/trial-job-queue";
import { pgStoreUrl } from "@/db/pg/store";
import { listenForTrialJobs } from "@/db/pg/trial-job-notices";
import { pgStoreName } from "@/db/pg/client";
import { storeOutageLog } from "./store-outage";
import { finalizeBench } from "@/db/queries/bench-finalize";
import { benchesToCancel, benchesToFinalize, claimedTrialRows } from "@/db/queries/trial-jobs";
import { startJobWorker as startLoop } from "@/lib/bench/job-worker";
import { IdleGate } from "@/lib/bench/idle-gate";
import { LOCKED_OUT_RETRY_MS, pgLoopQueue } from "./pg-loop-queue";
import { startTrialExecutors, trialThreadCount } from "./bench/trial-executors";
import { laneRetirer } from "./lane-retirer";

/**
 * `BENCHWORK_WORKER_SLOTS`: most trials one job worker runs at once (default 256). The queue still
 * holds each bench's concurrency and each provider's limit over all workers.
 * @throws {RangeError} naming the variable when it is not a whole number from 1 to 4,096
 */
export function workerSlots(env: Record<string, string | undefined>): number {
  const raw = env.BENCHWORK_WORKER_SLOTS;
  if (raw === undefined || raw.trim() === "") return 256;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 4096) throw new RangeError(`BENCHWORK_WORKER_SLOTS: expected a whole number from 1 to 4096, got "${raw}"`);
  return n;
}

/**
 * `BENCHWORK_WORKER_LEASE_MS`: how long a job worker's claim lasts without a heartbeat (default
 * 60,000): a worker that dies holds its trials this long before they run elsewhere.
 * @returns ms, or undefined for the queue's default
 * @throws {RangeError} naming the variable when it is not a whole number from 1,000 to 3,600,000
 */
export function workerLeaseMs(env: Record<string, string | undefined>): number | undefined {
  const raw = env.BENCHWORK_WORKER_LEASE_MS;
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1_000 || n > 3_600_000)
    throw new RangeError(`BENCHWORK_WORKER_LEASE_MS: expected a whole number of ms from 1000 to 3600000, got "${raw}"`);
  return n;
}

/**
 * How often an idle job worker looks for work (ms) while it hears launches' notifications: each
 * look is 3 statements; a launch wakes it at once, so this bounds only a missed notification and
 * how late an idle worker expires a dead one's claims (leases last 60 s).
 */
export const IDLE_POLL_MS = 2_000;

/** A running job worker. */
export interface JobWorkerHandle {
  /** Look for work now (after a launch) instead of at the next poll. */
  wake(): void;
  /** Stops claiming, lets running trials finish up to `graceMs`, stores their results, closes the queue. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a job worker on the PostgreSQL store `db`: its own queue connection (with pg-boss's
 * maintenance on); trials run on trial threads, each with its own two connections to read benches
 * (none: on this thread). A store claims the slots it frees in its own
 * transaction, and a claim locked out of a lane tries again after {@link LOCKED_OUT_RETRY_MS}
 * (server/pg-loop-queue.ts).
 * @param o.env model keys and settings (default `process.env`); o.slots overrides {@link workerSlots}
 * @param o.trialThreads trial threads (default {@link trialThreadCount} with a core left to this
 *   thread, which in the web server also serves the pages)
 * @param o.leaseMs how long a claim lasts without a heartbeat (default {@link workerLeaseMs}, else 60 s)
 * @param o.pollMs how often it looks for work, cancellations and benches to finalize while any bench is open (default 250)
 * @param o.idlePollMs how often it looks while no bench is open, woken at once by a launch's notification (default {@link IDLE_POLL_MS})
 * @throws when the queue cannot start (PostgreSQL unreachable; what it started is stopped), or
 *   RangeError naming the variable of a bad setting (nothing started)
 */
export async function startJobWorker(
  db: Db,
  o: {
    env?: Record<string, string | undefined>;
    slots?: number;
    pollMs?: number;
    idlePollMs?: number;
    leaseMs?: number;
    trialThreads?: number;
    keepRecord?: boolean;
    retryBaseDelayMs?: number;
    onBenchFinished?: (id: number) => void;
  } = {},
): Promise<JobWorkerHandle> {
  const env = o.env ?? process.env;
  const url = pgStoreUrl(db);
  if (!url) throw new Error("startJobWorker: the PostgreSQL store was opened without a URL");
  // Settings first: a bad one throws before anything is started.
  const leaseMs = o.leaseMs ?? workerLeaseMs(env);
  const slots = o.slots ?? workerSlots(env);
  // Trials run on trial threads (none: on this thread); this thread keeps the queue's work, so a
  // store's round trips never wait behind a trial's CPU (server/bench/trial-executors.ts).
  const threads = o.trialThreads ?? trialThreadCount(env, url, 1);
  const queue = new PgTrialJobQueue({ url, leaseMs, supervise: true });
  try {
    await queue.start();
  } catch (e) {
    await queue.stop().catch(() => undefined); // its pools and pg-boss's timers, whatever started
    throw e;
  }
  const trialExecutors = startTrialExecutors(db, url, threads, { env, keepRecord: o.keepRecord, retryBaseDelayMs: o.retryBaseDelayMs });
  // Claims wait until the threads have loaded (~0.5–1 s), as on SQLite: a trial claimed earlier would hold its slot idle.
  const executorFor = await trialExecutors.ready;
  // Idle, the worker asks PostgreSQL nothing until a launch notifies it (or `idlePollMs` passed);
  // busy, it polls every `pollMs` as before (lib/bench/idle-gate.ts).
  let wakeLoop = () => undefined as void;
  const listener = listenForTrialJobs(url, () => {
    gate.wake();
    wakeLoop();
  });
  const gate = new IdleGate(o.idlePollMs ?? IDLE_POLL_MS, listener.listening);
  const asked = <T>(read: () => Promise<T[]>) => (gate.asking ? read() : Promise.resolve([]));
  // An outage is one line when it starts and one when it ends; the loop backs off meanwhile.
  const outage = storeOutageLog("benchwork job worker", pgStoreName(url));
  // A claim locked out of a lane by another worker's claim is tried again shortly (one timer at a time).
  let retry: ReturnType<typeof setTimeout> | null = null;
  const claimSoon = () => {
    retry ??= setTimeout(() => {
      retry = null;
      wakeLoop();
    }, LOCKED_OUT_RETRY_MS);
  };
  // Ended benches' lanes (pg-boss queues, each a table) are dropped in the background (server/lane-retirer.ts).
  const lanes = laneRetirer(() => queue.retireEndedLanes());
  const loop = startLoop({
    queue: pgLoopQueue(queue, { gate, slots, claimSoon }),
    onError: outage.onError,
    onRecovered: outage.onRecovered,
    workerId: `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`,
    slots,
    leaseMs: queue.leaseMs,
    pollMs: o.pollMs,
    onPoll: async () => {
      gate.beginPoll(Date.now());
      lanes.kick();
    },
    loadTrials: (ids) => claimedTrialRows(db, ids),
    executorFor,
    cancelRequested: () => asked(() => benchesToCancel(db)),
    finalizable: () => asked(() => benchesToFinalize(db)),
    finalize: async (benchId, now) => {
      if ((await finalizeBench(db, benchId, now)) === null) return false;
      lanes.due();
      lanes.kick();
      return true;
    },
    onBenchFinished: o.onBenchFinished,
  });
  wakeLoop = loop.wake;
  return {
    wake: () => {
      gate.wake();
      loop.wake();
    },
    async stop(graceMs?: number) {
      try {
        await loop.stop(graceMs);
        if (retry) clearTimeout(retry);
        await lanes.stop();
        await listener.close();
        await queue.stop();
      } finally {
        await trialExecutors.close(); // live threads would keep the process alive
      }
    },
  };
}
