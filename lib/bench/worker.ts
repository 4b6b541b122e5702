/**
 * The bench worker (DESIGN.md §4 steps 3–5): claims queued trials from the store, runs them with
 * bounded concurrency per bench and per provider, writes outcomes in batches, handles cancellation
 * (running trials are aborted, unrun ones become `skipped`), and finalizes finished benches.
 * Impure things (store, executor, clock, pid check) are parameters, so the same loop runs in the
 * Next.js server, in `npm run worker`, in the CLI and in tests.
 */
import type { ClaimedTrial, TrialOutcome, TrialQueue } from "./queue";
import { capOutcome } from "./stored-limits";
import { KeyedSemaphore } from "./semaphore";

/**
 * The per-provider limit at call level: a model call takes a slot of its provider key first and
 * gives it back when it returns (a KeyedSemaphore fits).
 */
export interface CallGate {
  /** @throws the signal's reason when it aborts while waiting */
  acquire(key: string, signal?: AbortSignal): Promise<void>;
  release(key: string): void;
}

/** Runs the trials of one bench. */
export interface TrialExecutor {
  /** Provider key for per-provider limits (e.g. `openai-compatible http://host/v1`), or null (recorded: no provider). */
  providerKey(trial: ClaimedTrial): string | null;
  /** The provider key of the bench's judge, when it has one: its calls count against that provider's limit too. */
  readonly judgeProviderKey?: string | null;
  /**
   * The executor takes a provider slot for each model call itself (`limits.calls`, or the gate of
   * its thread), so the loop holds none for the whole trial: a trial never holds a slot while it
   * waits for another (its judge's), and the limit counts the judge's calls as well.
   */
  readonly gatesCalls?: boolean;
  /**
   * Runs one trial to its outcome. Must not throw; must honour `signal` (cancellation).
   * @param limits the bench's current bound for this worker, the trial's provider key (as
   *   `providerKey` gave it) and that provider's limit: an executor with `prefetch` must keep both
   *   bounds itself
   * @param started to call each time the trial starts its model call (or reads its recorded answer):
   *   each call counts one attempt, and only a trial whose calls started `MAX_ATTEMPTS` times under
   *   workers that died is given up. A trial that ends before (skipped while waiting in the
   *   executor's queue, or that cannot be prepared) never calls it.
   */
  run(trial: ClaimedTrial, signal: AbortSignal, limits: TrialLimits, started: () => void): Promise<TrialOutcome>;
  /**
   * Trials the loop may hand over beyond the bench's concurrency (default 0). An executor that sets
   * it queues them and starts each as soon as one of its running trials ends, so a slot never waits
   * for a round trip through the loop (used by trial threads). Such an executor also keeps the
   * per-provider limit itself: the loop does not hold a provider slot while a trial waits there.
   */
  readonly prefetch?: number;
  /**
   * Whether the trials handed to this executor (running or waiting in its queue) fit a lowered
   * share of the bench, `concurrency`, wherever they wait: the loop hands over no more trials of a
   * bench whose share fell until they do, and only then lets a newer worker take its share. Without
   * it, every trial handed over counts as running.
   */
  drained?(concurrency: number): boolean;
}

/** The bounds a trial runs under (see {@link TrialExecutor.run}). */
export interface TrialLimits {
  /** Most trials of the bench running at once for this worker. */
  concurrency: number;
  /** The trial's provider key, or null when it calls no provider. */
  providerKey: string | null;
  /** Most calls at once to that provider across benches (Infinity without a provider). */
  provider: number;
  /** Every provider the trial may call (its candidate's, its judge's) with that provider's limit. */
  providers?: { key: string; limit: number }[];
  /** The worker's per-provider gate, for an executor that {@link TrialExecutor.gatesCalls}. */
  calls?: CallGate;
}

