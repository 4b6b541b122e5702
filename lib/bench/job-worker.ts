/**
 * The job worker (issue 20): a plain loop over a trial job queue (lib/bench/trial-jobs.ts), SQLite's
 * or PostgreSQL's pg-boss one. Concurrency comes only from the queue's claim, which holds every
 * bench's and provider's limit across all worker processes; this loop adds no shares, settling or
 * prefetch. It claims up to its free slots, runs each trial through
 * its bench's executor, stores results in batches, keeps its claims alive, applies cancellations and
 * finalizes benches with no open trial. Impure things (queue, rows, executor, clock) are parameters.
 */
import type { ClaimedTrial, TrialOutcome } from "./queue";
import type { TrialClaim, TrialJobQueue, TrialResult } from "./trial-jobs";
import { capOutcome } from "./stored-limits";
import { KeyedSemaphore } from "./semaphore";
import { skippedOutcome, workerErrorOutcome, type TrialExecutor, type TrialLimits } from "./worker";
import { outageBackoffMs } from "../ride-out-outage";

/** What the loop needs from its store. Times in ms since the epoch. */
export interface JobWorkerOptions {
  queue: Pick<TrialJobQueue<unknown>, "claim" | "heartbeat" | "completeMany" | "cancelBench" | "completeAndClaim">;
  workerId: string;
  /** Most trials this worker runs at once (default 256). */
  slots?: number;
  /** The queue's lease in ms: claims are heartbeaten every quarter of it. */
  leaseMs: number;
  /** The rows of claimed trials (candidate, bench case, case revision, repeat), in one query. */
  loadTrials(trialIds: number[]): Promise<ClaimedTrial[]>;
  /** Builds (or returns a cached) executor for a bench. */
  executorFor(benchId: number): Promise<TrialExecutor>;
  /** Open benches whose cancellation was asked. */
  cancelRequested(): Promise<number[]>;
  /** Open benches none of whose trials is queued or running (to finalize). */
  finalizable(): Promise<number[]>;
  /** Finalizes a bench with no open trial. @returns whether this call ended it */
  finalize(benchId: number, now: number): Promise<boolean>;
  /**
   * Runs at every poll before the claim (SQLite: enqueue trials stored without a job, e.g. by an
   * older version). A failure is reported like any other of the loop's.
   */
  onPoll?(): Promise<unknown>;
  /** How often to look for work, cancellations and benches to finalize (default 250). */
  pollMs?: number;
  /**
   * Results are stored as soon as the loop is free (no store or claim of its own in flight: results
   * that end meanwhile go in the next store) and at least `flushMs` after the last store (default 0),
   * or when `flushSize` wait (default 256).
   */
  flushMs?: number;
  flushSize?: number;
  now?: () => number;
  /** A failed step of the loop or a heartbeat (default: logged with its stack). */
  onError?: (e: unknown) => void;
  /** The loop's first step that succeeded after `failures` failed ones in a row (the store is back). */
  onRecovered?: (failures: number) => void;
  onBenchFinished?: (benchId: number) => void;
}

/** A running job worker. */
export interface JobWorkerHandle {
  /** Look for work now (after a launch) instead of at the next poll. */
  wake(): void;
  /**
   * Stops claiming, lets running trials finish up to `graceMs` (default 10 s), stores their results;
   * trials still running then are aborted and not stored: their claims expire and the queue
   * delivers them again.
   */
  stop(graceMs?: number): Promise<void>;
  /** Resolves when the loop has ended. */
  done: Promise<void>;
}

const STOPPING = new Error("worker stopping");
const CANCELLED = new Error("bench cancelled");

interface Running {
  claim: TrialClaim;
  ctl: AbortController;
}

