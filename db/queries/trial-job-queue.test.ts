/**
 * The SQLite trial job queue (the twin of db/pg/trial-job-queue.test.ts, same contract): enqueue
 * inside the launch transaction, claim within the bench and provider limits, complete exactly once,
 * expiry and re-delivery, giving up, cancellation, and the limits held across two processes on one
 * database file.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { asc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TrialClaim, TrialResult } from "@/lib/bench/trial-jobs";
import { migrateDatabase, openDatabase, type Db } from "../client";
import { benches, trials } from "../schema";
import { insertQueuedBench } from "../test-support/bench-rows";
import { transaction } from "../transaction";
import { SqliteTrialJobQueue } from "./trial-job-queue";

const T0 = 1_800_000_000_000;

function result(output: string): TrialResult {
  return {
    status: "done",
    startedAt: T0,
    finishedAt: T0 + 5,
    latencyMs: 5,
    inputTokens: 3,
    outputTokens: 4,
    costUsd: 0.001,
    finishReason: "stop",
    output,
    record: JSON.stringify({ messages: [] }),
    checks: [
      { kind: "contains", name: "has 4", verdict: "passed", message: "ok" } as never,
      { kind: "judge", name: "j", verdict: "failed", message: "no" } as never,
    ],
    error: null,
  };
}

let dir: string;
let file: string;
let db: Db;
let queue: SqliteTrialJobQueue;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchwork-queue-"));
  file = path.join(dir, "q.db");
  db = openDatabase(file);
  migrateDatabase(db);
  queue = new SqliteTrialJobQueue(db, { leaseMs: 1_000, maxDeliveries: 3 });
});
afterEach(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A bench launched the way the app will: trial rows and their jobs in one transaction. */
async function launch(count: number, o: { concurrency: number; provider?: string; providerLimit?: number }) {
  const provider = o.provider ?? "scripted";
  return transaction(db, async (tx) => {
    const bench = await insertQueuedBench(tx, count);
    const spec = { benchId: bench.benchId, trials: bench.trialIds.map((trialId) => ({ trialId, providerKey: provider })) };
    await queue.prepare();
    await queue.enqueue(tx, { ...spec, concurrency: o.concurrency, providerLimits: { [provider]: o.providerLimit ?? 100 } });
    return bench;
  });
}

async function trialRows(benchId: number) {
  return db
    .select({
      id: trials.id,
      status: trials.status,
      output: trials.output,
      workerId: trials.workerId,
      passed: trials.passedChecks,
      failed: trials.failedChecks,
      attempts: trials.attempts,
      error: trials.error,
    })
    .from(trials)
    .where(eq(trials.benchId, benchId))
    .orderBy(asc(trials.id));
}

