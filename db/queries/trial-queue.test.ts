import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../client";
import { openMemoryDatabase } from "../client";
import { seedDemoWorkspace } from "../seed/demo";
import { listPrompts } from "./systems";
import { getBenchProgress, requestCancel } from "./benches";
import { SqliteTrialQueue, MAX_ATTEMPTS } from "./trial-queue";
import { launchFromRequest } from "@/server/bench/prepare";
import type { TrialOutcome } from "@/lib/bench/queue";

let db: Db;
let benchId: number;

const outcome = (id: number, o: Partial<TrialOutcome> = {}): TrialOutcome => ({
  id,
  status: "done",
  startedAt: 1,
  finishedAt: 2,
  latencyMs: 1,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: null,
  finishReason: "stop",
  output: "x",
  record: null,
  checks: [{ key: "e0:exact", kind: "exact", label: "x", verdict: "passed", score: 1, message: "" }],
  error: null,
  ...o,
});

beforeEach(async () => {
  db = openMemoryDatabase();
  await seedDemoWorkspace(db);
  const router = (await listPrompts(db, "customer-support")).find((p) => p.name === "intent-router")!;
  // A model candidate (never called here) so that the ten planned trials are queued.
  const { createModelConfig } = await import("./models");
  const modelId = await createModelConfig(db, { name: "m", provider: "openai-compatible", modelId: "x", baseUrl: "http://127.0.0.1:9/v1" });
  ({ id: benchId } = await launchFromRequest(db, {
    systemId: "customer-support",
    promptId: router.id,
    candidates: [{ kind: "model", modelConfigId: modelId }],
    baseline: { kind: "none" },
    selection: { kind: "all" },
    budget: 10,
    repeats: 1,
    concurrency: 4,
    timeoutSeconds: 5,
    maxSteps: 1,
    judgeModelConfigId: null,
    launchKey: "queue-test-1",
  }));
});

describe("SQLite trial queue", () => {
  it("claims each trial once, in order, and marks the bench running", async () => {
    const q = new SqliteTrialQueue(db);
    await q.registerWorker("w1", 111);
    await q.registerWorker("w2", 222);
    const a = await q.claim(benchId, "w1", 4, 1000);
    const b = await q.claim(benchId, "w2", 100, 1000);
    expect(a.map((t) => t.id)).toEqual([1, 2, 3, 4]);
    expect(b).toHaveLength(6);
    expect(new Set([...a, ...b].map((t) => t.id)).size).toBe(10);
    expect(a[0].caseRevisionId).toBeGreaterThan(0);
    expect(await q.claim(benchId, "w1", 5, 1000)).toEqual([]);
    expect((await getBenchProgress(db, benchId))!).toMatchObject({ status: "running", running: 10, queued: 0 });
  });

  it("releases claimed trials it will not run back to the queue", async () => {
    const q = new SqliteTrialQueue(db);
    await q.registerWorker("w1", 1);
    const got = await q.claim(benchId, "w1", 3, 1000);
    expect(
      await q.release(
        "w1",
        got.slice(1).map((t) => t.id),
      ),
    ).toBe(2);
    expect(await q.release("w2", [got[0].id])).toBe(0); // not its trial
    expect((await getBenchProgress(db, benchId))!).toMatchObject({ running: 1, queued: 9 });
    const again = await q.claim(benchId, "w1", 2, 1000);
    // A claim counts no attempt (only a started model call does): released or not, still 0.
    expect(again.map((t) => [t.id, t.attempts])).toEqual([
      [got[1].id, 0],
      [got[2].id, 0],
    ]);
  });

  it("stores only the claiming worker's outcome (exactly one result per trial)", async () => {
    const q = new SqliteTrialQueue(db);
    await q.registerWorker("w1", 1);
    const [t] = await q.claim(benchId, "w1", 1, 0);
    expect(await q.complete("intruder", [outcome(t.id, { output: "wrong" })])).toBe(0);
    expect(await q.complete("w1", [outcome(t.id)])).toBe(1);
    expect(await q.complete("w1", [outcome(t.id, { output: "again" })])).toBe(0);
    const row = db.$client.prepare("SELECT status, output, passed_checks AS p FROM trials WHERE id = ?").get(t.id);
    expect(row).toEqual({ status: "done", output: "x", p: 1 });
  });

  it("puts trials of a dead worker back in the queue, and gives up after repeated deaths", async () => {
    const q = new SqliteTrialQueue(db);
    await q.registerWorker("dead", 4242);
    const claimed = await q.claim(benchId, "dead", 3, 0);
    // a live heartbeat but a pid that no longer exists
    expect(await q.requeueOrphans(0, (pid) => pid !== 4242)).toBe(3);
    expect((await getBenchProgress(db, benchId))!.queued).toBe(10);
    // a stale heartbeat
    await q.registerWorker("w2", 5);
    await q.claim(benchId, "w2", 1, 0);
    db.$client.prepare("UPDATE workers SET heartbeat_at = 0 WHERE id = 'w2'").run();
    expect(await q.requeueOrphans(10, () => true)).toBe(1);
    // attempts count started model calls; after MAX_ATTEMPTS deaths during them the trial ends as an error
    const id = claimed[0].id;
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await q.registerWorker(`x${i}`, 9);
      db.$client.prepare("UPDATE trials SET status = 'running', worker_id = ?, attempts = ? WHERE id = ?").run(`x${i}`, i + 1, id);
      await q.requeueOrphans(Date.now() + 1, () => true);
    }
    const row = db.$client.prepare("SELECT status, error FROM trials WHERE id = ?").get(id) as { status: string; error: string };
    expect(row.status).toBe("error");
    expect(row.error).toMatch(/stopped 3 times/);
  });

  it("counts an attempt per started model call, for running trials and for those whose outcome comes with the start", async () => {
    const q = new SqliteTrialQueue(db);
    await q.registerWorker("w1", 1);
    const [a, b, c] = await q.claim(benchId, "w1", 3, 0);
    const attempts = () =>
      (db.$client.prepare("SELECT attempts FROM trials WHERE id IN (?, ?, ?) ORDER BY id").all(a.id, b.id, c.id) as { attempts: number }[]).map(
        (r) => r.attempts,
      );
    expect(attempts()).toEqual([0, 0, 0]);
    // a started and still running; b started and ended in the same batch; c not started
    expect(await q.complete("w1", [outcome(b.id)], [a.id, b.id])).toBe(1);
    expect(attempts()).toEqual([1, 1, 0]);
    // another worker's starts are ignored, like its outcomes
    expect(await q.complete("intruder", [], [a.id, c.id])).toBe(0);
    expect(attempts()).toEqual([1, 1, 0]);
    // a started again (a trial thread that died and ran it once more), then ended
    expect(await q.complete("w1", [outcome(a.id)], [a.id])).toBe(1);
    expect(attempts()).toEqual([2, 1, 0]);
    // the worker dies holding c, never started: back to the queue, not given up, whatever the claims
    expect(await q.requeueOrphans(0, () => false)).toBe(1);
    expect(db.$client.prepare("SELECT status, attempts FROM trials WHERE id = ?").get(c.id)).toEqual({ status: "queued", attempts: 0 });
  });

  it("cancel skips queued trials and finalize marks the bench cancelled with results kept", async () => {
    const q = new SqliteTrialQueue(db);
    await q.registerWorker("w1", 1);
    const [t1, t2] = await q.claim(benchId, "w1", 2, 0);
    await q.complete("w1", [outcome(t1.id)]);
    await requestCancel(db, benchId);
    expect((await q.runnableBenches()).find((b) => b.benchId === benchId)?.cancelRequested).toBe(true);
    expect(await q.skipQueued(benchId, "cancelled before it ran")).toBe(8);
    expect(await q.finalize(benchId, 5)).toBe(false); // t2 still running
    await q.complete("w1", [outcome(t2.id, { status: "skipped", checks: null, error: "cancelled while running" })]);
    expect(await q.finalize(benchId, 5)).toBe(true);
    const p = (await getBenchProgress(db, benchId))!;
    expect(p).toMatchObject({ status: "cancelled", done: 1, skipped: 9, queued: 0, running: 0 });
    await expect(requestCancel(db, benchId)).rejects.toThrow(/already/);
  });
});