/** Starts the loop. */
export function startJobWorker(o: JobWorkerOptions): JobWorkerHandle {
  const now = o.now ?? Date.now;
  const slots = o.slots ?? 256;
  const pollMs = o.pollMs ?? 250;
  const flushMs = o.flushMs ?? 0;
  const flushSize = o.flushSize ?? 256;
  const heartbeatMs = Math.max(10, Math.floor(o.leaseMs / 4));
  const report = (e: unknown) => (o.onError ? o.onError(e) : console.error("benchwork job worker:", e));
  const running = new Map<number, Running>();
  const buffer: { claim: TrialClaim; result: TrialResult }[] = [];
  const stopCtl = new AbortController();
  let lastPoll = 0;
  let lastFlush = now();
  /**
   * Claim before sleeping: results were stored (their claims no longer count against the bench's
   * and provider's limits) or a wake came (a launch). A trial that ends frees nothing in the queue
   * until its result is stored, so it only wakes the loop ({@link rouse}).
   */
  let claimNow = true;
  let wakeUp: (() => void) | null = null;
  let woken = false;
  const rouse = () => {
    const w = wakeUp;
    wakeUp = null;
    // After the other messages of this turn (trial threads' outcomes arrive one message each):
    // their results go in the same store, their slots in the same claim.
    if (w) setImmediate(w);
    else woken = true;
  };
  const wake = () => {
    claimNow = true;
    rouse();
  };

  // Claims are kept alive on their own timer, not in the loop: a loop held up by a slow store call
  // (a claim queued on a bench's lock, a finalize) must not let the trials it runs expire and run
  // again elsewhere. One heartbeat at a time; it beats until the worker has stopped.
  let beating = false;
  const beatTimer = setInterval(() => {
    if (beating) return;
    beating = true;
    o.queue
      .heartbeat(o.workerId, now())
      .catch(report)
      .finally(() => (beating = false));
  }, heartbeatMs);
  beatTimer.unref?.();

  /**
   * Stores the buffered results and, when `claimMax` > 0 and the queue can
   * ({@link TrialJobQueue.completeAndClaim}), claims up to that many trials in the same transaction
   * (the stored results' slots are free for it). Benches of the stored results with nothing running
   * here are finalized if done.
   * @returns the claims made with the store, with their trials' rows; null when none was attempted
   */
  async function flush(claimMax = 0, t = now()): Promise<{ claims: TrialClaim[]; trials: ClaimedTrial[] } | null> {
    lastFlush = now();
    if (buffer.length === 0) return null;
    const batch = buffer.splice(0, buffer.length);
    let claimed: { claims: TrialClaim[]; trials: ClaimedTrial[] } | null = null;
    try {
      if (claimMax > 0 && o.queue.completeAndClaim) {
        const r = await o.queue.completeAndClaim(batch, o.workerId, claimMax, t);
        claimed = r;
        claimNow = false;
      } else if ((await o.queue.completeMany(batch)).length) claimNow = true;
    } catch (e) {
      buffer.unshift(...batch); // kept for the next flush
      throw e;
    }
    if (claimed) start(claimed.claims, claimed.trials);
    const touched = new Set(batch.map((b) => b.claim.benchId));
    for (const r of running.values()) touched.delete(r.claim.benchId);
    for (const benchId of touched) await finalize(benchId);
    return claimed;
  }

  /** Starts claimed trials (`rows`: their trials' rows; a claim without one ends as a worker error). */
  function start(claims: TrialClaim[], rows: ClaimedTrial[]): void {
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const c of claims) launch(c, byId.get(c.trialId));
  }

  async function finalize(benchId: number): Promise<void> {
    if (await o.finalize(benchId, now())) o.onBenchFinished?.(benchId);
  }

  function launch(claim: TrialClaim, trial: ClaimedTrial | undefined): void {
    const ctl = new AbortController();
    running.set(claim.trialId, { claim, ctl });
    void (async () => {
      let outcome: TrialOutcome;
      try {
        if (!trial) throw new Error("the trial's row is no longer stored");
        const exec = await o.executorFor(claim.benchId);
        // The queue's claim holds each provider's limit across all workers, counting one slot per
        // provider the trial calls (its candidate's, its judge's): so the trial makes one call at a
        // time per provider (a rubric's judge calls, which the evaluators would start at once, queue here).
        const calls = new KeyedSemaphore(() => 1);
        const limits: TrialLimits = { concurrency: slots, providerKey: exec.providerKey(trial), provider: Infinity, providers: [], calls };
        // No start callback: the claim already counted the delivery, and without one a trial thread
        // sends no message when the model call starts (one message per trial fewer each way).
        outcome = await exec.run(trial, ctl.signal, limits);
        if (ctl.signal.reason === CANCELLED && outcome.status === "error")
          outcome = { ...skippedOutcome(claim.trialId, "cancelled while running", now()), startedAt: outcome.startedAt };
      } catch (e) {
        outcome =
          ctl.signal.reason === CANCELLED ? skippedOutcome(claim.trialId, "cancelled while running", now()) : workerErrorOutcome(claim.trialId, e, now());
      }
      running.delete(claim.trialId);
      // A trial cut short because this worker stops is not a result: its claim expires and it runs
      // again. One that answered before the stop reached it is (stop may abort it just after).
      if (ctl.signal.reason !== STOPPING || outcome.status === "done") {
        const { id: _id, ...result } = capOutcome(outcome);
        buffer.push({ claim, result });
      }
      rouse();
    })();
  }

  async function tick(): Promise<void> {
    const t = now();
    const poll = t - lastPoll >= pollMs;
    if (poll) {
      lastPoll = t;
      await o.onPoll?.();
      for (const benchId of await o.cancelRequested()) {
        await o.queue.cancelBench(benchId, "cancelled before it ran", t);
        for (const r of running.values()) if (r.claim.benchId === benchId) r.ctl.abort(CANCELLED);
      }
    }
    // Store first: the stored results' claims then no longer hold the bench's slots for this claim
    // (in the same transaction when the queue can: the freed slots are taken at once).
    const free = () => (stopCtl.signal.aborted ? 0 : slots - running.size);
    const due = buffer.length >= flushSize || (buffer.length > 0 && now() - lastFlush >= flushMs);
    const claimedWithStore = due ? await flush(free(), t) : null;
    if (!claimedWithStore && free() > 0 && (poll || claimNow)) {
      claimNow = false;
      const claims = await o.queue.claim(o.workerId, free(), t);
      if (claims.length) start(claims, await o.loadTrials(claims.map((c) => c.trialId)));
    }
    if (poll) for (const benchId of await o.finalizable()) await finalize(benchId);
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      // A stop asked during a tick has fired its abort already: the listener below would never hear it.
      if (stopCtl.signal.aborted) return resolve();
      const done = () => {
        if (ms > 0) clearTimeout(timer as ReturnType<typeof setTimeout>);
        else clearImmediate(timer as ReturnType<typeof setImmediate>);
        stopCtl.signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = ms > 0 ? setTimeout(done, ms) : setImmediate(done);
      stopCtl.signal.addEventListener("abort", done, { once: true });
      wakeUp = done;
    });

  const done = (async () => {
    let failures = 0;
    while (!stopCtl.signal.aborted) {
      try {
        await tick();
        if (failures) o.onRecovered?.(failures);
        failures = 0;
      } catch (e) {
        report(e);
        await sleep(outageBackoffMs(++failures, pollMs));
      }
      // A trial ended or a wake came during the tick: go again after this turn's other messages.
      // Results wait at most `flushMs`; otherwise the next poll (or a trial's end, or a wake).
      const ms = woken ? 0 : buffer.length ? Math.max(0, flushMs - (now() - lastFlush)) : claimNow && running.size < slots ? 0 : pollMs;
      woken = false;
      await sleep(ms);
      wakeUp = null;
      woken = false;
    }
  })();

  return {
    wake,
    done,
    async stop(graceMs = 10_000) {
      stopCtl.abort();
      await done;
      const deadline = now() + graceMs;
      while (running.size && now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const r of running.values()) r.ctl.abort(STOPPING);
      while (running.size) await new Promise((r) => setTimeout(r, 10));
      await flush().catch(report);
      clearInterval(beatTimer);
    },
  };
}
