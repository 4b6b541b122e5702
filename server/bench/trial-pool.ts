/**
 * Trial threads (issue #5, throughput): a trial costs ~0.7 ms of CPU, most of it in the ai SDK and
 * the HTTP client, so one thread tops out near 1,300 trials/s and, near that load, delays every
 * model call it waits on. The worker's own thread keeps the queue (claims, results, finalizing) and
 * hands the trials to a few worker threads, one per core, that run them.
 *
 * Exactly-once is unchanged: threads never touch the queue; the coordinator stores each outcome. A
 * thread that dies is replaced, and its trials run once more on the new thread (as a restarted
 * worker reruns the trials it was running); a trial whose thread dies twice ends as `error`.
 */
import v8 from "node:v8";
import { Worker } from "node:worker_threads";
import type { Db } from "@/db/client";
import { getBench } from "@/db/queries/benches";
import type { ClaimedTrial, TrialOutcome } from "@/lib/bench/queue";
import { workerErrorOutcome, type TrialExecutor, type TrialLimits } from "@/lib/bench/worker";
import { providerKeyOf } from "./provider-key";
import { batcher, toTrialThreadMessage, type FromTrialThread, type ToTrialThreadItem, type TrialThreadData } from "./trial-messages";
import { trialThreadEntry } from "./trial-thread-bundle";

/** Options of {@link TrialThreadPool}. */
export interface TrialPoolOptions extends Omit<TrialThreadData, "root"> {
  /** Number of trial threads (≥ 1). */
  size: number;
  /** Project root (where `tsconfig.json` and `server/` are). Default `BENCHWORK_ROOT` or the working directory. */
  root?: string;
  /** The threads' environment (model keys). */
  env: Record<string, string | undefined>;
}

/** A trial handed to a thread and not back yet. */
interface Pending {
  benchId: number;
  /** The thread started the trial's model call (once per start, a rerun included); absent: not reported. */
  started?: () => void;
  deliver: (o: TrialOutcome) => void;
  /** Hands the trial to a new thread after its thread died; null when it already had that second chance. */
  rerun: (() => void) | null;
}

interface Slot {
  worker: Promise<Worker>;
  /** Resolves when the thread has loaded its code. */
  ready: Promise<void>;
  pending: Map<number, Pending>;
  send: (item: ToTrialThreadItem) => void;
}

/**
 * Semi-space of a trial thread's young generation, in MB. A trial allocates ~100 KB in the ai SDK;
 * with 30+ trials in flight per thread a smaller young generation promotes their objects to the
 * old generation and costs a fifth of the throughput (measured with bench/runner.ts: 16 MB → ~2,100
 * trials/s, 4 MB → ~1,400).
 */
const THREAD_SEMI_SPACE_MB = 16;

const failed = (id: number, why: string): TrialOutcome => workerErrorOutcome(id, why, Date.now());

/** A fixed-size pool of trial threads, started on first use. */
export class TrialThreadPool {
  private readonly slots: (Slot | null)[];
  private closed = false;
  private readonly data: TrialThreadData;
  private readonly env: Record<string, string>;

  constructor(o: TrialPoolOptions) {
    if (!Number.isInteger(o.size) || o.size < 1) throw new RangeError(`trial threads: expected a whole number ≥ 1, got ${o.size}`);
    const root = o.root ?? (process.env.BENCHWORK_ROOT || process.cwd());
    this.data = { root, dbPath: o.dbPath, keepRecord: o.keepRecord, retryBaseDelayMs: o.retryBaseDelayMs };
    this.env = Object.fromEntries(Object.entries(o.env).filter((e): e is [string, string] => typeof e[1] === "string"));
    this.slots = Array.from({ length: o.size }, () => null);
  }

  private start(i: number): Slot {
    let markReady!: () => void;
    const slot: Slot = { worker: null!, ready: new Promise<void>((r) => (markReady = r)), pending: new Map(), send: null! };
    /** Ends the thread's trials: each runs once more on a new thread when `rerun` allows, else fails. */
    const failAll = (why: string, rerun: boolean) => {
      if (this.slots[i] === slot) this.slots[i] = null;
      const pending = [...slot.pending];
      slot.pending.clear();
      for (const [id, p] of pending) {
        if (rerun && p.rerun && !this.closed) p.rerun();
        else p.deliver(failed(id, p.rerun ? why : `${why}, for the second time`));
      }
    };
    slot.worker = trialThreadEntry(this.data.root).then(
      (entry) => {
        // A process-wide --max-semi-space-size wins over a thread's resourceLimits: the worker process
        // starts with a small one for its own, lightly allocating thread (`npm run worker`), and
        // sets the threads' size just before creating them (V8 reads it when an isolate is made).
        v8.setFlagsFromString(`--max-semi-space-size=${THREAD_SEMI_SPACE_MB}`);
        // Start at full size: a young generation that grows from 1 MB promotes the first minutes'
        // trials to the old generation (measured: ~8 ms slower trials for the first seconds).
        v8.setFlagsFromString(`--min-semi-space-size=${THREAD_SEMI_SPACE_MB}`);
        const worker = new Worker(entry, { workerData: this.data, env: this.env, resourceLimits: { maxYoungGenerationSizeMb: 3 * THREAD_SEMI_SPACE_MB } });
        worker.on("message", (m: FromTrialThread) => {
          if (m.type === "ready") return markReady();
          for (const id of m.started) slot.pending.get(id)?.started?.();
          for (const o of m.outcomes) {
            const p = slot.pending.get(o.id);
            slot.pending.delete(o.id);
            p?.deliver(o);
          }
        });
        worker.on("error", (e) => console.error("benchwork trial thread failed:", e));
        worker.on("exit", (code) => {
          markReady();
          failAll(`the trial thread stopped (exit code ${code}) while running this trial`, true);
        });
        return worker;
      },
      (e: Error) => {
        markReady();
        failAll(`the trial thread could not be built: ${e.message}`, false);
        throw e;
      },
    );
    slot.worker.catch(() => {});
    // Trials for a thread go together at the end of this event-loop turn (the loop hands over a
    // claim's trials at once): no wait of its own, since every ms a claimed trial waits here holds
    // its bench's slot idle. Stops go the same way, so a stop never arrives before the trial it names.
    slot.send = batcher<ToTrialThreadItem>(
      (items) =>
        void slot.worker.then(
          (w) => w.postMessage(toTrialThreadMessage(items)),
          () => {},
        ),
      0,
    );
    this.slots[i] = slot;
    return slot;
  }

