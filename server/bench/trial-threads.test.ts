/**
 * The bench worker with trial threads (issue #5 throughput): bounds, provider limits, cancellation
 * and exactly-once results, on a real SQLite file, real threads and real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase, type Db } from "@/db/client";
import { addCases } from "@/db/queries/cases";
import { addCriterion } from "@/db/queries/criteria";
import { createModelConfig } from "@/db/queries/models";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { getBench, getBenchProgress, requestCancel } from "@/db/queries/benches";
import { emptyCaseContent } from "@/lib/library/case-content";
import { launchFromRequest } from "./prepare";
import { concurrencyShare } from "./trial-messages";
import { startBenchWorker } from "../worker";
import { TrialThreadPool } from "./trial-pool";
import type { ClaimedTrial } from "@/lib/bench/queue";

/** An OpenAI-compatible chat endpoint that answers after `latencyMs` and counts requests in flight. */
let server: http.Server;
let url = "";
let inFlight = 0;
let maxInFlight = 0;
let served = 0;
const latencyMs = 25;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      inFlight++;
      served++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: "c", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: "Scripted answer" }, finish_reason: "stop" }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } }));
      }, latencyMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => server.close());

async function fileDb(): Promise<{ db: Db; promptId: number; model: number }> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "benchwork-threads-")), "b.db");
  const db = openDatabase(file);
  migrateDatabase(db);
  await createSystem(db, { id: "s", name: "S" });
  const promptId = await createPrompt(db, { systemId: "s", name: "p", systemPrompt: "Answer." });
  await addCases(
    db,
    ["a", "b"].map((k) => ({ systemId: "s", promptId, caseKey: k, source: "custom" as const, content: { ...emptyCaseContent(), input: `question ${k}`, expected: "Scripted", evaluators: [{ kind: "contains" }] } })),
  );
  const model = await createModelConfig(db, { name: "stub", provider: "openai-compatible", modelId: "m", baseUrl: url });
  return { db, promptId, model };
}

const launch = (db: Db, promptId: number, model: number, o: { repeats: number; concurrency: number; judgeModelConfigId?: number }) =>
  launchFromRequest(db, {
    systemId: "s",
    promptId,
    candidates: [{ kind: "model", modelConfigId: model }],
    baseline: { kind: "none" },
    selection: { kind: "all" },
    budget: null,
    timeoutSeconds: 10,
    maxSteps: 1,
    launchKey: `k-${Math.random()}`,
    ...o,
    judgeModelConfigId: o.judgeModelConfigId ?? null,
  });

async function waitEnded(db: Db, id: number) {
  for (let i = 0; i < 600; i++) {
    const b = await getBench(db, id);
    if (b && b.status !== "queued" && b.status !== "running") return b;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`bench ${id} did not end`);
}

const trials = (db: Db, id: number) => db.$client.prepare("SELECT status, attempts, output FROM trials WHERE bench_id = ?").all(id) as { status: string; attempts: number; output: string | null }[];

/** Runs bench `id` on trial threads, cancels it once `afterDone` trials are done (checking every `pollMs`), and waits for it to end. */
async function runAndCancel(db: Db, id: number, o: { trialThreads: number; afterDone: number; pollMs: number }) {
  const worker = startBenchWorker(db, { env: {}, pollMs: 20, trialThreads: o.trialThreads });
  for (let i = 0; i < 400; i++) {
    if ((await getBenchProgress(db, id))!.done >= o.afterDone) break;
    await new Promise((r) => setTimeout(r, o.pollMs));
  }
  await requestCancel(db, id);
  worker.wake();
  const bench = await waitEnded(db, id);
  await worker.stop(1000);
  return bench;
}

/** Waits for bench `id` to end, stops `workers`, and checks each of its `n` trials ran once, to one model call. */
async function expectEachRanOnce(db: Db, id: number, workers: { stop(graceMs?: number): Promise<void> }[], n: number) {
  const bench = await waitEnded(db, id);
  await Promise.all(workers.map((w) => w.stop(1000)));
  expect(bench.status).toBe("finished");
  expect(trials(db, id).filter((r) => r.status === "done" && r.attempts === 1)).toHaveLength(n);
  expect(served).toBe(n);
}

/** The reasons skipped trials of bench `id` give, with how many give each. */
const skipReasons = (db: Db, id: number) => db.$client.prepare("SELECT error, count(*) AS n FROM trials WHERE bench_id = ? AND status = 'skipped' GROUP BY error").all(id) as { error: string; n: number }[];

