/**
 * Messages between the bench worker's coordinating thread and its trial threads
 * (server/bench/trial-pool.ts ↔ server/bench/trial-thread-main.ts). Both sides send in batches
 * because a message per trial (and the wake-up of the receiving thread) costs more than the
 * trial's own bookkeeping at thousands of trials per second.
 */
import type { ClaimedTrial, TrialOutcome } from "@/lib/bench/queue";

/** Settings a trial thread starts with (its `workerData`). */
export interface TrialThreadData {
  /** Project root: where `tsconfig.json` and `server/` are. */
  root: string;
  /**
   * The coordinator's store: its SQLite file, or its PostgreSQL URL (`postgres://…`). The thread
   * opens its own connection (a pool of 2 on PostgreSQL) and only reads from it.
   */
  dbPath: string;
  /** Keep each trial's full record (see ExecutorOptions.keepRecord). */
  keepRecord?: boolean;
  /** First retry delay in ms (see ExecutorOptions.retryBaseDelayMs). */
  retryBaseDelayMs?: number;
}

/**
 * One trial to run. The thread starts it on arrival: the job queue's claim already holds the
 * bench's concurrency and the provider's limit, so a thread keeps no bound of its own.
 */
export interface TrialRun {
  benchId: number;
  trial: ClaimedTrial;
  /** The candidate's provider key (null: a recorded candidate calls none). */
  providerKey: string | null;
  /** Report the start of the trial's model call (absent or false: the coordinator does not listen). */
  reportStart?: boolean;
}

/** A trial to stop: running, it is aborted; still waiting in the thread's queue, it is skipped as never run. */
export interface TrialAbort {
  id: number;
  reason: string;
}

/**
 * Coordinator → trial thread: trials to queue, then trials to stop. Both go in one ordered stream,
 * so a stop never overtakes the trial it names, and the thread takes every stop of a batch before
 * it starts another trial (a cancelled bench's queued trials must not start, one after the other,
 * as each running one is aborted).
 */
export type ToTrialThread = { type: "batch"; runs: TrialRun[]; aborts: TrialAbort[] };

/** An item of the coordinator's stream to a thread (see {@link ToTrialThread}). */
export type ToTrialThreadItem = { run: TrialRun } | { abort: TrialAbort };

/** One message from a batch of stream items; runs keep their order, stops theirs. */
export function toTrialThreadMessage(items: ToTrialThreadItem[]): ToTrialThread {
  const m: ToTrialThread = { type: "batch", runs: [], aborts: [] };
  for (const i of items) {
    if ("run" in i) m.runs.push(i.run);
    else m.aborts.push(i.abort);
  }
  return m;
}

/**
 * Trial thread → coordinator: trials whose model call started (an id per start; each counts an
 * attempt) and trials that ended. A trial's start comes in the same message as its outcome or in
 * an earlier one.
 */
export type FromTrialThread = { type: "ready" } | { type: "done"; started: number[]; outcomes: TrialOutcome[] };

/**
 * Collects items and hands them to `send` together: after `delayMs` (default 0 = at the end of this
 * event-loop turn, on `setImmediate`). Every message wakes the other thread, so a few ms of
 * batching saves a wake-up per trial when trials finish one by one (a model with real latency);
 * trials never wait on it, because each thread keeps a queue of trials to start.
 * @returns `push(item)`
 */
export function batcher<T>(send: (items: T[]) => void, delayMs = 0): (item: T) => void {
  let items: T[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const batch = items;
    items = [];
    if (batch.length) send(batch);
  };
  return (item) => {
    items.push(item);
    if (!scheduled) {
      scheduled = true;
      if (delayMs > 0) setTimeout(flush, delayMs);
      else setImmediate(flush);
    }
  };
}
