/**
 * The job worker loop against an in-memory queue: it never runs more trials than its free slots,
 * stores each result once, finalizes the bench when its last result is stored, turns a cancel into
 * skipped trials, and on stop stores nothing for a trial it had to abort (its claim expires instead).
 */
import { describe, expect, it, vi } from "vitest";
import type { ClaimedTrial, TrialOutcome } from "./queue";
import type { TrialClaim, TrialResult } from "./trial-jobs";
import { startJobWorker, type JobWorkerOptions } from "./job-worker";
import { outageBackoffMs } from "../ride-out-outage";
import { bareOutcome, type TrialExecutor } from "./worker";

/** A queue of `n` trials of bench 1 that hands out claims in order. */
function fakeQueue(n: number) {
  const waiting = Array.from({ length: n }, (_, i) => i + 1);
  const stored = new Map<number, TrialResult>();
  const claimed = new Set<number>();
  let cancelled = false;
  return {
    stored,
    claimed,
    waiting,
    async claim(_worker: string, max: number): Promise<TrialClaim[]> {
      if (cancelled) return [];
      return waiting.splice(0, max).map((trialId) => {
        claimed.add(trialId);
        return { trialId, benchId: 1, providerKey: "p", token: `t${trialId}`, delivery: 1, expiresAt: Infinity };
      });
    },
    heartbeat: async () => 0,
    async completeMany(entries: { claim: TrialClaim; result: TrialResult }[]): Promise<number[]> {
      for (const e of entries) {
        if (stored.has(e.claim.trialId)) throw new Error(`trial ${e.claim.trialId} stored twice`);
        stored.set(e.claim.trialId, e.result);
      }
      return entries.map((e) => e.claim.trialId);
    },
    async cancelBench(): Promise<number> {
      cancelled = true;
      return waiting.splice(0).length;
    },
  };
}

/** An executor whose trials end only when the test ends them; it counts how many run at once. */
function heldExecutor() {
  const ends = new Map<number, (o: TrialOutcome) => void>();
  let peak = 0;
  const exec: TrialExecutor = {
    providerKey: () => "p",
    run: (t: ClaimedTrial, signal: AbortSignal) =>
      new Promise<TrialOutcome>((resolve) => {
        ends.set(t.id, resolve);
        peak = Math.max(peak, ends.size);
        signal.addEventListener("abort", () => resolve(bareOutcome(t.id, "error", "aborted", Date.now())), { once: true });
      }).finally(() => ends.delete(t.id)),
  };
  return { exec, ends, peak: () => peak };
}

const done = (id: number): TrialOutcome => ({ ...bareOutcome(id, "error", "", 1), status: "done", error: null, output: `answer ${id}` });
const row = (id: number): ClaimedTrial => ({ id, benchId: 1, candidateId: 1, benchCaseId: id, caseRevisionId: id, repeat: 1, attempts: 0 });

/** The loop on `queue` and `exec` with the tests' defaults: 2 slots, a 60 s lease, 5 ms polls, nothing to cancel or finalize. */
const startOn = (queue: JobWorkerOptions["queue"], exec: TrialExecutor, o: Partial<JobWorkerOptions> = {}) =>
  startJobWorker({
    queue,
    workerId: "w",
    slots: 2,
    leaseMs: 60_000,
    pollMs: 5,
    loadTrials: async (ids) => ids.map(row),
    executorFor: async () => exec,
    cancelRequested: async () => [],
    finalizable: async () => [],
    finalize: async () => false,
    ...o,
  });

