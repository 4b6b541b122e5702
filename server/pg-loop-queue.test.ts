/**
 * The PostgreSQL job worker's queue as its loop sees it (server/pg-loop-queue.ts): a store with the
 * claim made in its transaction, the claimed trials' rows, and a claim again soon (not at the next
 * poll) when another worker's claim held a lane's lock. Fake queue, no clock: the loop's poll is
 * set beyond any test, so only the retry can make a second claim.
 */
import { describe, expect, it } from "vitest";
import type { ClaimedTrial } from "@/lib/bench/queue";
import type { TrialClaim, TrialResult } from "@/lib/bench/trial-jobs";
import { IdleGate } from "@/lib/bench/idle-gate";
import { startJobWorker } from "@/lib/bench/job-worker";
import { pgLoopQueue, type PgLoopStore } from "./pg-loop-queue";

const claimOf = (trialId: number): TrialClaim => ({ trialId, benchId: 1, providerKey: "p", token: `t${trialId}`, delivery: 1, expiresAt: 0 });
const rowOf = (id: number): ClaimedTrial => ({ id, benchId: 1, candidateId: 1, benchCaseId: id, caseRevisionId: id, repeat: 0, attempts: 1 });
const result = { status: "done", startedAt: 0, finishedAt: 1 } as TrialResult;

/** A store whose claims answer from `script` in turn (nothing once it is used up). */
function fakeStore(script: { claims: TrialClaim[]; lockedOut: boolean }[]) {
  const calls: string[] = [];
  const store: { -readonly [K in keyof PgLoopStore]: PgLoopStore[K] } & { calls: string[] } = {
    calls,
    lastLookSawOpenBench: true,
    lastClaimLockedOut: false,
    async claim(_w, max) {
      calls.push(`claim ${max}`);
      const next = script.shift() ?? { claims: [], lockedOut: false };
      store.lastClaimLockedOut = next.lockedOut;
      return next.claims;
    },
    async completeAndClaim(entries, _w, max) {
      calls.push(`store ${entries.length} + claim ${max}`);
      const next = script.shift() ?? { claims: [], lockedOut: false };
      store.lastClaimLockedOut = next.lockedOut;
      return { stored: entries.map((e) => e.claim.trialId), claims: next.claims, trials: next.claims.map((c) => rowOf(c.trialId)) };
    },
    completeMany: async (entries) => entries.map((e) => e.claim.trialId),
    heartbeat: async () => 0,
    cancelBench: async () => 0,
  };
  return store;
}

describe("the PostgreSQL job worker's queue", () => {
  it("stores and claims in one call and hands the loop the claimed trials' rows", async () => {
    const store = fakeStore([{ claims: [claimOf(7), claimOf(8)], lockedOut: false }]);
    let soon = 0;
    const q = pgLoopQueue(store, { gate: new IdleGate(2_000, () => true), slots: 4, claimSoon: () => soon++ });
    const r = await q.completeAndClaim!([{ claim: claimOf(3), result }], "w", 3, 0);
    expect(r).toEqual({ stored: [3], claims: [claimOf(7), claimOf(8)], trials: [rowOf(7), rowOf(8)] });
    expect(store.calls).toEqual(["store 1 + claim 3"]);
    expect(soon).toBe(0);
  });

  it("asks for a claim soon when a claim or a store's claim skipped a lane another worker's claim held", async () => {
    const store = fakeStore([
      { claims: [], lockedOut: true },
      { claims: [claimOf(1)], lockedOut: false },
      { claims: [], lockedOut: true },
    ]);
    let soon = 0;
    const q = pgLoopQueue(store, { gate: new IdleGate(2_000, () => true), slots: 4, claimSoon: () => soon++ });
    expect(await q.claim("w", 4, 0)).toEqual([]);
    expect(soon).toBe(1);
    expect(await q.claim("w", 4, 0)).toEqual([claimOf(1)]);
    expect(soon).toBe(1);
    await q.completeAndClaim!([{ claim: claimOf(1), result }], "w", 4, 0);
    expect(soon).toBe(2);
  });

  it("makes the job worker claim again before its next poll when its first claim found the lane locked", async () => {
    const store = fakeStore([
      { claims: [], lockedOut: true },
      { claims: [], lockedOut: false },
    ]);
    let secondClaim!: () => void;
    const claimedAgain = new Promise<void>((resolve) => (secondClaim = resolve));
    const claim = store.claim.bind(store);
    store.claim = async (w, max, now) => {
      const out = await claim(w, max, now);
      if (store.calls.length === 2) secondClaim();
      return out;
    };
    const handle: { wake(): void } = { wake: () => undefined };
    const loop = startJobWorker({
      queue: pgLoopQueue(store, { gate: new IdleGate(2_000, () => true), slots: 4, claimSoon: () => handle.wake() }),
      workerId: "w",
      slots: 4,
      leaseMs: 3_600_000,
      // No poll within any test's time: only the retry after the locked-out claim can claim again.
      pollMs: 3_600_000,
      loadTrials: async (ids) => ids.map(rowOf),
      executorFor: async () => {
        throw new Error("no trial runs in this test");
      },
      cancelRequested: async () => [],
      finalizable: async () => [],
      finalize: async () => false,
    });
    handle.wake = loop.wake;
    await claimedAgain;
    await loop.stop(0); // mid-tick: stops at once (lib/bench/job-worker.test.ts "stops at once …")
    expect(store.calls).toEqual(["claim 4", "claim 4"]);
  });
});