describe("concurrency shared by workers", () => {
  it("a worker removed as dead while it still beats registers again, as the newest", async () => {
    const q = new SqliteTrialQueue(db);
    await q.registerWorker("old", 1);
    await q.registerWorker("stalled", 2);
    db.$client.prepare("DELETE FROM workers WHERE id = 'stalled'").run();
    await q.heartbeat("stalled");
    const started = (id: string) => (db.$client.prepare("SELECT started_at AS s FROM workers WHERE id = ?").get(id) as { s: number } | undefined)?.s;
    expect(started("stalled")).toBeGreaterThan(started("old")!);
    db.$client.prepare("DELETE FROM workers WHERE id IN ('old', 'stalled')").run();
  });

  it("gives each live worker an equal share of a bench's concurrency", async () => {
    const q = new SqliteTrialQueue(db);
    await q.registerWorker("w1", 1);
    expect((await q.runnableBenches()).find((b) => b.benchId === benchId)?.concurrency).toBe(4);
    await q.registerWorker("w2", 2);
    await q.registerWorker("w3", 3);
    const share = async (w: string) => (await q.runnableBenches(w)).find((b) => b.benchId === benchId)?.concurrency;
    // Newcomers take nothing until every older worker has settled since they joined (lowered its own
    // share and drained to it): w1 still runs its 4 until it has looked again.
    expect([await share("w2"), await share("w3")]).toEqual([0, 0]);
    expect(await share("w1")).toBe(2);
    await q.settle("w1");
    expect([await share("w2"), await share("w3")]).toEqual([1, 0]);
    await q.settle("w2");
    // Exact shares that add up to the bench's concurrency (4 over 3 workers: 2 + 1 + 1, not 2 each).
    expect([await share("w1"), await share("w2"), await share("w3")]).toEqual([2, 1, 1]);
    // A settle that came from a look taken before a worker joined does not count for it.
    await q.registerWorker("w4", 4);
    await q.settle("w1");
    expect(await share("w4")).toBe(0);
    // Concurrency 1 over 2 workers ran 2 at once (a user test): one worker gets it, the other none.
    db.$client.prepare("DELETE FROM workers WHERE id = 'w4'").run();
    db.$client.prepare("UPDATE workers SET heartbeat_at = 0 WHERE id = 'w3'").run();
    db.$client.prepare("UPDATE benches SET settings = json_set(settings, '$.concurrency', 1) WHERE id = ?").run(benchId);
    expect([await share("w1"), await share("w2")]).toEqual([1, 0]);
    db.$client.prepare("UPDATE benches SET settings = json_set(settings, '$.concurrency', 4) WHERE id = ?").run(benchId);
    db.$client.prepare("UPDATE workers SET heartbeat_at = ? WHERE id = 'w3'").run(Date.now());
    db.$client.prepare("UPDATE workers SET heartbeat_at = 0 WHERE id IN ('w2', 'w3')").run();
    expect((await q.runnableBenches()).find((b) => b.benchId === benchId)?.concurrency).toBe(4);
  });
});