/** Worker settings. Times in ms. */
export interface WorkerOptions {
  queue: TrialQueue;
  workerId: string;
  pid: number;
  /** Builds (or returns a cached) executor for a bench. */
  executorFor(benchId: number): Promise<TrialExecutor>;
  /** Concurrent calls per provider key across all benches (default 32). */
  providerLimit?: (key: string) => number;
  /** How often to look for new benches and cancellations (default 250). */
  pollMs?: number;
  heartbeatMs?: number;
  /** A worker whose heartbeat is older than this is dead (default 15,000). */
  staleMs?: number;
  /** Write outcomes and started model calls at least this often (default 50), or when `flushSize` outcomes wait (default 256). */
  flushMs?: number;
  flushSize?: number;
  isAlive(pid: number): boolean;
  now?: () => number;
  onError?: (e: unknown) => void;
  /** Called after a bench is finalized. */
  onBenchFinished?: (benchId: number) => void;
}

interface BenchState {
  benchId: number;
  concurrency: number;
  /** The share fell and trials beyond it may still run: hand over none until they drained. */
  draining: boolean;
  cancel: boolean;
  /** Write finished outcomes before each claim (a bench with a spend cap; see RunnableBench in queue.ts). */
  flushBeforeClaim: boolean;
  ready: ClaimedTrial[];
  inflight: Map<number, AbortController>;
  exhaustedAt: number | null;
  executor: TrialExecutor | null;
}

const STOPPING = new Error("worker stopping");

/**
 * Sleeps `ms`, or less when `signal` aborts or the `wakeUp` function handed to `onWake` is called;
 * the timer and the listener are removed either way (nothing left pending per loop).
 */
const sleep = (ms: number, signal?: AbortSignal, onWake?: (wakeUp: () => void) => void) =>
  new Promise<void>((r) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      r();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    onWake?.(done);
  });

/** A skipped outcome (cancelled before or while running). */
export function skippedOutcome(id: number, reason: string, now: number): TrialOutcome {
  return bareOutcome(id, "skipped", reason, now);
}

/**
 * An outcome without an answer (`error` or `skipped`, with `reason` as its error), finished at
 * `now` and started at `startedAt` (default `now`); times in ms since the epoch.
 */
export function bareOutcome(id: number, status: "error" | "skipped", reason: string, now: number, startedAt = now): TrialOutcome {
  return {
    id,
    status,
    startedAt,
    finishedAt: now,
    latencyMs: null,
    inputTokens: null,
    outputTokens: null,
    costUsd: null,
    finishReason: null,
    output: null,
    record: null,
    checks: null,
    error: reason,
  };
}

/** The worker itself could not run a trial: an `error` outcome whose message starts with `worker: `. */
export function workerErrorOutcome(id: number, cause: unknown, now: number): TrialOutcome {
  const message = typeof cause === "string" ? cause : ((cause as Error)?.message ?? String(cause));
  return bareOutcome(id, "error", `worker: ${message}`, now);
}

/**
 * Starts the worker loop.
 * @returns `stop()` (graceful: stops claiming, lets running trials finish up to `graceMs`, writes
 *   every outcome, returns unrun claimed trials to the queue) and `done` (resolves when stopped)
 */