describe("SqliteTrialJobQueue", () => {
  it("enqueues in the launch transaction, claims within the bench's concurrency, and stores each result once", async () => {
    const { benchId, trialIds } = await launch(5, { concurrency: 3 });
    const first = await queue.claim("w1", 10, T0);
    expect(first.map((c) => c.trialId)).toEqual(trialIds.slice(0, 3));
    expect(first.every((c) => c.delivery === 1 && c.expiresAt === T0 + 1_000)).toBe(true);
    expect((await trialRows(benchId)).map((t) => [t.status, t.workerId])).toEqual([
      ["running", "w1"],
      ["running", "w1"],
      ["running", "w1"],
      ["queued", null],
      ["queued", null],
    ]);
    expect(await queue.claim("w2", 10, T0)).toEqual([]);

    expect(await queue.complete(first[0], result("answer 0"))).toBe(true);
    expect(await queue.complete(first[0], result("again"))).toBe(false);
    const next = await queue.claim("w2", 10, T0);
    expect(next.map((c) => c.trialId)).toEqual([trialIds[3]]);

    for (const c of [...first.slice(1), ...next]) expect(await queue.complete(c, result(`answer ${c.trialId}`))).toBe(true);
    const last = await queue.claim("w1", 10, T0);
    expect(last.map((c) => c.trialId)).toEqual([trialIds[4]]);
    expect(await queue.complete(last[0], result("answer last"))).toBe(true);
    expect(await queue.claim("w1", 10, T0)).toEqual([]);

    const rows = await trialRows(benchId);
    expect(rows.map((t) => t.status)).toEqual(["done", "done", "done", "done", "done"]);
    expect(rows[0]).toMatchObject({ output: "answer 0", passed: 1, failed: 1, workerId: null, attempts: 1 });
    expect((await db.select({ status: benches.status }).from(benches).where(eq(benches.id, benchId)))[0].status).toBe("running");
  });

  it("leaves no job behind when the launch transaction rolls back, and enqueues a trial once when enqueued twice", async () => {
    await expect(
      transaction(db, async (tx) => {
        const bench = await insertQueuedBench(tx, 2);
        await queue.enqueue(tx, {
          benchId: bench.benchId,
          concurrency: 5,
          providerLimits: { scripted: 5 },
          trials: bench.trialIds.map((trialId) => ({ trialId, providerKey: "scripted" })),
        });
        throw new Error("launch failed");
      }),
    ).rejects.toThrow("launch failed");
    expect(await queue.claim("w1", 10, T0)).toEqual([]);

    const { benchId, trialIds } = await launch(2, { concurrency: 5 });
    const again = await transaction(db, (tx) =>
      queue.enqueue(tx, {
        benchId,
        concurrency: 5,
        providerLimits: { scripted: 100 },
        trials: trialIds.map((trialId) => ({ trialId, providerKey: "scripted" })),
      }),
    );
    expect(again).toBe(0);
    expect((await queue.claim("w1", 10, T0)).map((c) => c.trialId)).toEqual(trialIds);
  });

  it("refuses a limit below 1 or a provider without a limit, naming the bench and provider", async () => {
    const attempt = (concurrency: number, limits: Record<string, number>) =>
      transaction(db, async (tx) => {
        const bench = await insertQueuedBench(tx, 1);
        await queue.enqueue(tx, {
          benchId: bench.benchId,
          concurrency,
          providerLimits: limits,
          trials: [{ trialId: bench.trialIds[0], providerKey: "other" }],
        });
      });
    await expect(attempt(0, { other: 1 })).rejects.toThrow(/^bench \d+: concurrency must be a whole number ≥ 1 \(got 0\)$/);
    await expect(attempt(1, {})).rejects.toThrow(/^bench \d+: no provider limit for "other"$/);
    await expect(attempt(1, { other: 1.5 })).rejects.toThrow('provider "other": limit must be a whole number ≥ 1 (got 1.5)');
  });

  it("holds a provider's limit across benches, oldest bench first", async () => {
    const a = await launch(3, { concurrency: 3, provider: "shared", providerLimit: 2 });
    await launch(3, { concurrency: 3, provider: "shared", providerLimit: 2 });
    const claims = await queue.claim("w1", 10, T0);
    expect(claims.map((c) => c.trialId)).toEqual(a.trialIds.slice(0, 2));
    expect(await queue.claim("w2", 10, T0)).toEqual([]);
  });

  it("re-delivers a trial whose claim expired, refuses the stale claim's result, and keeps the live one's", async () => {
    const { benchId, trialIds } = await launch(1, { concurrency: 1 });
    const [stale] = await queue.claim("w1", 1, T0);
    expect(await queue.heartbeat("w1", T0 + 900)).toBe(1);
    expect(await queue.expire(T0 + 1_500)).toEqual({ requeued: 0, gaveUp: 0 }); // the heartbeat moved it to T0 + 1,900
    expect(await queue.claim("w2", 1, T0 + 1_500)).toEqual([]); // still held: the bench's one slot is taken

    expect(await queue.expire(T0 + 1_900)).toEqual({ requeued: 1, gaveUp: 0 });
    expect((await trialRows(benchId))[0]).toMatchObject({ status: "queued", workerId: null });
    expect(await queue.heartbeat("w1", T0 + 1_950)).toBe(0);

    const [live] = await queue.claim("w2", 1, T0 + 2_000);
    expect(live).toMatchObject({ trialId: trialIds[0], delivery: 2 });
    expect(live.token).not.toBe(stale.token);
    expect(await queue.complete(stale, result("from the presumed-dead worker"))).toBe(false);
    expect(await queue.complete(live, result("from the live worker"))).toBe(true);
    expect(await queue.complete(stale, result("late again"))).toBe(false);
    expect(await trialRows(benchId)).toEqual([expect.objectContaining({ status: "done", output: "from the live worker", attempts: 2 })]);
  });

  it("completes many claims in one transaction, storing only the current ones", async () => {
    const { benchId, trialIds } = await launch(3, { concurrency: 3 });
    const claims = await queue.claim("w1", 3, T0);
    const stale = { ...claims[1], token: "00000000-0000-4000-8000-000000000000" };
    const stored = await queue.completeMany([
      { claim: claims[0], result: result("first") },
      { claim: stale, result: result("forged") },
      { claim: claims[2], result: result("third") },
    ]);
    expect(stored).toEqual([trialIds[0], trialIds[2]]);
    expect((await trialRows(benchId)).map((t) => [t.status, t.output])).toEqual([
      ["done", "first"],
      ["running", null],
      ["done", "third"],
    ]);
    expect(await queue.completeMany([{ claim: claims[0], result: result("again") }])).toEqual([]);
    expect(await queue.complete(claims[1], result("second"))).toBe(true);
  });

  it("gives a trial up as error after its last delivery expires", async () => {
    const { benchId } = await launch(1, { concurrency: 1 });
    for (let d = 1; d <= 3; d++) {
      const [c] = await queue.claim("w", 1, T0 + d * 10_000);
      expect(c.delivery).toBe(d);
      expect(await queue.expire(T0 + d * 10_000 + 1_000)).toEqual(d < 3 ? { requeued: 1, gaveUp: 0 } : { requeued: 0, gaveUp: 1 });
    }
    expect(await queue.claim("w", 1, T0 + 50_000)).toEqual([]);
    expect((await trialRows(benchId))[0]).toMatchObject({ status: "error", attempts: 3, error: expect.stringContaining("stopped answering 3 times") });
  });

  it("cancels a bench: queued trials skipped, no new claims, claimed trials may still finish", async () => {
    const { benchId } = await launch(5, { concurrency: 2 });
    const held = await queue.claim("w1", 5, T0);
    expect(held).toHaveLength(2);
    expect(await queue.cancelBench(benchId, "cancelled by the user", T0 + 1)).toBe(3);
    expect(await queue.claim("w1", 5, T0 + 2)).toEqual([]);
    for (const c of held) expect(await queue.complete(c, result("finished anyway"))).toBe(true);
    expect(await queue.claim("w1", 5, T0 + 3)).toEqual([]);
    const rows = await trialRows(benchId);
    expect(rows.map((t) => t.status)).toEqual(["done", "done", "skipped", "skipped", "skipped"]);
    expect(rows[4].error).toBe("cancelled by the user");
  });

  describe("two claimer processes on one file", () => {
    const children: ChildProcess[] = [];
    let nextId = 1;

    /** Starts tsx on sqlite-claimer.ts; returns a request function (with its `child` process). */
    async function claimer(providerKey: string) {
      const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("../test-support/sqlite-claimer.ts", import.meta.url))], {
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
      children.push(child);
      const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
      const ready = new Promise<void>((resolve, reject) => {
        child.on("message", (m: { ready?: true; id?: number; result?: unknown; error?: string }) => {
          if (m.ready) return resolve();
          const p = pending.get(m.id!);
          pending.delete(m.id!);
          if (m.error) p?.reject(new Error(m.error));
          else p?.resolve(m.result);
        });
        child.once("exit", (code) => reject(new Error(`claimer exited with ${code}`)));
      });
      child.send({ file, providerKey });
      await ready;
      const request = <T>(req: Record<string, unknown>) =>
        new Promise<T>((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
          child.send({ id, ...req });
        });
      return Object.assign(request, { child });
    }

    afterAll(() => {
      for (const c of children) if (c.exitCode === null) c.kill();
    });

    it("never exceed a provider limit of N between them, and each trial gets exactly one result", async () => {
      const N = 3;
      const { benchId, trialIds } = await launch(40, { concurrency: 40, provider: "limited", providerLimit: N });
      const [a, b] = await Promise.all([claimer("limited"), claimer("limited")]);

      const heldByA = await a<TrialClaim[]>({ op: "claim", workerId: "a", max: N + 5, now: T0 });
      expect(heldByA).toHaveLength(N);
      expect(await b<TrialClaim[]>({ op: "claim", workerId: "b", max: 5, now: T0 })).toEqual([]);
      expect(await a<number>({ op: "complete", claims: heldByA.slice(0, 1) })).toBe(1);
      const heldByB = await b<TrialClaim[]>({ op: "claim", workerId: "b", max: 5, now: T0 });
      expect(heldByB).toHaveLength(1);
      await Promise.all([a({ op: "complete", claims: heldByA.slice(1) }), b({ op: "complete", claims: heldByB })]);

      // Both ask for N at the same moment: together they get exactly N.
      const [x, y] = await Promise.all([
        a<TrialClaim[]>({ op: "claim", workerId: "a", max: N, now: T0 }),
        b<TrialClaim[]>({ op: "claim", workerId: "b", max: N, now: T0 }),
      ]);
      expect(x.length + y.length).toBe(N);
      expect(new Set([...x, ...y].map((c) => c.trialId)).size).toBe(N);
      await Promise.all([a({ op: "complete", claims: x }), b({ op: "complete", claims: y })]);

      const [da, dbr] = await Promise.all([
        a<{ completed: number; peak: number }>({ op: "drain", workerId: "a", max: N, now: T0 }),
        b<{ completed: number; peak: number }>({ op: "drain", workerId: "b", max: N, now: T0 }),
      ]);
      expect(da.completed + dbr.completed).toBe(40 - 1 - (N - 1) - 1 - N);
      expect(Math.max(da.peak, dbr.peak)).toBeLessThanOrEqual(N);
      await Promise.all([a({ op: "stop" }), b({ op: "stop" })]);

      const rows = await trialRows(benchId);
      expect(rows.map((r) => r.id)).toEqual(trialIds);
      expect(rows.every((r) => r.status === "done" && r.output !== null && r.attempts === 1)).toBe(true);
    }, 60_000);

    it("lose nothing when one is killed (SIGKILL) holding claims: they are re-delivered once, and each trial ends with one result", async () => {
      const { benchId, trialIds } = await launch(12, { concurrency: 12, provider: "kill", providerLimit: 5 });
      const [victim, survivor] = await Promise.all([claimer("kill"), claimer("kill")]);
      const held = await victim<TrialClaim[]>({ op: "claim", workerId: "victim", max: 5, now: T0 });
      expect(held).toHaveLength(5);
      const child = victim.child;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      expect(await survivor<TrialClaim[]>({ op: "claim", workerId: "survivor", max: 5, now: T0 + 59_999 })).toEqual([]);
      const drained = await survivor<{ completed: number; peak: number }>({ op: "drain", workerId: "survivor", max: 5, now: T0 + 60_000 });
      await survivor({ op: "stop" });
      expect(drained.completed).toBe(12);
      const rows = await trialRows(benchId);
      expect(rows.map((r) => r.id)).toEqual(trialIds);
      expect(rows.every((r) => r.status === "done")).toBe(true);
      const redelivered = new Set(held.map((c) => c.trialId));
      expect(rows.map((r) => r.attempts)).toEqual(trialIds.map((id) => (redelivered.has(id) ? 2 : 1)));
      expect(rows.every((r) => r.output?.startsWith("by ") && !r.output.startsWith(`by ${child.pid} `))).toBe(true);
    }, 60_000);

    it("hold the provider's limit while they claim from different benches at once", async () => {
      const N = 3;
      const launched = [];
      for (let i = 0; i < 10; i++) launched.push(await launch(4, { concurrency: 1, provider: "spread", providerLimit: N }));
      const [a, b] = await Promise.all([claimer("spread"), claimer("spread")]);
      const [da, dbr] = await Promise.all([
        a<{ completed: number; peak: number }>({ op: "drain", workerId: "a", max: N, now: T0 }),
        b<{ completed: number; peak: number }>({ op: "drain", workerId: "b", max: N, now: T0 }),
      ]);
      await Promise.all([a({ op: "stop" }), b({ op: "stop" })]);
      expect(da.completed + dbr.completed).toBe(40);
      expect(Math.max(da.peak, dbr.peak)).toBeLessThanOrEqual(N);
      for (const bench of launched) expect((await trialRows(bench.benchId)).map((r) => r.status)).toEqual(["done", "done", "done", "done"]);
    }, 60_000);
  });
});
