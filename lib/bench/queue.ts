/**
 * The trial queue interface (DESIGN.md §4 step 3, §8): the seam between the worker and its store.
 * SQLite implements it in db/queries/trial-queue.ts; a PostgreSQL job queue (pg-boss) can implement
 * the same contract. Every method is async so either store fits.
 *
 * Contract: a trial is claimed by one worker at a time (`queued → running`, with the worker id);
 * only the claiming worker's `complete` is applied (so a trial ends with exactly one result even if
 * a presumed-dead worker wakes up); trials of dead workers go back to `queued`. A trial's
 * `attempts` counts the times its model call started (reported with `complete`), never claims: a
 * worker that dies holding trials it had not started costs them nothing.
 */
import type { CheckRecord } from "./types";

/** A trial handed to a worker. */
export interface ClaimedTrial {
  id: number;
  benchId: number;
  candidateId: number;
  benchCaseId: number;
  caseRevisionId: number;
  repeat: number;
  /** Times this trial's model call has started so far (under workers that then stopped). */
  attempts: number;
}

/** The end of one trial, as the worker reports it. Times in ms since epoch, latency in ms, cost in USD. */
export interface TrialOutcome {
  id: number;
  status: "done" | "error" | "skipped";
  startedAt: number;
  finishedAt: number;
  latencyMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  finishReason: string | null;
  output: string | null;
  /** JSON of the rest of the trial record (messages, steps, tool calls and results); null to save space. */
  record: string | null;
  checks: CheckRecord[] | null;
  error: string | null;
}

/** A bench the worker may work on, with what it needs to schedule it. */
export interface RunnableBench {
  benchId: number;
  concurrency: number;
  cancelRequested: boolean;
  /**
   * Write finished outcomes before each claim of this bench (a bench with a spend cap: the claim
   * counts what the stored trials spent, so an outcome still in the worker's buffer would be
   * counted at the estimate instead of its cost). Absent = batch as usual.
   */
  flushBeforeClaim?: boolean;
}

/** The queue store. */
export interface TrialQueue {
  /** Registers (or refreshes) a worker. */
  registerWorker(workerId: string, pid: number): Promise<void>;
  /** Records that a worker is alive. */
  heartbeat(workerId: string): Promise<void>;
  /** Removes a worker that stops cleanly (its running trials go back to the queue). */
  unregisterWorker(workerId: string): Promise<void>;
  /**
   * Puts running trials of dead workers back to `queued` (a worker is dead when its heartbeat is
   * older than `staleBefore` or `isAlive(pid)` says so); a trial whose model call has started
   * `MAX_ATTEMPTS` times ends as `error` instead. Returns how many trials moved back.
   */
  requeueOrphans(staleBefore: number, isAlive: (pid: number) => boolean): Promise<number>;
  /**
   * Benches with queued trials or a pending cancellation, oldest first, each with this worker's
   * share of its concurrency (the live workers' shares add up to the bench's concurrency; a share
   * may be 0, and then the worker claims none of its trials).
   * @param workerId the asking worker (without it: the largest share)
   */
  runnableBenches(workerId?: string): Promise<RunnableBench[]>;
  /**
   * Records that this worker has settled on the shares its last {@link runnableBenches} gave: none
   * of its benches has more trials running or handed out than its share. A worker that joins takes
   * no share until every older live worker has settled since it joined, so the live workers' running
   * trials never add up to more than a bench's concurrency, even while they change shares.
   */
  settle(workerId: string): Promise<void>;
  /** Claims up to `limit` queued trials of a bench for a worker (marks them running; counts no attempt). */
  claim(benchId: number, workerId: string, limit: number, now: number): Promise<ClaimedTrial[]>;
  /** Gives claimed trials this worker has not started back to the queue (as if never claimed). Returns how many. */
  release(workerId: string, trialIds: number[]): Promise<number>;
  /**
   * Stores outcomes of trials this worker holds; others are ignored. Returns how many outcomes were
   * applied.
   * @param started ids of this worker's trials whose model call started since its last call (an id
   *   once per start): each start counts one attempt, whether the trial is still running or its
   *   outcome is in `outcomes`
   */
  complete(workerId: string, outcomes: TrialOutcome[], started?: number[]): Promise<number>;
  /** Marks every queued trial of a cancelled bench `skipped`. Returns how many. */
  skipQueued(benchId: number, reason: string): Promise<number>;
  /**
   * When a bench has no queued or running trial left: computes its results and marks it finished
   * (or cancelled). Returns true when it did.
   */
  finalize(benchId: number, now: number): Promise<boolean>;
}
