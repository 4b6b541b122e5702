/**
 * The worker loop (lib/bench/worker.ts) over the SQLite queue with scripted executors: the bench's
 * concurrency, the per-provider limit, and an executor's `prefetch` (trial threads queue a few
 * trials ahead and keep both limits themselves).
 */
import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "../client";
import { seedDemoWorkspace } from "../seed/demo";
import { listPrompts } from "./systems";
import { getBench } from "./benches";
import { createModelConfig } from "./models";
import { SqliteTrialQueue } from "./trial-queue";
import { launchFromRequest } from "@/server/bench/prepare";
import { startWorker, type TrialExecutor } from "@/lib/bench/worker";
import type { ClaimedTrial, TrialQueue } from "@/lib/bench/queue";

async function bench(concurrency: number, budget: number) {
  const db = openMemoryDatabase();
  await seedDemoWorkspace(db);
  const router = (await listPrompts(db, "customer-support")).find((p) => p.name === "intent-router")!;
  const modelId = await createModelConfig(db, { name: "m", provider: "openai-compatible", modelId: "x", baseUrl: "http://127.0.0.1:9/v1" });
  const { id } = await launchFromRequest(db, {
    systemId: "customer-support",
    promptId: router.id,
    candidates: [{ kind: "model", modelConfigId: modelId }],
    baseline: { kind: "none" },
    selection: { kind: "all" },
    budget,
    repeats: 1,
    concurrency,
    timeoutSeconds: 5,
    maxSteps: 1,
    judgeModelConfigId: null,
    launchKey: `loop-${Math.random()}`,
  });
  return { db, id };
}

/** An executor whose trials take 15 ms; records how many were handed over at once and the limits passed. */
function scripted(prefetch?: number) {
  const seen = { handedOver: 0, maxHandedOver: 0, limits: [] as { concurrency: number; provider: number }[] };
  const executor: TrialExecutor = {
    prefetch,
    providerKey: () => "openai-compatible http://127.0.0.1:9/v1",
    async run(t: ClaimedTrial, _signal, limits) {
      seen.handedOver++;
      seen.maxHandedOver = Math.max(seen.maxHandedOver, seen.handedOver);
      seen.limits.push(limits);
      await new Promise((r) => setTimeout(r, 15));
      seen.handedOver--;
      return {
        id: t.id,
        status: "done",
        startedAt: 1,
        finishedAt: 2,
        latencyMs: 15,
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
  return { executor, seen };
}

async function runAll(concurrency: number, providerLimit: number, prefetch?: number) {
  const { db, id } = await bench(concurrency, 12);
  const { executor, seen } = scripted(prefetch);
  let finished!: () => void;
  const finishedBench = new Promise<void>((r) => (finished = r));
  const w = startWorker({
    queue: new SqliteTrialQueue(db),
    workerId: "w1",
    pid: process.pid,
    executorFor: async () => executor,
    providerLimit: () => providerLimit,
    isAlive: () => true,
    pollMs: 10,
    onBenchFinished: (b) => b === id && finished(),
  });
  await finishedBench; // however long it takes (the test's timeout bounds it)
  await w.stop(500);
  expect((await getBench(db, id))!.status).toBe("finished");
  const done = (db.$client.prepare("SELECT count(*) AS n FROM trials WHERE bench_id = ? AND status = 'done'").get(id) as { n: number }).n;
  return { seen, done };
}

describe("worker loop limits", () => {
  it("hands over at most the smaller of the bench's concurrency and the provider limit", async () => {
    const { seen, done } = await runAll(4, 2);
    expect(done).toBe(12);
    expect(seen.maxHandedOver).toBe(2);
    expect(seen.limits.every((l) => l.concurrency === 4 && l.provider === 2)).toBe(true);
  });
  it("hands a prefetching executor its prefetch beyond the concurrency, with the limits to keep", async () => {
    const { seen, done } = await runAll(4, 2, 3);
    expect(done).toBe(12);
    // concurrency 4 + prefetch 3: the provider limit is the executor's to keep (it is told 2)
    expect(seen.maxHandedOver).toBe(7);
    expect(seen.limits.every((l) => l.concurrency === 4 && l.provider === 2)).toBe(true);
  });
});

describe("worker loop claims", () => {
  it("holds no more trials than it can start soon: its concurrency plus the executor's prefetch", async () => {
    for (const prefetch of [undefined, 6]) {
      const { db, id } = await bench(4, 12);
      // Trials claimed and not yet back from the executor (waiting in the loop, handed over, running).
      let held = 0;
      let maxHeld = 0;
      const sqlite = new SqliteTrialQueue(db);
      const queue: TrialQueue = Object.assign(Object.create(sqlite) as TrialQueue, {
        async claim(benchId: number, workerId: string, limit: number, now: number) {
          const got = await sqlite.claim(benchId, workerId, limit, now);
          maxHeld = Math.max(maxHeld, (held += got.length));
          return got;
        },
      });
      const { executor } = scripted(prefetch);
      const measured: TrialExecutor = { ...executor, run: (t, s, l, started) => executor.run(t, s, l, started).finally(() => held--) };
      const w = startWorker({ queue, workerId: "w1", pid: process.pid, executorFor: async () => measured, isAlive: () => true, pollMs: 10 });
      for (let i = 0; i < 300 && (await getBench(db, id))?.status !== "finished"; i++) await new Promise((r) => setTimeout(r, 10));
      await w.stop(500);
      expect((await getBench(db, id))?.status).toBe("finished");
      expect(maxHeld).toBe(4 + (prefetch ?? 0));
    }
  });
});

describe("worker loop waiting", () => {
  it("does not pile up abort listeners when wakes come faster than its sleep (no MaxListeners warning)", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    const { db } = await bench(4, 12);
    const { executor } = scripted();
    const w = startWorker({
      queue: new SqliteTrialQueue(db),
      workerId: "w2",
      pid: process.pid,
      executorFor: async () => executor,
      isAlive: () => true,
      pollMs: 1_000,
    });
    for (let i = 0; i < 60; i++) {
      w.wake();
      await new Promise((r) => setImmediate(r));
    }
    await w.stop(500);
    // process.emitWarning emits on the next tick: after an immediate, every warning has been seen.
    await new Promise((r) => setImmediate(r));
    process.off("warning", onWarning);
    expect(warnings.filter((m) => m.includes("MaxListenersExceeded"))).toEqual([]);
  });
});
