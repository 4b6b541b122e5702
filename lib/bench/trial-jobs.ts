/**
 * The trial job queue (issue 20): how benches hand their trials to worker processes on any number
 * of hosts. Implemented on PostgreSQL with pg-boss by db/pg/trial-job-queue.ts and on SQLite by
 * db/queries/trial-job-queue.ts; the job worker (lib/bench/job-worker.ts) runs over either.
 *
 * Contract:
 * - `enqueue` runs inside the bench's launch transaction (`Tx`): the trials and their jobs commit
 *   or roll back together. Enqueueing a trial twice is a no-op (its job id derives from the trial id,
 *   which is unique per bench × candidate × bench case × repeat).
 * - `claim` hands out trials; at no time do the current claims exceed a bench's concurrency or a
 *   provider's limit, however many processes claim at once.
 * - A claim lasts until its lease expires (`leaseMs` after the claim or the last `heartbeat`);
 *   `expire` (also run by every `claim`) gives expired claims back for re-delivery, and gives a trial
 *   up as `error` after its last allowed delivery.
 * - `complete` stores a trial's result only with the current claim's token: a stale claim (expired,
 *   perhaps re-claimed by another worker) is refused, so at-least-once delivery still ends with
 *   exactly one stored result per trial.
 * - `cancelBench` stops new claims of the bench and marks its queued trials `skipped`; trials already
 *   claimed may still complete.
 * Times are ms since the Unix epoch, passed in by the caller (one clock for every decision).
 */
import type { ClaimedTrial, TrialOutcome } from "./queue";

/** One trial of a bench to enqueue: its `trials` row id and the provider its model calls go to. */
export interface TrialJobSpec {
  trialId: number;
  /** Who the limit is counted against: e.g. `openai`, or a base URL for an OpenAI-compatible server. */
  providerKey: string;
}

/** A bench's trials and limits, as enqueued at launch. */
export interface BenchJobs {
  benchId: number;
  /** Most trials of this bench claimed at once (≥ 1). */
  concurrency: number;
  /** Most trials claimed at once per provider, across all benches (≥ 1); the latest launch sets it. */
  providerLimits: Record<string, number>;
  trials: TrialJobSpec[];
}

/** A trial handed to a worker. `token` identifies this claim; `delivery` counts from 1. */
export interface TrialClaim {
  trialId: number;
  benchId: number;
  providerKey: string;
  token: string;
  delivery: number;
  expiresAt: number;
}

/** A trial's end as the worker reports it (the stored result). */
export type TrialResult = Omit<TrialOutcome, "id">;

/** The queue. `Tx` is the store's transaction handle for {@link TrialJobQueue.enqueue}. */
export interface TrialJobQueue<Tx> {
  /**
   * Readies what the bench's jobs need before its launch transaction (pg-boss creates a queue per
   * bench and provider with DDL of its own). Idempotent; left-overs of a rolled-back launch are empty.
   */
  prepare(bench: Pick<BenchJobs, "benchId" | "trials">): Promise<void>;
  /**
   * Enqueues the bench's trials within the launch transaction `tx`.
   * @returns how many jobs were new
   * @throws when a provider or bench limit is not a positive integer, or a lane was not prepared
   */
  enqueue(tx: Tx, bench: BenchJobs): Promise<number>;
  /**
   * Claims up to `max` trials for `workerId` (oldest bench first), within every bench and provider
   * limit. May claim fewer (none) while another claimer is serving the same bench or provider: the
   * caller claims again after its next results or poll.
   */
  claim(workerId: string, max: number, now: number): Promise<TrialClaim[]>;
  /** Extends the lease of every unexpired claim `workerId` holds. @returns how many */
  heartbeat(workerId: string, now: number): Promise<number>;
  /** Gives back expired claims. @returns trials re-queued and trials given up (`error`) */
  expire(now: number): Promise<{ requeued: number; gaveUp: number }>;
  /** Stores the result of a claimed trial. @returns false (nothing stored) when the claim is no longer current */
  complete(claim: TrialClaim, result: TrialResult): Promise<boolean>;
  /** {@link complete} for many claims in one transaction. @returns the ids of the trials whose result was stored */
  completeMany(entries: { claim: TrialClaim; result: TrialResult }[]): Promise<number[]>;
  /**
   * Optional: {@link completeMany}, then {@link claim}, in one transaction, returning the claimed
   * trials' rows too (a store that can do this in one round trip; the job worker falls back to the
   * three calls when it is absent). The claim sees the slots the stored results freed.
   * @returns the ids of the trials whose result was stored, the claims, and the claimed trials' rows
   *   (ids without a row left out)
   */
  completeAndClaim?(
    entries: { claim: TrialClaim; result: TrialResult }[],
    workerId: string,
    max: number,
    now: number,
  ): Promise<{ stored: number[]; claims: TrialClaim[]; trials: ClaimedTrial[] }>;
  /** Cancels a bench: no more claims; its queued trials become `skipped` with `reason`. @returns how many were skipped */
  cancelBench(benchId: number, reason: string, now: number): Promise<number>;
}
