/**
 * What the job worker (lib/bench/job-worker.ts) runs trials with: the executor contract, the bounds
 * a trial runs under, and the outcomes the worker makes itself (skipped, worker error). The loop that
 * lived here (shares between worker processes, settling, prefetch) was replaced by the job queue's
 * claim (issue 20), which holds every bench's and provider's limit over all workers.
 */
import type { ClaimedTrial, TrialOutcome } from "./queue";

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
   * @param limits the trial's provider key (as `providerKey` gave it) and bounds; the job queue's
   *   claim already holds the bench's and the provider's limits, so the job worker passes no gate
   * @param started to call each time the trial starts its model call (or reads its recorded answer);
   *   optional: a trial thread reports starts to its coordinator only when one is given
   */
  run(trial: ClaimedTrial, signal: AbortSignal, limits: TrialLimits, started?: () => void): Promise<TrialOutcome>;
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
