/**
 * Body of a trial thread (see server/bench/trial-pool.ts): builds executors from its own SQLite
 * connection, runs the trials the coordinator hands over, honours aborts, and posts outcomes back.
 * It never writes to the database: claims and results stay with the coordinator, so a trial is
 * still stored exactly once.
 */
import type { MessagePort } from "node:worker_threads";
import { openDatabase } from "@/db/client";
import type { TrialOutcome } from "@/lib/bench/queue";
import { KeyedSemaphore } from "@/lib/bench/semaphore";
import { skippedOutcome, workerErrorOutcome } from "@/lib/bench/worker";
import { getSharedSandbox } from "@/lib/evaluators/sandbox";
import { nodeFetch } from "../http-fetch";
import { createExecutorFactory } from "./executor";
import { batcher, type FromTrialThread, type ToTrialThread, type TrialRun, type TrialThreadData } from "./trial-messages";

/** Runs until the thread is terminated. `process.env` is the worker's environment (model keys). */
export function runTrialThread(port: MessagePort | null, data: TrialThreadData): void {
  if (!port) throw new Error("runTrialThread must run in a worker thread");
  const db = openDatabase(data.dbPath);
  const executorFor = createExecutorFactory(db, {
    env: process.env,
    fetch: nodeFetch,
    sandbox: getSharedSandbox,
    keepRecord: data.keepRecord,
    retryBaseDelayMs: data.retryBaseDelayMs,
  });
  const running = new Map<number, AbortController>();
  /** Per bench: trials waiting for a free slot (the coordinator hands over a few ahead), and how many run. */
  const benches = new Map<number, { limit: number; running: number; waiting: TrialRun[] }>();
  const post = (m: FromTrialThread) => port.postMessage(m);
  // Starts and outcomes go back every 10 ms at most: the coordinator only stores them (in 50 ms
  // batches). A start (a trial id) is always queued before its trial's outcome.
  const report = batcher<number | TrialOutcome>((items) => {
    const started: number[] = [];
    const outcomes: TrialOutcome[] = [];
    for (const i of items) {
      if (typeof i === "number") started.push(i);
      else outcomes.push(i);
    }
    post({ type: "done", started, outcomes });
  }, 10);
  const done = (o: TrialOutcome) => report(o);

  /**
   * This thread's share of each provider's limit, per key (the latest a run brought), and the gate
   * every model call of its trials — candidate's and judge's — takes a slot of.
   */
  const providerLimits = new Map<string, number>();
  const calls = new KeyedSemaphore((key) => providerLimits.get(key) ?? Number.MAX_SAFE_INTEGER);

  /** Starts waiting trials while their bench has room (their model calls wait for provider slots). */
  function pump(benchId: number): void {
    const b = benches.get(benchId);
    if (!b) return;
    while (b.waiting.length && b.running < b.limit) void run(b.waiting.shift()!);
    if (b.running === 0 && b.waiting.length === 0) benches.delete(benchId);
  }

  async function run(r: TrialRun): Promise<void> {
    const { benchId, trial, providers } = r;
    const b = benches.get(benchId)!;
    b.running++;
    for (const p of providers) providerLimits.set(p.key, p.limit);
    const ctl = new AbortController();
    running.set(trial.id, ctl);
    let outcome: TrialOutcome;
    try {
      const own = providers.find((p) => p.key === r.providerKey);
      outcome = await (
        await executorFor(benchId)
      ).run(
        trial,
        ctl.signal,
        { concurrency: b.limit, providerKey: r.providerKey, provider: own?.limit ?? Infinity, providers, calls: providers.length ? calls : undefined },
        () => report(trial.id),
      );
    } catch (e) {
      outcome = workerErrorOutcome(trial.id, e, Date.now());
    }
    running.delete(trial.id);
    b.running--;
    // The next waiting trial starts before this outcome is even posted: no slot waits on a round trip.
    pump(benchId);
    done(outcome);
  }

  function abort(id: number, reason: string): void {
    const ctl = running.get(id);
    if (ctl) return ctl.abort(new Error(reason));
    for (const b of benches.values()) {
      const i = b.waiting.findIndex((r) => r.trial.id === id);
      if (i >= 0) {
        b.waiting.splice(i, 1);
        return done(skippedOutcome(id, "cancelled before it ran", Date.now()));
      }
    }
  }

  port.on("message", (m: ToTrialThread) => {
    const touched = new Set<number>();
    for (const r of m.runs) {
      const b = benches.get(r.benchId) ?? { limit: r.limit, running: 0, waiting: [] };
      b.limit = r.limit;
      b.waiting.push(r);
      benches.set(r.benchId, b);
      touched.add(r.benchId);
    }
    // Stops first: a trial this batch stops must not start, and aborting a running one only frees
    // its slot later (when its call unwinds), after every stop here has been taken.
    for (const x of m.aborts) abort(x.id, x.reason);
    for (const id of touched) pump(id);
  });
  post({ type: "ready" });
}
