/**
 * A crash loop must not give up trials that never ran (issue "Seal the server and the sandboxes"
 * #8): a worker that claimed 32 trials at concurrency 8 and died counted an attempt for all 32,
 * the next worker claimed the same ones, and after three deaths they ended as `error … giving up`
 * although most had never reached the model. An attempt now counts when a trial starts its model
 * call, and a worker claims no more than it can start soon (its share + the executor's prefetch).
 *
 * Workers here run the real loop over the SQLite queue; one "dies" by losing its queue (every call
 * after the death does nothing, as a killed process would) and its pid is reported gone.
 */
import { describe, expect, it } from "vitest";
import { openMemoryDatabase, type Db } from "../client";
import { addCases } from "./cases";
import { createModelConfig } from "./models";
import { createPrompt, createSystem } from "./systems";
import { getBench } from "./benches";
import { MAX_ATTEMPTS, SqliteTrialQueue } from "./trial-queue";
import { launchFromRequest } from "@/server/bench/prepare";
import { startWorker, type TrialExecutor } from "@/lib/bench/worker";
import type { ClaimedTrial, TrialQueue } from "@/lib/bench/queue";
import { emptyCaseContent } from "@/lib/library/case-content";

const CONCURRENCY = 8;
const PREFETCH = 8;

async function benchOf(trials: number): Promise<{ db: Db; id: number }> {
  const db = openMemoryDatabase();
  await createSystem(db, { id: "s", name: "S" });
  const promptId = await createPrompt(db, { systemId: "s", name: "p", systemPrompt: "Answer." });
  await addCases(
    db,
    Array.from({ length: trials }, (_, i) => ({
      systemId: "s",
      promptId,
      caseKey: `c${i}`,
      source: "custom" as const,
      content: { ...emptyCaseContent(), input: `q${i}`, expected: "a" },
    })),
  );
  const model = await createModelConfig(db, { name: "m", provider: "openai-compatible", modelId: "m", baseUrl: "http://127.0.0.1:9/v1" });
  const { id } = await launchFromRequest(db, {
    systemId: "s",
    promptId,
    candidates: [{ kind: "model", modelConfigId: model }],
    baseline: { kind: "none" },
    selection: { kind: "all" },
    budget: null,
    repeats: 1,
    concurrency: CONCURRENCY,
    timeoutSeconds: 10,
    maxSteps: 1,
    judgeModelConfigId: null,
    launchKey: "crash-loop",
  });
  return { db, id };
}

/** A queue that works until `kill()`, then does nothing (a dead process); records what its worker held at most. */
function mortal(inner: TrialQueue) {
  let dead = false;
  let held = 0;
  let maxHeld = 0;
  const queue: TrialQueue = {
    registerWorker: (w, pid) => (dead ? Promise.resolve() : inner.registerWorker(w, pid)),
    heartbeat: (w) => (dead ? Promise.resolve() : inner.heartbeat(w)),
    unregisterWorker: (w) => (dead ? Promise.resolve() : inner.unregisterWorker(w)),
    requeueOrphans: (s, a) => (dead ? Promise.resolve(0) : inner.requeueOrphans(s, a)),
    runnableBenches: (w) => (dead ? Promise.resolve([]) : inner.runnableBenches(w)),
    settle: (w) => (dead ? Promise.resolve() : inner.settle(w)),
    async claim(b, w, limit, now) {
      if (dead) return [];
      const got = await inner.claim(b, w, limit, now);
      held += got.length;
      maxHeld = Math.max(maxHeld, held);
      return got;
    },
    async release(w, ids) {
      if (dead) return 0;
      const n = await inner.release(w, ids);
      held -= n;
      return n;
    },
    async complete(w, outcomes, started) {
      if (dead) return 0;
      const n = await inner.complete(w, outcomes, started);
      held -= n;
      return n;
    },
    skipQueued: (b, r) => (dead ? Promise.resolve(0) : inner.skipQueued(b, r)),
    finalize: (b, now) => (dead ? Promise.resolve(false) : inner.finalize(b, now)),
  };
  return { queue, kill: () => (dead = true), maxHeld: () => maxHeld };
}

/** Model calls started per trial, over every worker of the test. */
const calls = new Map<number, number>();

/**
 * Like the trial threads: takes up to its prefetch beyond the bench's concurrency and starts at
 * most `concurrency` at once. When `crashing`, the started calls never return (the worker dies
 * during them); otherwise each trial answers at once.
 */