describe("concurrencyShare", () => {
  it("splits a bound over threads so the shares add up exactly", () => {
    expect([0, 1].map((i) => concurrencyShare(64, 2, i))).toEqual([32, 32]);
    expect([0, 1].map((i) => concurrencyShare(5, 2, i))).toEqual([3, 2]);
    expect([0, 1, 2].map((i) => concurrencyShare(1, 3, i))).toEqual([1, 0, 0]);
    expect([0, 1, 2, 3].map((i) => concurrencyShare(10, 4, i)).reduce((a, b) => a + b)).toBe(10);
  });
});

describe("a bench on trial threads", () => {
  it("keeps the bench's concurrency across threads, uses them all, and stores each trial once", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 30, concurrency: 3 });
    maxInFlight = 0;
    served = 0;
    const worker = startBenchWorker(db, { env: { BENCHWORK_PROVIDER_CONCURRENCY: "64" }, pollMs: 20, trialThreads: 2 });
    const bench = await waitEnded(db, id);
    await worker.stop(1000);
    expect(bench.status).toBe("finished");
    const rows = trials(db, id);
    expect(rows).toHaveLength(60);
    expect(rows.every((r) => r.status === "done" && r.attempts === 1 && r.output === "Scripted answer")).toBe(true);
    expect(served).toBe(60);
    // 3 = thread 1's share (2) + thread 2's share (1): both threads ran trials, never more than the bound
    expect(maxInFlight).toBe(3);
    expect(bench.summary!.candidates[0].stats.checks.passed).toBe(60);
  }, 60_000);

  it("keeps the bench's concurrency across worker processes sharing the database (1 means one at a time)", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 15, concurrency: 1 });
    maxInFlight = 0;
    served = 0;
    const a = startBenchWorker(db, { env: {}, pollMs: 20, trialThreads: 1 });
    const b = startBenchWorker(db, { env: {}, pollMs: 20, trialThreads: 0 });
    await expectEachRanOnce(db, id, [a, b], 30);
    expect(maxInFlight).toBe(1);
  }, 60_000);

  it("keeps the bench's concurrency when a worker joins a running bench: it waits until the running worker has lowered its share", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 100, concurrency: 2 });
    maxInFlight = 0;
    served = 0;
    // The running worker looks at the shares seldom (1 s), the one joining often (20 ms): before
    // the fix the newcomer took its share at once and 3 calls ran while the first still ran 2.
    const a = startBenchWorker(db, { env: {}, pollMs: 1000, trialThreads: 2 });
    for (let i = 0; i < 400 && (await getBenchProgress(db, id))!.done < 6; i++) await new Promise((r) => setTimeout(r, 10));
    const b = startBenchWorker(db, { env: {}, pollMs: 20, trialThreads: 0 });
    await expectEachRanOnce(db, id, [a, b], 200);
    expect(maxInFlight).toBe(2);
  }, 60_000);

  it("keeps the per-provider limit (shared by the threads) below a larger bench concurrency", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 15, concurrency: 8 });
    maxInFlight = 0;
    const worker = startBenchWorker(db, { env: { BENCHWORK_PROVIDER_CONCURRENCY: "2" }, pollMs: 20, trialThreads: 2 });
    const bench = await waitEnded(db, id);
    await worker.stop(1000);
    expect(bench.status).toBe("finished");
    expect(trials(db, id).filter((r) => r.status === "done")).toHaveLength(30);
    expect(maxInFlight).toBeLessThanOrEqual(2);
  }, 60_000);

  for (const trialThreads of [0, 2])
    it(`counts the judge's calls against the provider limit too (${trialThreads ? "trial threads" : "the worker's own thread"})`, async () => {
      const { db, promptId, model } = await fileDb();
      // The judge is the same provider: each trial judges 3 criteria at once after its own call.
      for (const rule of ["Polite", "Brief", "On topic"]) await addCriterion(db, { systemId: "s", promptId, fields: { rule, passes: "yes", fails: "no", priority: "secondary" } });
      const { id } = await launch(db, promptId, model, { repeats: 6, concurrency: 8, judgeModelConfigId: model });
      maxInFlight = 0;
      served = 0;
      const worker = startBenchWorker(db, { env: { BENCHWORK_PROVIDER_CONCURRENCY: "2" }, pollMs: 20, trialThreads });
      const bench = await waitEnded(db, id);
      await worker.stop(1000);
      expect(bench.status).toBe("finished");
      expect(served).toBe(12 * 4);
      expect(maxInFlight).toBeLessThanOrEqual(2);
    }, 60_000);

  it("a cancelled bench with concurrency 1 says 'cancelled while running' of one trial at most: the ones handed ahead to a thread never ran", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 40, concurrency: 1 });
    await runAndCancel(db, id, { trialThreads: 1, afterDone: 3, pollMs: 5 });
    const reasons = skipReasons(db, id);
    expect(reasons.find((r) => r.error === "cancelled while running")?.n ?? 0).toBeLessThanOrEqual(1);
    expect(reasons.find((r) => r.error === "cancelled before it ran")!.n).toBeGreaterThan(60);
  }, 60_000);

  it("cancels: trials waiting in the threads are skipped, finished ones stay, nothing is left running", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 200, concurrency: 4 });
    const bench = await runAndCancel(db, id, { trialThreads: 2, afterDone: 12, pollMs: 20 });
    expect(bench.status).toBe("cancelled");
    const rows = trials(db, id);
    const count = (s: string) => rows.filter((r) => r.status === s).length;
    expect(rows).toHaveLength(400);
    expect(count("done")).toBeGreaterThanOrEqual(12);
    expect(count("skipped")).toBeGreaterThan(300);
    expect(count("done") + count("skipped") + count("error")).toBe(400);
    expect(rows.every((r) => r.attempts <= 1)).toBe(true);
    // Only a trial that was running says so; those waiting in a thread's queue never ran.
    const reasons = skipReasons(db, id);
    const whileRunning = reasons.find((r) => r.error === "cancelled while running")?.n ?? 0;
    expect(whileRunning).toBeLessThanOrEqual(4);
    expect(reasons.find((r) => r.error === "cancelled before it ran")!.n).toBe(count("skipped") - whileRunning);
  }, 60_000);

  it("runs custom JavaScript evaluators from a trial thread (the QuickJS sandbox starts next to the bundled code)", async () => {
    const { db, promptId, model } = await fileDb();
    const code = `function evaluate({ output }) { return { passed: output.includes("Scripted"), score: 1, message: "custom saw: " + output }; }`;
    await addCases(db, [{ systemId: "s", promptId, caseKey: "c", source: "custom", content: { ...emptyCaseContent(), input: "question c", expected: "Scripted", evaluators: [{ kind: "custom", code }] } }]);
    const { id } = await launch(db, promptId, model, { repeats: 1, concurrency: 2 });
    const worker = startBenchWorker(db, { env: {}, pollMs: 20, trialThreads: 1 });
    const bench = await waitEnded(db, id);
    await worker.stop(1000);
    expect(bench.status).toBe("finished");
    const row = db.$client.prepare("SELECT t.checks FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id WHERE t.bench_id = ? AND bc.case_key = 'c'").get(id) as { checks: string };
    expect(JSON.parse(row.checks)).toEqual([expect.objectContaining({ kind: "custom", verdict: "passed", message: "custom saw: Scripted answer" })]);
  }, 60_000);

  it("a thread that dies: its trials run once more on a new thread; a second death ends them as errors", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 20, concurrency: 8 });
    const claimed = db.$client
      .prepare("SELECT t.id, t.bench_id AS benchId, t.candidate_id AS candidateId, t.bench_case_id AS benchCaseId, bc.case_revision_id AS caseRevisionId, t.repeat, t.attempts FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id WHERE t.bench_id = ?")
      .all(id) as ClaimedTrial[];
    const pool = new TrialThreadPool({ size: 1, dbPath: db.$client.name, env: {} });
    // White-box: the thread of slot 0, stopped as a crash would stop it.
    const killThread = async () => {
      const slot = (pool as unknown as { slots: ({ worker: Promise<{ terminate(): Promise<number> }> } | null)[] }).slots[0]!;
      await (await slot.worker).terminate();
    };
    const limits = { concurrency: 8, providerKey: null, provider: Infinity };
    const signal = new AbortController().signal;
    let finished = 0;
    const runs = claimed.map((t) => pool.run(id, t, signal, limits).then((o) => (finished++, o)));
    while (finished < 5) await new Promise((r) => setTimeout(r, 5));
    await killThread();
    const outcomes = await Promise.all(runs);
    expect(outcomes).toHaveLength(40);
    expect(outcomes.filter((o) => o.status === "done" && o.output === "Scripted answer")).toHaveLength(40);

    // Twice in a row: the trials of the first death that die again end as errors, named.
    const again = claimed.slice(0, 8).map((t) => pool.run(id, t, signal, limits));
    await new Promise((r) => setTimeout(r, 5));
    await killThread();
    await new Promise((r) => setTimeout(r, 50));
    await killThread();
    const second = await Promise.all(again);
    const errors = second.filter((o) => o.status === "error");
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0].error).toMatch(/the trial thread stopped \(exit code 1\) while running this trial, for the second time/);
    expect(second.every((o) => o.status === "done" || o.status === "error")).toBe(true);
    await pool.close();
  }, 60_000);
});
