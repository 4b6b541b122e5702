/**
 * The SQLite trial job queue (the twin of db/pg/trial-job-queue.test.ts, same contract): enqueue
 * inside the launch transaction, claim within the bench and provider limits, complete exactly once,
 * expiry and re-delivery, giving up, cancellation, and the limits held across two processes on one
 * database file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TrialResult } from "@/lib/bench/trial-jobs";
import { migrateDatabase, openDatabase, type Db } from "../client";
import { benchCandidates, benchCases, benches, trials } from "../schema";
import { insertQueuedBench } from "../test-support/bench-rows";
import { MIXED, VARIED, mixedCapSettings, runMixedPrices, runPriced, variedCapSettings, variedCost } from "../test-support/mixed-price-cap";
import { queueProcessTests } from "../test-support/queue-processes";
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

  describe("a judged bench (issue 20: judge calls count against their provider's limit)", () => {
    // The judge's provider key follows server/bench/provider-key.ts: `<provider> <base URL or "default">`.
    const judgeKey = "openai-compatible http://judge.example/v1";
    /** A bench on `provider` (limit 2) whose judge is on {@link judgeKey}, its judge's limit stored as a launch does. */
    async function judged(provider: string, count: number) {
      const bench = await launch(count, { concurrency: 10, provider, providerLimit: 2 });
      await db
        .update(benches)
        .set({ judge: JSON.stringify({ name: "j", provider: "openai-compatible", modelId: "j", baseUrl: "http://judge.example/v1" }) })
        .where(eq(benches.id, bench.benchId));
      expect(await transaction(db, (tx) => SqliteTrialJobQueue.storeJudgeLimitIn(tx, bench.benchId, 2))).toBe(judgeKey);
      return bench;
    }

    it("takes a slot of the judge's provider per trial, shared across benches and with its own candidates", async () => {
      const a = await judged("cand-a", 3);
      const b = await judged("cand-b", 3);
      // Each candidate provider has 2 free slots, the judge's provider 2 over both benches.
      const first = await queue.claim("w1", 10, T0);
      expect(first.map((c) => c.trialId)).toEqual(a.trialIds.slice(0, 2));
      expect(await queue.claim("w2", 10, T0)).toEqual([]);
      // A candidate on the judge's provider waits too: the judged trials hold both its slots.
      const c = await launch(2, { concurrency: 10, provider: judgeKey, providerLimit: 2 });
      expect(await queue.claim("w2", 10, T0)).toEqual([]);
      // Each stored result frees one slot of the judge's provider, taken in bench order.
      expect(await queue.complete(first[0], result("a1"))).toBe(true);
      expect((await queue.claim("w2", 10, T0)).map((x) => x.trialId)).toEqual([a.trialIds[2]]);
      expect(await queue.complete(first[1], result("a2"))).toBe(true);
      expect((await queue.claim("w2", 10, T0)).map((x) => x.trialId)).toEqual([b.trialIds[0]]);
      expect(await queue.claim("w3", 10, T0)).toEqual([]);
      expect(c.trialIds).toHaveLength(2);
    });

    it("takes one slot when the judge is on the candidate's own provider (its calls run one at a time)", async () => {
      const same = await judged(judgeKey, 4);
      expect((await queue.claim("w1", 10, T0)).map((x) => x.trialId)).toEqual(same.trialIds.slice(0, 2));
    });

    it("stores no judge limit for a bench without a judge", async () => {
      const plain = await launch(1, { concurrency: 1 });
      expect(await transaction(db, (tx) => SqliteTrialJobQueue.storeJudgeLimitIn(tx, plain.benchId, 2))).toBeNull();
    });
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

  it("re-delivers a claim past its lease within the next claim itself, and gives up after the last delivery", async () => {
    const { benchId, trialIds } = await launch(1, { concurrency: 1 });
    const [first] = await queue.claim("w1", 1, T0);
    // No expire() call: the claim at the lease's end requeues the trial and takes the bench's freed slot.
    const [second] = await queue.claim("w2", 1, T0 + 1_000);
    expect(second).toMatchObject({ trialId: trialIds[0], delivery: 2 });
    expect(second.token).not.toBe(first.token);
    expect((await trialRows(benchId))[0]).toMatchObject({ status: "running", workerId: "w2", attempts: 2 });
    const [third] = await queue.claim("w3", 1, T0 + 2_000);
    expect(third).toMatchObject({ trialId: trialIds[0], delivery: 3 });
    expect(await queue.claim("w4", 1, T0 + 3_000)).toEqual([]);
    expect((await trialRows(benchId))[0]).toMatchObject({
      status: "error",
      workerId: null,
      attempts: 3,
      error: expect.stringContaining("stopped answering 3 times"),
    });
    expect(await queue.complete(third, result("too late"))).toBe(false);
  });

  it("reads claimed trials' rows with their case revision, leaving out ids without a row", async () => {
    const { benchId, trialIds } = await launch(2, { concurrency: 2 });
    const rows = await queue.claimedTrials([trialIds[1], 999_999, trialIds[0]]);
    const expected = await db
      .select({ id: trials.id, candidateId: trials.candidateId, benchCaseId: trials.benchCaseId, caseRevisionId: benchCases.caseRevisionId })
      .from(trials)
      .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
      .where(eq(trials.benchId, benchId))
      .orderBy(asc(trials.id));
    expect(expected).toHaveLength(2);
    expect([...rows].sort((a, b) => a.id - b.id)).toEqual(expected.map((e) => ({ ...e, benchId, repeat: 0, attempts: 0 })));
    expect(await queue.claimedTrials([])).toEqual([]);
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

  it("stores results and claims the slots they freed in one transaction, returning the claimed trials' rows", async () => {
    const { benchId, trialIds } = await launch(5, { concurrency: 2 });
    const first = await queue.claim("w1", 2, T0);
    const stale = { ...first[1], token: "00000000-0000-4000-8000-000000000000" };
    // Count the write transactions the call opens (the store's one connection begins each one).
    const prepare = db.$client.prepare.bind(db.$client);
    let begins = 0;
    db.$client.prepare = ((source: string) => {
      if (source === "BEGIN IMMEDIATE") begins++;
      return prepare(source);
    }) as typeof db.$client.prepare;
    const r = await queue.completeAndClaim(
      [
        { claim: first[0], result: result("first") },
        { claim: stale, result: result("forged") },
      ],
      "w1",
      5,
      T0,
    );
    db.$client.prepare = prepare;
    expect(begins).toBe(1);
    // Only the current claim stored; its slot (one of the bench's two) went to the next trial at once.
    expect(r.stored).toEqual([trialIds[0]]);
    expect(r.claims.map((c) => [c.trialId, c.delivery, c.expiresAt])).toEqual([[trialIds[2], 1, T0 + 1_000]]);
    expect(r.trials.map((t) => [t.id, t.benchId, t.attempts])).toEqual([[trialIds[2], benchId, 1]]);
    expect(r.trials).toEqual(await queue.claimedTrials([trialIds[2]]));
    expect((await trialRows(benchId)).map((t) => [t.status, t.output])).toEqual([
      ["done", "first"],
      ["running", null],
      ["running", null],
      ["queued", null],
      ["queued", null],
    ]);
    // Nothing to store: a plain claim within the limits (both slots held).
    expect(await queue.completeAndClaim([], "w1", 5, T0)).toEqual({ stored: [], claims: [], trials: [] });
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

  it("holds the spend cap when candidates differ in price: each running trial counts at its own candidate's cost (issue #16 §4)", async () => {
    // Two candidates, $0.02 and $0.20 a trial, concurrency 10, a $2.00 cap; the dear trials answer
    // 3 claims after they start. Counted at the bench's mean (the cheap trials'), dear ones started past the cap.
    const { benchId, trialIds, positions } = await transaction(db, async (tx) => {
      const bench = await insertQueuedBench(tx, MIXED.cases, 2);
      await tx.update(benches).set({ settings: mixedCapSettings() }).where(eq(benches.id, bench.benchId));
      await queue.enqueue(tx, {
        benchId: bench.benchId,
        trials: bench.trialIds.map((trialId) => ({ trialId, providerKey: "scripted" })),
        concurrency: MIXED.concurrency,
        providerLimits: { scripted: 100 },
      });
      return bench;
    });
    const run = await runMixedPrices(queue, new Map(trialIds.map((id, i) => [id, positions[i]])), MIXED.costs, { now: T0 });
    const [bench] = await db.select({ spentUsd: benches.spentUsd, spentTrials: benches.spentTrials }).from(benches).where(eq(benches.id, benchId));
    expect(bench.spentTrials).toBe(run.started);
    expect(bench.spentUsd).toBeCloseTo(run.startedOf[0] * MIXED.costs[0] + run.startedOf[1] * MIXED.costs[1], 9);
    expect(bench.spentUsd).toBeLessThanOrEqual(run.boundUsd + 1e-9);
    // It stopped at the cap, not before: one more dear trial would not have fit.
    expect(bench.spentUsd + MIXED.costs[1]).toBeGreaterThan(MIXED.capUsd);
    const rows = await trialRows(benchId);
    expect(rows.filter((t) => t.status === "done")).toHaveLength(run.started);
    const skipped = rows.filter((t) => t.status === "skipped");
    expect(skipped.length).toBe(trialIds.length - run.started);
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((t) => t.error?.startsWith("budget: the spend cap of $2.00 would be passed"))).toBe(true);
    // Each candidate's spend is stored beside the bench's, by the same completion.
    const perCandidate = await db
      .select({ position: benchCandidates.position, spentUsd: benchCandidates.spentUsd, spentTrials: benchCandidates.spentTrials })
      .from(benchCandidates)
      .where(eq(benchCandidates.benchId, benchId))
      .orderBy(asc(benchCandidates.position));
    expect(perCandidate.map((c) => c.spentTrials)).toEqual(run.startedOf);
    expect(perCandidate[1].spentUsd).toBeCloseTo(run.startedOf[1] * MIXED.costs[1], 9);
  });

  it("holds the spend cap when a candidate's trial cost varies by case: a running trial counts at its candidate's dearest finished trial (issue #16 §4)", async () => {
    // The tester's bench: baseline $0.011 a trial, the candidate $0.017 or $0.225 by case (plan
    // figure $0.04), concurrency 8, a $2.00 cap. Counted at the candidate's mean per finished trial,
    // the cheap answers kept that under $0.225, so dear trials started past the cap.
    const { benchId, trialIds, positions } = await transaction(db, async (tx) => {
      const bench = await insertQueuedBench(tx, VARIED.cases, 2);
      await tx.update(benches).set({ settings: variedCapSettings() }).where(eq(benches.id, bench.benchId));
      await queue.enqueue(tx, {
        benchId: bench.benchId,
        trials: bench.trialIds.map((trialId) => ({ trialId, providerKey: "scripted" })),
        concurrency: VARIED.concurrency,
        providerLimits: { scripted: 100 },
      });
      return bench;
    });
    const priced = new Map(trialIds.map((id, i) => [id, { position: positions[i], costUsd: variedCost(positions[i], Math.floor(i / 2)) }]));
    const run = await runPriced(queue, priced, VARIED.planUsd, { now: T0, capUsd: VARIED.capUsd, slow: (c) => c === VARIED.dearUsd });
    const [spent] = await db.select({ spentUsd: benches.spentUsd, spentTrials: benches.spentTrials }).from(benches).where(eq(benches.id, benchId));
    expect(spent.spentTrials).toBe(run.started);
    expect(spent.spentUsd).toBeCloseTo(run.startedUsd, 9);
    // Within the cap, but for what the last claim that started trials could not know (here: nothing, the first wave is long over).
    expect(spent.spentUsd).toBeLessThanOrEqual(run.boundUsd + 1e-9);
    expect(run.boundUsd).toBeCloseTo(VARIED.capUsd, 9);
    // The cap stopped it (not all trials ran) and not far below it: one more dear trial would not have fit.
    expect(run.started).toBeLessThan(trialIds.length);
    expect(spent.spentUsd + VARIED.dearUsd).toBeGreaterThan(VARIED.capUsd);
    // Each candidate's dearest finished trial is stored by the completion that adds its spend.
    const dearest = await db
      .select({ maxTrialUsd: benchCandidates.maxTrialUsd })
      .from(benchCandidates)
      .where(eq(benchCandidates.benchId, benchId))
      .orderBy(asc(benchCandidates.position));
    expect(dearest.map((c) => c.maxTrialUsd)).toEqual([VARIED.baselineUsd, VARIED.dearUsd]);
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
    queueProcessTests({
      now: T0,
      target: () => ({ kind: "sqlite", file }),
      launch: (count, o) => launch(count, o),
      trialRows,
    });
  });
});
