/**
 * The PostgreSQL trial job queue as the job worker's loop (lib/bench/job-worker.ts) uses it
 * (issue 20): an idle worker asks nothing until a launch or its idle poll (lib/bench/idle-gate.ts);
 * a store claims the slots it frees in its own transaction (`completeAndClaim`, the claimed trials'
 * rows read by the claim's own statement); and a claim that skipped a lane because another worker's
 * claim held its lock asks to claim again soon, not at the next poll (250 ms): with 500 ms trials
 * that wait left slots free (bench/pg-workers.ts `held`).
 */
import type { IdleGate } from "@/lib/bench/idle-gate";
import type { JobWorkerOptions } from "@/lib/bench/job-worker";
import type { TrialClaim, TrialJobQueue } from "@/lib/bench/trial-jobs";

/** What this needs of db/pg/trial-job-queue.ts's PgTrialJobQueue. */
export interface PgLoopStore
  extends Pick<TrialJobQueue<unknown>, "claim" | "heartbeat" | "completeMany" | "cancelBench">, Required<Pick<TrialJobQueue<unknown>, "completeAndClaim">> {
  /** Whether the last claim saw any queued or running bench. */
  readonly lastLookSawOpenBench: boolean;
  /** Whether the last claim skipped a lane because another claimer held its lock. */
  readonly lastClaimLockedOut: boolean;
}

/** How soon a worker claims again after a claim found a lane locked by another worker's claim (ms). */
export const LOCKED_OUT_RETRY_MS = 10;

/**
 * The loop's queue over `store`.
 * @param o.slots the worker's slots: a claim of all of them means nothing runs here (idle)
 * @param o.claimSoon called when a claim was locked out of a lane: the worker should claim again
 *   shortly (the caller wakes its loop, after {@link LOCKED_OUT_RETRY_MS})
 */
export function pgLoopQueue(store: PgLoopStore, o: { gate: IdleGate; slots: number; claimSoon(): void }): JobWorkerOptions["queue"] {
  const looked = (max: number, claims: TrialClaim[], now: number) => {
    o.gate.afterLook(max >= o.slots && claims.length === 0 && !store.lastLookSawOpenBench, now);
    if (store.lastClaimLockedOut) o.claimSoon();
  };
  return {
    heartbeat: (workerId, now) => store.heartbeat(workerId, now),
    completeMany: (entries) => store.completeMany(entries),
    cancelBench: (benchId, reason, now) => store.cancelBench(benchId, reason, now),
    async claim(workerId, max, now) {
      // `max` below the slots: trials run here, so this worker is not idle.
      if (!o.gate.asking && max >= o.slots) return [];
      const claims = await store.claim(workerId, max, now);
      looked(max, claims, now);
      return claims;
    },
    async completeAndClaim(entries, workerId, max, now) {
      const r = await store.completeAndClaim(entries, workerId, max, now);
      if (max > 0) looked(max, r.claims, now);
      return r;
    },
  };
}