  /**
   * Starts every thread now (a worker process does this at start, so the first bench does not wait
   * ~0.5 s for the bundle and the threads' module loading).
   * @returns when every thread has loaded its code and said it is ready; rejects if one cannot start
   */
  async prewarm(): Promise<void> {
    await Promise.all(
      this.slots.map((s, i) => {
        const slot = s ?? this.start(i);
        return slot.worker.then(() => slot.ready);
      }),
    );
  }

  /**
   * Runs one trial on the least busy thread.
   * @param signal aborts the trial in its thread (the outcome still comes back)
   * @param started called when the thread starts the trial's model call (again if it reruns it);
   *   without it the thread does not report the start (no message)
   * @returns the trial's outcome; never rejects
   */
  run(benchId: number, trial: ClaimedTrial, signal: AbortSignal, limits: TrialLimits, started?: () => void): Promise<TrialOutcome> {
    return this.dispatch(benchId, trial, signal, limits, true, started);
  }

  private dispatch(
    benchId: number,
    trial: ClaimedTrial,
    signal: AbortSignal,
    limits: TrialLimits,
    mayRerun: boolean,
    started: (() => void) | undefined,
  ): Promise<TrialOutcome> {
    if (this.closed) return Promise.resolve(failed(trial.id, "the trial threads are stopped"));
    // The thread with the fewest trials on hand.
    let best = 0;
    for (let i = 1; i < this.slots.length; i++) if ((this.slots[i]?.pending.size ?? 0) < (this.slots[best]?.pending.size ?? 0)) best = i;
    const slot = this.slots[best] ?? this.start(best);
    return new Promise<TrialOutcome>((resolve) => {
      const onAbort = () => slot.send({ abort: { id: trial.id, reason: String((signal.reason as Error)?.message ?? signal.reason) } });
      const deliver = (o: TrialOutcome) => {
        signal.removeEventListener("abort", onAbort);
        resolve(o);
      };
      const rerun = mayRerun
        ? () => {
            signal.removeEventListener("abort", onAbort);
            // A cancelled bench's trial is not started again.
            if (signal.aborted) resolve(failed(trial.id, "the trial thread stopped while this trial was being cancelled"));
            else void this.dispatch(benchId, trial, signal, limits, false, started).then(resolve);
          }
        : null;
      slot.pending.set(trial.id, { benchId, started, deliver, rerun });
      signal.addEventListener("abort", onAbort, { once: true });
      slot.send({ run: { benchId, trial, providerKey: limits.providerKey, reportStart: started !== undefined } });
    });
  }

  /** Stops every thread; trials still running in them end as `error`. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.slots.flatMap((s) =>
        s
          ? [
              s.worker.then(
                (w) => w.terminate(),
                () => {},
              ),
            ]
          : [],
      ),
    );
  }
}

/**
 * Executors that run a bench's trials on `pool`. The job queue's claim already holds the bench's
 * concurrency and each provider's limit over every worker, so the threads add no bound of their
 * own: each trial starts on its thread as soon as it arrives.
 */
export function poolExecutorFactory(db: Db, pool: TrialThreadPool): (benchId: number) => Promise<TrialExecutor> {
  // One per bench (the loop asks for each trial): reading the bench costs more than a trial's bookkeeping.
  const cache = new Map<number, Promise<TrialExecutor>>();
  return (benchId) => {
    let e = cache.get(benchId);
    if (!e) {
      e = poolExecutor(db, pool, benchId);
      cache.set(benchId, e);
      e.catch(() => cache.delete(benchId));
      if (cache.size > 16) cache.delete(cache.keys().next().value!);
    }
    return e;
  };
}

async function poolExecutor(db: Db, pool: TrialThreadPool, benchId: number): Promise<TrialExecutor> {
  const bench = await getBench(db, benchId);
  if (!bench) throw new Error(`bench #${benchId} does not exist`);
  const candidates = new Map(bench.candidates.map((c) => [c.id, c]));
  const providerKey = (t: ClaimedTrial) => providerKeyOf(candidates.get(t.candidateId));
  return {
    providerKey,
    run: (t, signal, _limits, started) => pool.run(benchId, t, signal, { concurrency: Infinity, providerKey: providerKey(t), provider: Infinity }, started),
  };
}
