/**
 * Body of a trial thread (see server/bench/trial-pool.ts): builds executors from its own connection
 * to the store (the SQLite file or the PostgreSQL database), runs the trials the coordinator hands over, honours aborts, and posts outcomes back.
 * It never writes to the database: claims and results stay with the coordinator, so a trial is
 * still stored exactly once.
 */
import type { MessagePort } from "node:worker_threads";
import { openDatabase, type Db } from "@/db/client";
import { isPostgresUrl } from "@/db/pg/client";
import { openPgStore } from "@/db/pg/store";
import type { TrialOutcome } from "@/lib/bench/queue";
import { skippedOutcome, workerErrorOutcome } from "@/lib/bench/worker";
import { KeyedSemaphore } from "@/lib/bench/semaphore";
import { getSharedSandbox } from "@/lib/evaluators/sandbox";
import { nodeFetch } from "../http-fetch";
import { createExecutorFactory } from "./executor";
import { batcher, type FromTrialThread, type ToTrialThread, type TrialRun, type TrialThreadData } from "./trial-messages";

/** Runs until the thread is terminated. `process.env` is the worker's environment (model keys). */
export function runTrialThread(port: MessagePort | null, data: TrialThreadData): void {
  if (!port) throw new Error("runTrialThread must run in a worker thread");
  // Reads only (benches, prompts, models): two connections cover a thread's trials on PostgreSQL.
  const db: Db = isPostgresUrl(data.dbPath) ? openPgStore(data.dbPath, 2) : openDatabase(data.dbPath);
  const executorFor = createExecutorFactory(db, {
    env: process.env,
    fetch: nodeFetch,
    sandbox: getSharedSandbox,
    keepRecord: data.keepRecord,
    retryBaseDelayMs: data.retryBaseDelayMs,
  });
  const running = new Map<number, AbortController>();
  const post = (m: FromTrialThread) => port.postMessage(m);
  // Starts and outcomes go back at the end of this event-loop turn (those of the same turn in one
  // message), not on a timer: a trial's claim holds its bench's slot until the coordinator has stored
  // its result, so a wait here holds the slot idle (a 10 ms batch did, per 50 ms-latency trial). A
  // start (a trial id) is always queued before its trial's outcome.
  const report = batcher<number | TrialOutcome>((items) => {
    const started: number[] = [];
    const outcomes: TrialOutcome[] = [];
    for (const i of items) {
      if (typeof i === "number") started.push(i);
      else outcomes.push(i);
    }
    post({ type: "done", started, outcomes });
  }, 0);
  const done = (o: TrialOutcome) => report(o);

  async function run(r: TrialRun): Promise<void> {
    const { benchId, trial } = r;
    const ctl = new AbortController();
    running.set(trial.id, ctl);
    let outcome: TrialOutcome;
    try {
      // The job queue's claim holds the bench's and the providers' limits, counting one slot per
      // provider the trial calls (its candidate's, its judge's): so the trial makes one call at a
      // time per provider, as on the worker's own thread (lib/bench/job-worker.ts).
      const calls = new KeyedSemaphore(() => 1);
      outcome = await (
        await executorFor(benchId)
      ).run(
        trial,
        ctl.signal,
        { concurrency: Infinity, providerKey: r.providerKey, provider: Infinity, calls },
        r.reportStart ? () => report(trial.id) : undefined,
      );
    } catch (e) {
      outcome = workerErrorOutcome(trial.id, e, Date.now());
    }
    running.delete(trial.id);
    done(outcome);
  }

  function abort(id: number, reason: string): void {
    running.get(id)?.abort(new Error(reason));
  }

  port.on("message", (m: ToTrialThread) => {
    // Stops first: a trial this batch stops must not start.
    const stopped = new Set(m.aborts.map((x) => x.id));
    for (const x of m.aborts) abort(x.id, x.reason);
    for (const r of m.runs) {
      if (stopped.has(r.trial.id)) done(skippedOutcome(r.trial.id, "cancelled before it ran", Date.now()));
      else void run(r);
    }
  });
  post({ type: "ready" });
}