export function startWorker(o: WorkerOptions): { stop(graceMs?: number): Promise<void>; done: Promise<void>; wake(): void } {
  const now = o.now ?? Date.now;
  const pollMs = o.pollMs ?? 250;
  const heartbeatMs = o.heartbeatMs ?? 2_000;
  const staleMs = o.staleMs ?? 15_000;
  const flushMs = o.flushMs ?? 50;
  const flushSize = o.flushSize ?? 256;
  const providerLimit = o.providerLimit ?? (() => 32);
  const providers = new KeyedSemaphore(providerLimit);
  const benches = new Map<number, BenchState>();
  const buffer: TrialOutcome[] = [];
  /** Ids of trials whose model call started since the last flush (one entry per start). */
  const started: number[] = [];
  const stopCtl = new AbortController();
  let wakeResolve: (() => void) | null = null;
  let lastFlush = now();
  let lastPoll = 0;
  let lastBeat = 0;
  /** Shares were read since this worker last told the queue it has settled on them. */
  let unsettled = false;
  const report = (e: unknown) => (o.onError ? o.onError(e) : console.error("benchwork worker:", e));

  // A wake that arrives while the loop is busy (not waiting) must not be lost, or the loop would
  // sleep a full poll interval with free slots and queued trials.
  let woken = false;
  const wake = () => {
    const r = wakeResolve;
    wakeResolve = null;
    if (r) r();
    else woken = true;
  };

  async function flush(): Promise<void> {
    lastFlush = now();
    if (buffer.length === 0 && started.length === 0) return;
    const batch = buffer.splice(0, buffer.length);
    const starts = started.splice(0, started.length);
    try {
      await o.queue.complete(o.workerId, batch, starts);
    } catch (e) {
      // Keep them; try again on the next flush.
      buffer.unshift(...batch);
      started.unshift(...starts);
      throw e;
    }
  }

  function launch(b: BenchState, t: ClaimedTrial) {
    const ctl = new AbortController();
    b.inflight.set(t.id, ctl);
    const exec = b.executor!;
    void (async () => {
      let outcome: TrialOutcome;
      const key = exec.providerKey(t);
      let acquired = false;
      try {
        if (key && !exec.prefetch && !exec.gatesCalls) {
          await providers.acquire(key, ctl.signal);
          acquired = true;
        }
        const judgeKey = exec.judgeProviderKey ?? null;
        const keys = key && judgeKey && judgeKey !== key ? [key, judgeKey] : key ? [key] : judgeKey ? [judgeKey] : [];
        const limits: TrialLimits = {
          concurrency: b.concurrency,
          providerKey: key,
          provider: key ? providerLimit(key) : Infinity,
          providers: keys.map((k) => ({ key: k, limit: providerLimit(k) })),
          calls: providers,
        };
        outcome = ctl.signal.aborted ? skippedOutcome(t.id, "cancelled before it ran", now()) : await exec.run(t, ctl.signal, limits, () => started.push(t.id));
        // A call cut short by the cancel is skipped, not an error. An executor that had not started the
        // trial yet (a thread's queue) says so itself: its outcome is already skipped and stays as it is.
        if (ctl.signal.aborted && outcome.status === "error")
          outcome = { ...skippedOutcome(t.id, "cancelled while running", now()), startedAt: outcome.startedAt };
      } catch (e) {
        outcome = ctl.signal.aborted ? skippedOutcome(t.id, "cancelled before it ran", now()) : workerErrorOutcome(t.id, e, now());
      } finally {
        if (acquired && key) providers.release(key);
      }
      // A trial aborted because this worker stops is not a result: it goes back to the queue.
      // Every stored outcome goes through the size caps (a 5 MB evaluator message is not stored whole).
      if (!(ctl.signal.aborted && ctl.signal.reason === STOPPING)) buffer.push(capOutcome(outcome));
      b.inflight.delete(t.id);
      wake();
    })();
  }

  async function tick(): Promise<boolean> {
    const t = now();
    if (t - lastBeat >= heartbeatMs) {
      lastBeat = t;
      await o.queue.heartbeat(o.workerId);
      const moved = await o.queue.requeueOrphans(t - staleMs, o.isAlive);
      if (moved) lastPoll = 0;
    }
    if (t - lastPoll >= pollMs) {
      lastPoll = t;
      for (const r of await o.queue.runnableBenches(o.workerId)) {
        const b = benches.get(r.benchId) ?? {
          benchId: r.benchId,
          concurrency: r.concurrency,
          draining: false,
          cancel: false,
          flushBeforeClaim: false,
          ready: [],
          inflight: new Map(),
          exhaustedAt: null,
          executor: null,
        };
        b.cancel = r.cancelRequested;
        b.flushBeforeClaim = r.flushBeforeClaim === true;
        if (r.concurrency < b.concurrency) b.draining = true;
        b.concurrency = r.concurrency;
        b.exhaustedAt = null;
        benches.set(r.benchId, b);
      }
      unsettled = true;
    }
    let busy = false;
    for (const b of [...benches.values()]) {
      if (b.cancel) {
        for (const ctl of b.inflight.values()) ctl.abort(new Error("bench cancelled"));
        for (const r of b.ready.splice(0)) buffer.push(skippedOutcome(r.id, "cancelled before it ran", now()));
        await flush();
        await o.queue.skipQueued(b.benchId, "cancelled before it ran");
        b.exhaustedAt = t;
      } else {
        if (!b.executor) b.executor = await o.executorFor(b.benchId);
        let bound = b.concurrency + (b.executor.prefetch ?? 0);
        if (b.concurrency === 0) {
          // A share of 0 (other workers hold the bench's whole concurrency): claim nothing, look again
          // at the next poll; trials claimed while this worker still had a share go back to the queue.
          bound = 0;
          if (b.ready.length)
            await o.queue.release(
              o.workerId,
              b.ready.splice(0).map((r) => r.id),
            );
          b.exhaustedAt ??= t;
        }
        if (b.draining && (b.executor.drained ? b.executor.drained(b.concurrency) : b.inflight.size <= b.concurrency)) b.draining = false;
        // Claim no more than can start soon: the share plus the executor's prefetch, less what this
        // worker already holds. Trials claimed by a worker that dies go back to the queue, so a big
        // claim only delays them (and hides them from other workers). With a prefetch, claim once
        // half of it has been used, not for every trial that ends (fewer, larger claims).
        const held = b.inflight.size + b.ready.length;
        const refill = Math.max(1, Math.floor((b.executor.prefetch ?? 0) / 2));
        if (b.exhaustedAt === null && !b.draining && bound - held >= refill) {
          const want = bound - held;
          if (b.flushBeforeClaim && (buffer.length || started.length)) await flush();
          const got = await o.queue.claim(b.benchId, o.workerId, want, t);
          b.ready.push(...got);
          if (got.length < want) b.exhaustedAt = t;
        }
        while (!b.draining && b.inflight.size < bound && b.ready.length) {
          launch(b, b.ready.shift()!);
          busy = true;
        }
      }
      if (b.inflight.size === 0 && b.ready.length === 0 && b.exhaustedAt !== null) {
        await flush();
        if (await o.queue.finalize(b.benchId, now())) {
          benches.delete(b.benchId);
          o.onBenchFinished?.(b.benchId);
        } else if (t - b.exhaustedAt >= pollMs) {
          // Other workers still hold trials of this bench: look again later.
          benches.delete(b.benchId);
        }
      } else if (b.inflight.size > 0 || b.ready.length > 0) busy = true;
    }
    if (buffer.length >= flushSize || ((buffer.length || started.length) && now() - lastFlush >= flushMs)) await flush();
    if (unsettled && ![...benches.values()].some((b) => b.draining)) {
      unsettled = false;
      await o.queue.settle(o.workerId);
    }
    return busy;
  }

  const done = (async () => {
    await o.queue.registerWorker(o.workerId, o.pid);
    await o.queue.requeueOrphans(now() - staleMs, o.isAlive);
    while (!stopCtl.signal.aborted) {
      let busy = false;
      try {
        busy = await tick();
      } catch (e) {
        report(e);
        await sleep(pollMs, stopCtl.signal);
      }
      if (stopCtl.signal.aborted) break;
      if (woken) {
        woken = false;
        continue;
      }
      const waitMs = busy ? Math.min(flushMs, pollMs) : pollMs;
      // A wake ends the sleep itself: racing a separate wake promise against it would leave its
      // timer and abort listener pending, thousands of them with a wake per finished trial.
      await sleep(waitMs, stopCtl.signal, (wakeUp) => (wakeResolve = wakeUp));
      wakeResolve = null;
      woken = false;
    }
  })();

  return {
    wake,
    done,
    async stop(graceMs = 10_000) {
      stopCtl.abort();
      wake();
      await done.catch(() => {});
      const deadline = now() + graceMs;
      while ([...benches.values()].some((b) => b.inflight.size) && now() < deadline) await sleep(20);
      for (const b of benches.values()) for (const ctl of b.inflight.values()) ctl.abort(STOPPING);
      while ([...benches.values()].some((b) => b.inflight.size)) await sleep(10);
      await flush().catch(report);
      await o.queue.unregisterWorker(o.workerId); // requeues this worker's unfinished trials
    },
  };
}