function executor(crashing: boolean): TrialExecutor & { startedHere: number } {
  const e = {
    prefetch: PREFETCH,
    startedHere: 0,
    providerKey: () => null,
    async run(t: ClaimedTrial, signal: AbortSignal, limits: { concurrency: number }, started?: () => void) {
      if (crashing && e.startedHere >= limits.concurrency) {
        // Waits in the executor's own queue; never starts before the worker dies.
        await new Promise((r) => signal.addEventListener("abort", r, { once: true }));
        return {
          id: t.id,
          status: "skipped" as const,
          startedAt: 1,
          finishedAt: 2,
          latencyMs: null,
          inputTokens: null,
          outputTokens: null,
          costUsd: null,
          finishReason: null,
          output: null,
          record: null,
          checks: null,
          error: "stopped",
        };
      }
      e.startedHere++;
      calls.set(t.id, (calls.get(t.id) ?? 0) + 1);
      started?.();
      if (crashing) await new Promise((r) => signal.addEventListener("abort", r, { once: true }));
      return {
        id: t.id,
        status: "done" as const,
        startedAt: 1,
        finishedAt: 2,
        latencyMs: 1,
        inputTokens: 1,
        outputTokens: 1,
        costUsd: null,
        finishReason: "stop",
        output: "ok",
        record: null,
        checks: [],
        error: null,
      };
    },
  };
  return e;
}

const until = async (cond: () => boolean, what: string) => {
  for (let i = 0; i < 2_000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe("a crash loop of workers", () => {
  it("gives up only trials whose model call started MAX_ATTEMPTS times, and each worker holds at most concurrency + prefetch", async () => {
    calls.clear();
    const { db, id } = await benchOf(40);
    const attempts = (trial: number) => (db.$client.prepare("SELECT attempts FROM trials WHERE id = ?").get(trial) as { attempts: number }).attempts;
    const alive = new Set<number>();
    const isAlive = (pid: number) => alive.has(pid);
    const stoppers: (() => Promise<void>)[] = [];
    const held: number[] = [];

    // Five workers in a row start CONCURRENCY calls and die during them.
    for (let round = 1; round <= 5; round++) {
      const pid = 1000 + round;
      alive.add(pid);
      const m = mortal(new SqliteTrialQueue(db));
      const exec = executor(true);
      const w = startWorker({ queue: m.queue, workerId: `w${round}`, pid, executorFor: async () => exec, isAlive, pollMs: 5, flushMs: 1 });
      stoppers.push(() => w.stop(0));
      // It dies once its calls have started and the starts are stored (the worker writes them
      // within its flush interval); the trials it holds beyond them never started.
      await until(() => exec.startedHere === CONCURRENCY, `worker ${round} to start its calls`);
      await until(
        () =>
          [...calls].every(
            ([trial, n]) =>
              attempts(trial) >= n || (db.$client.prepare("SELECT status FROM trials WHERE id = ?").get(trial) as { status: string }).status === "error",
          ),
        "the starts to be stored",
      );
      m.kill();
      alive.delete(pid);
      held.push(m.maxHeld());
    }
    // Then a healthy worker runs whatever is left.
    alive.add(2000);
    const healthy = startWorker({
      queue: new SqliteTrialQueue(db),
      workerId: "healthy",
      pid: 2000,
      executorFor: async () => executor(false),
      isAlive,
      pollMs: 5,
      flushMs: 1,
    });
    await until(
      () => (db.$client.prepare("SELECT status FROM benches WHERE id = ?").get(id) as { status: string }).status === "finished",
      "the bench to finish",
    );
    await healthy.stop(0);
    for (const stop of stoppers) await stop();

    const rows = db.$client.prepare("SELECT id, status, error FROM trials WHERE bench_id = ? ORDER BY id").all(id) as {
      id: number;
      status: string;
      error: string | null;
    }[];
    const givenUp = rows.filter((r) => r.status === "error");
    // No trial is given up unless its model call started the allowed number of times…
    expect(givenUp.map((r) => [r.id, calls.get(r.id) ?? 0])).toEqual(givenUp.map((r) => [r.id, MAX_ATTEMPTS]));
    // …and those that did are: the first CONCURRENCY trials, started by workers 1–3.
    expect(givenUp).toHaveLength(CONCURRENCY);
    expect(givenUp[0].error).toMatch(/stopped 3 times/);
    expect(rows.filter((r) => r.status === "done")).toHaveLength(40 - CONCURRENCY);
    // Every worker held no more than it could start soon.
    expect(Math.max(...held)).toBeLessThanOrEqual(CONCURRENCY + PREFETCH);
    expect((await getBench(db, id))!.status).toBe("finished");
  }, 60_000);
});