describe("the job worker loop", () => {
  it("while its store fails, waits longer between tries (poll interval doubled, at most 5 s) and says when it is back", async () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => outageBackoffMs(n, 250))).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
    const queue = fakeQueue(2);
    let down = 3;
    const claim = queue.claim.bind(queue);
    queue.claim = async (w, max) => {
      if (down > 0) {
        down--;
        throw new Error("connect ECONNREFUSED");
      }
      return claim(w, max);
    };
    const { exec, ends } = heldExecutor();
    const errors: string[] = [];
    const recovered: number[] = [];
    const worker = startOn(queue, exec, { onError: (e) => errors.push((e as Error).message), onRecovered: (n) => recovered.push(n) });
    await vi.waitFor(() => expect(ends.size).toBe(2));
    for (const [id, end] of [...ends]) end(done(id));
    await vi.waitFor(() => expect(queue.stored.size).toBe(2));
    await worker.stop(0);
    expect(errors).toEqual(Array(3).fill("connect ECONNREFUSED"));
    expect(recovered).toEqual([3]);
  });

  it("runs at most its slots at once, stores each result once and finalizes the bench after the last", async () => {
    const queue = fakeQueue(5);
    const { exec, ends, peak } = heldExecutor();
    const finalized: number[] = [];
    let open = true;
    const worker = startOn(queue, exec, {
      finalize: async (benchId) => {
        if (!open || queue.stored.size < 5) return false;
        open = false;
        finalized.push(benchId);
        return true;
      },
    });
    const ended = new Set<number>();
    while (ended.size < 5) {
      // End one running trial at a time: the worker then claims the next into the freed slot.
      const next = await vi.waitFor(() => {
        const running = [...ends].find(([id]) => !ended.has(id));
        expect(running).toBeDefined();
        return running!;
      });
      ended.add(next[0]);
      next[1](done(next[0]));
    }
    await vi.waitFor(() => expect(finalized).toEqual([1]));
    await worker.stop(0);
    expect(peak()).toBe(2);
    expect([...queue.stored.keys()].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(queue.stored.get(3)).toMatchObject({ status: "done", output: "answer 3" });
  });

  it("stores an ended trial's result and claims the slot it freed at once, with no flush timer or poll (the clock stands still)", async () => {
    // A trial's claim holds its bench's slot until its result is stored: a result that waited for a
    // timer kept the slot idle (1.6 × ideal at 50 ms latency). With the clock stopped, no timer or
    // poll ever comes due: only the store-on-arrival path can store and refill the slot.
    const queue = fakeQueue(3);
    const { exec, ends } = heldExecutor();
    const worker = startOn(queue, exec, { slots: 1, now: () => 1_000 });
    for (const id of [1, 2, 3]) {
      await vi.waitFor(() => expect([...ends.keys()]).toEqual([id]));
      ends.get(id)!(done(id));
      await vi.waitFor(() => expect(queue.stored.has(id)).toBe(true));
    }
    await worker.stop(0);
    expect([...queue.stored.keys()]).toEqual([1, 2, 3]);
  });

  it("stores results and claims the freed slots in one queue call when the queue offers completeAndClaim", async () => {
    const queue = fakeQueue(3);
    const { exec, ends } = heldExecutor();
    const calls: string[] = [];
    const loaded: number[] = [];
    const combined: JobWorkerOptions["queue"] = {
      ...queue,
      async claim(w, max) {
        calls.push(`claim ${max}`);
        return queue.claim(w, max);
      },
      async completeMany(entries) {
        calls.push(`completeMany ${entries.map((e) => e.claim.trialId).join(",")}`);
        return queue.completeMany(entries);
      },
      async completeAndClaim(entries, w, max) {
        calls.push(`completeAndClaim ${entries.map((e) => e.claim.trialId).join(",")} max ${max}`);
        const stored = await queue.completeMany(entries);
        const claims = await queue.claim(w, max);
        // The rows come with the claim: the worker must not load them again.
        return { stored, claims, trials: claims.map((c) => ({ ...row(c.trialId), repeat: 7 })) };
      },
    };
    const ran: ClaimedTrial[] = [];
    const worker = startOn(
      combined,
      { ...exec, run: (t, signal, l, s) => (ran.push(t), exec.run(t, signal, l, s)) },
      {
        slots: 2,
        now: () => 1_000,
        loadTrials: async (ids) => (loaded.push(...ids), ids.map(row)),
      },
    );
    await vi.waitFor(() => expect(ends.size).toBe(2));
    ends.get(1)!(done(1));
    await vi.waitFor(() => expect([...ends.keys()].sort()).toEqual([2, 3]));
    await worker.stop(0);
    expect(calls).toEqual(["claim 2", "completeAndClaim 1 max 1"]);
    expect(loaded).toEqual([1, 2]);
    expect(ran.map((t) => [t.id, t.repeat])).toEqual([
      [1, 1],
      [2, 1],
      [3, 7],
    ]);
    expect([...queue.stored.keys()]).toEqual([1]);
  });

  it("aborts the running trials of a cancelled bench and stores them as skipped 'cancelled while running'", async () => {
    const queue = fakeQueue(4);
    const { exec, ends } = heldExecutor();
    let cancel = false;
    const worker = startOn(queue, exec, {
      cancelRequested: async () => (cancel ? [1] : []),
    });
    await vi.waitFor(() => expect(ends.size).toBe(2));
    cancel = true;
    await vi.waitFor(() => expect(queue.stored.size).toBe(2));
    await worker.stop(0);
    expect([...queue.stored.values()].map((r) => [r.status, r.error])).toEqual([
      ["skipped", "cancelled while running"],
      ["skipped", "cancelled while running"],
    ]);
    expect(queue.waiting).toEqual([]);
  });

  it("on stop, stores the trials that end within the grace period and nothing for those it aborts", async () => {
    const queue = fakeQueue(2);
    const { exec, ends } = heldExecutor();
    const worker = startOn(queue, exec);
    await vi.waitFor(() => expect(ends.size).toBe(2));
    ends.get(1)!(done(1));
    await vi.waitFor(() => expect(queue.stored.has(1)).toBe(true));
    await worker.stop(0);
    expect([...queue.stored.keys()]).toEqual([1]);
    expect(queue.claimed).toEqual(new Set([1, 2]));
  });

  it("stores a trial that ended just as the worker stops (its answer is not thrown away)", async () => {
    const queue = fakeQueue(1);
    const { exec, ends } = heldExecutor();
    const worker = startOn(queue, exec, { slots: 1 });
    await vi.waitFor(() => expect(ends.size).toBe(1));
    ends.get(1)!(done(1));
    await worker.stop(0);
    expect(queue.stored.get(1)).toMatchObject({ status: "done", output: "answer 1" });
  });

  it("keeps its claims alive while a slow store call holds up the loop (heartbeats on their own timer)", async () => {
    // A claim that takes longer than the lease (a busy database, claimers queued on a bench's lock)
    // must not let the trials this worker runs expire and run again elsewhere.
    const queue = fakeQueue(3);
    const { exec, ends } = heldExecutor();
    let beats = 0;
    let release: () => void = () => {};
    let claims = 0;
    const slowQueue = {
      ...queue,
      heartbeat: async () => ++beats,
      claim: async (w: string, _max: number) => {
        if (++claims === 1) return queue.claim(w, 1);
        await new Promise<void>((r) => (release = r));
        return [];
      },
    };
    const worker = startOn(slowQueue, exec, { leaseMs: 40 });
    await vi.waitFor(() => expect(claims).toBe(2), { timeout: 10_000 });
    const before = beats;
    await vi.waitFor(() => expect(beats).toBeGreaterThanOrEqual(before + 3), { timeout: 10_000 });
    expect(claims).toBe(2); // the loop is still waiting on its second claim
    release();
    ends.get(1)?.(done(1));
    await worker.stop(0);
  });

  it("stops at once when asked while a tick is in flight, not after the sleep that follows it", async () => {
    // Found by the PostgreSQL slots work (server/pg-loop-queue.test.ts): the abort fired before the
    // loop's sleep began, so the sleep's abort listener never heard it and stop() waited out the poll.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }); // an hour's poll never passes by itself
    try {
      const queue = fakeQueue(0);
      let claimCalled!: () => void;
      const inClaim = new Promise<void>((r) => (claimCalled = r));
      let release!: () => void;
      const blocked = { ...queue, claim: () => (claimCalled(), new Promise<TrialClaim[]>((r) => (release = () => r([])))) };
      const worker = startOn(blocked, heldExecutor().exec, { pollMs: 3_600_000 });
      await inClaim;
      const stopped = worker.stop(0);
      release();
      await stopped; // hung for the hour before the fix (the test's timeout fails it)
      await worker.done;
    } finally {
      vi.useRealTimers();
    }
  });
});
