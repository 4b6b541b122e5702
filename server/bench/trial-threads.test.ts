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
import { getBench, requestCancel } from "@/db/queries/benches";
import { emptyCaseContent } from "@/lib/library/case-content";
import { launchFromRequest } from "./prepare";
import { startBenchWorker } from "../worker";
import { TrialThreadPool } from "./trial-pool";
import { providerKeyOf } from "./provider-key";
import type { ClaimedTrial } from "@/lib/bench/queue";

/**
 * An OpenAI-compatible chat endpoint that counts requests in flight. It answers the first
 * `answerFirst` requests after a short latency and holds the rest until `release()`: a test waits for
 * a state of the calls (`until`), not for time to pass.
 */
let server: http.Server;
let url = "";
const latencyMs = 25;

/** The calls since the last `resetCalls()`; a request counts in the round it arrived in. */
interface Round {
  received: number;
  inFlight: number;
  maxInFlight: number;
  served: number;
  /** Requests after this many wait for `release()`. */
  answerFirst: number;
  gate: Promise<void>;
  open: () => void;
}
function newRound(answerFirst: number): Round {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  return { received: 0, inFlight: 0, maxInFlight: 0, served: 0, answerFirst, gate, open };
}
let calls = newRound(Infinity);
const watchers = new Set<() => void>();
const changed = () => watchers.forEach((check) => check());

/** Starts a new round of counting; its requests after the first `o.answerFirst` (default all) wait for `release()`. */
function resetCalls(o: { answerFirst?: number } = {}) {
  calls.open(); // answers what an earlier round still holds (its counts no longer matter)
  calls = newRound(o.answerFirst ?? Infinity);
}

/** Answers the held requests and every later one of this round. */
function release() {
  calls.answerFirst = Infinity;
  calls.open();
}

/** Resolves once `cond` holds for the calls (checked now and after every request and answer). */
function until(cond: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!cond()) return;
      watchers.delete(check);
      resolve();
    };
    watchers.add(check);
    check();
  });
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", async () => {
      const round = calls;
      round.received++;
      round.inFlight++;
      round.maxInFlight = Math.max(round.maxInFlight, round.inFlight);
      const held = round.received > round.answerFirst;
      changed();
      await (held ? round.gate : new Promise((r) => setTimeout(r, latencyMs)));
      round.inFlight--;
      round.served++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "c",
          object: "chat.completion",
          created: 1,
          model: "m",
          choices: [{ index: 0, message: { role: "assistant", content: "Scripted answer" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        }),
      );
      changed();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  release();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function fileDb(): Promise<{ db: Db; promptId: number; model: number }> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "benchwork-threads-")), "b.db");
  const db = openDatabase(file);
  migrateDatabase(db);
  await createSystem(db, { id: "s", name: "S" });
  const promptId = await createPrompt(db, { systemId: "s", name: "p", systemPrompt: "Answer." });
  await addCases(
    db,
    ["a", "b"].map((k) => ({
      systemId: "s",
      promptId,
      caseKey: k,
      source: "custom" as const,
      content: { ...emptyCaseContent(), input: `question ${k}`, expected: "Scripted", evaluators: [{ kind: "contains" }] },
    })),
  );
  const model = await createModelConfig(db, { name: "stub", provider: "openai-compatible", modelId: "m", baseUrl: url });
  return { db, promptId, model };
}

const launch = (
  db: Db,
  promptId: number,
  model: number,
  o: { repeats: number; concurrency: number; judgeModelConfigId?: number },
  env: Record<string, string | undefined> = {},
) =>
  launchFromRequest(
    db,
    {
      systemId: "s",
      promptId,
      candidates: [{ kind: "model", modelConfigId: model }],
      baseline: { kind: "none" },
      selection: { kind: "all" },
      budget: null,
      // Calls held by the test must not time out first, however slow the machine.
      timeoutSeconds: 60,
      maxSteps: 1,
      launchKey: `k-${Math.random()}`,
      ...o,
      judgeModelConfigId: o.judgeModelConfigId ?? null,
    },
    // The provider's limit is the launch's (it is enqueued with the bench's jobs).
    { env },
  );

/** Waits until bench `id` has ended (looking every 20 ms; the test's timeout bounds the wait). */
async function waitEnded(db: Db, id: number) {
  for (;;) {
    const b = await getBench(db, id);
    if (b && b.status !== "queued" && b.status !== "running") return b;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const trials = (db: Db, id: number) =>
  db.$client.prepare("SELECT status, attempts, output FROM trials WHERE bench_id = ?").all(id) as { status: string; attempts: number; output: string | null }[];

/**
 * Runs bench `id` on trial threads with the model answering only its first `answered` calls, cancels
 * the bench once `held` more calls wait at the model (so exactly `answered` trials are done and
 * `held` are running), and waits for it to end.
 */
async function runAndCancel(db: Db, id: number, o: { trialThreads: number; answered: number; held: number }) {
  resetCalls({ answerFirst: o.answered });
  const worker = startBenchWorker(db, { env: {}, pollMs: 20, trialThreads: o.trialThreads });
  await until(() => calls.served === o.answered && calls.inFlight === o.held);
  await requestCancel(db, id);
  worker.wake();
  const bench = await waitEnded(db, id);
  await worker.stop(1000);
  release();
  return bench;
}

/** Waits for bench `id` to end, stops `workers`, and checks each of its `n` trials ran once, to one model call. */
async function expectEachRanOnce(db: Db, id: number, workers: { stop(graceMs?: number): Promise<void> }[], n: number) {
  const bench = await waitEnded(db, id);
  await Promise.all(workers.map((w) => w.stop(1000)));
  expect(bench.status).toBe("finished");
  expect(trials(db, id).filter((r) => r.status === "done" && r.attempts === 1)).toHaveLength(n);
  expect(calls.served).toBe(n);
}

/** The reasons skipped trials of bench `id` give, with how many give each. */
const skipReasons = (db: Db, id: number) =>
  db.$client.prepare("SELECT error, count(*) AS n FROM trials WHERE bench_id = ? AND status = 'skipped' GROUP BY error").all(id) as {
    error: string;
    n: number;
  }[];

/** Bench `id`'s trials as the job worker hands them to the pool (its claimed rows). */
function claimedRows(db: Db, id: number): ClaimedTrial[] {
  return db.$client
    .prepare(
      "SELECT t.id, t.bench_id AS benchId, t.candidate_id AS candidateId, t.bench_case_id AS benchCaseId, bc.case_revision_id AS caseRevisionId, t.repeat, t.attempts FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id WHERE t.bench_id = ?",
    )
    .all(id) as ClaimedTrial[];
}

describe("a bench on trial threads", () => {
  it("keeps the bench's concurrency across threads, uses them all, and stores each trial once", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 30, concurrency: 3 });
    // The model holds every call until 3 are in flight: 3 = thread 1's share (2) + thread 2's share (1),
    // reached only when both threads run trials.
    resetCalls({ answerFirst: 0 });
    const worker = startBenchWorker(db, { env: { BENCHWORK_PROVIDER_CONCURRENCY: "64" }, pollMs: 20, trialThreads: 2 });
    await until(() => calls.inFlight === 3);
    release();
    const bench = await waitEnded(db, id);
    await worker.stop(1000);
    expect(bench.status).toBe("finished");
    const rows = trials(db, id);
    expect(rows).toHaveLength(60);
    expect(rows.every((r) => r.status === "done" && r.attempts === 1 && r.output === "Scripted answer")).toBe(true);
    expect(calls.served).toBe(60);
    // never more than the bound
    expect(calls.maxInFlight).toBe(3);
    expect(bench.summary!.candidates[0].stats.checks.passed).toBe(60);
  }, 60_000);

  it("keeps the bench's concurrency across worker processes sharing the database (1 means one at a time)", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 15, concurrency: 1 });
    resetCalls();
    const a = startBenchWorker(db, { env: {}, pollMs: 20, trialThreads: 1 });
    const b = startBenchWorker(db, { env: {}, pollMs: 20, trialThreads: 0 });
    await expectEachRanOnce(db, id, [a, b], 30);
    expect(calls.maxInFlight).toBe(1);
  }, 60_000);

  it("keeps the bench's concurrency when a worker joins a running bench: it waits until the running worker has lowered its share", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 100, concurrency: 2 });
    // The running worker looks at the shares seldom (1 s), the one joining often (20 ms): before
    // the fix the newcomer took its share at once and 3 calls ran while the first still ran 2.
    resetCalls({ answerFirst: 0 });
    const a = startBenchWorker(db, { env: {}, pollMs: 1000, trialThreads: 2 });
    await until(() => calls.inFlight === 2); // the first worker runs the bench at its full concurrency
    release();
    await until(() => calls.served >= 6);
    const b = startBenchWorker(db, { env: {}, pollMs: 20, trialThreads: 0 });
    await expectEachRanOnce(db, id, [a, b], 200);
    expect(calls.maxInFlight).toBe(2);
  }, 60_000);

  it("keeps the per-provider limit (shared by the threads) below a larger bench concurrency", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 15, concurrency: 8 }, { BENCHWORK_PROVIDER_CONCURRENCY: "2" });
    resetCalls();
    const worker = startBenchWorker(db, { env: {}, pollMs: 20, trialThreads: 2 });
    const bench = await waitEnded(db, id);
    await worker.stop(1000);
    expect(bench.status).toBe("finished");
    expect(trials(db, id).filter((r) => r.status === "done")).toHaveLength(30);
    expect(calls.maxInFlight).toBeLessThanOrEqual(2);
  }, 60_000);

  for (const trialThreads of [0, 2])
    // The queue's claim is the one bound (issue 20, as on PostgreSQL): a provider's limit counts
    // the trials claimed at once on its lane, and a trial makes one call at a time per provider
    // (in the worker's thread and in a trial thread), so its judge calls count within its claim.
    // Without any bound 8 trials × 3 judge calls = 24 ran.
    it(`holds the provider's limit on trials with a judge: 2 trials at once, each judging 3 criteria at once (${trialThreads ? "trial threads" : "the worker's own thread"})`, async () => {
      const { db, promptId, model } = await fileDb();
      // The judge is the same provider: each trial judges 3 criteria at once after its own call.
      for (const rule of ["Polite", "Brief", "On topic"])
        await addCriterion(db, { systemId: "s", promptId, fields: { rule, passes: "yes", fails: "no", priority: "secondary" } });
      const { id } = await launch(db, promptId, model, { repeats: 6, concurrency: 8, judgeModelConfigId: model }, { BENCHWORK_PROVIDER_CONCURRENCY: "2" });
      resetCalls();
      const worker = startBenchWorker(db, { env: {}, pollMs: 20, trialThreads });
      const bench = await waitEnded(db, id);
      await worker.stop(1000);
      expect(bench.status).toBe("finished");
      expect(calls.served).toBe(12 * 4);
      expect(calls.maxInFlight).toBeLessThanOrEqual(2);
    }, 60_000);

  it("a cancelled bench with concurrency 1 says 'cancelled while running' of the one running trial only: the ones handed ahead to a thread never ran", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 40, concurrency: 1 });
    await runAndCancel(db, id, { trialThreads: 1, answered: 3, held: 1 });
    const rows = trials(db, id);
    expect(rows.filter((r) => r.status === "done")).toHaveLength(3);
    expect(skipReasons(db, id).sort((a, b) => a.error.localeCompare(b.error))).toEqual([
      { error: "cancelled before it ran", n: 76 },
      { error: "cancelled while running", n: 1 },
    ]);
  }, 60_000);

  it("cancels: trials waiting in the threads are skipped, finished ones stay, nothing is left running", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 200, concurrency: 4 });
    const bench = await runAndCancel(db, id, { trialThreads: 2, answered: 12, held: 4 });
    expect(bench.status).toBe("cancelled");
    const rows = trials(db, id);
    const count = (s: string) => rows.filter((r) => r.status === s).length;
    expect(rows).toHaveLength(400);
    expect(count("done")).toBe(12);
    expect(count("skipped")).toBe(388);
    expect(rows.every((r) => r.attempts <= 1)).toBe(true);
    // Only the 4 trials that were running say so; those waiting in a thread's queue never ran.
    expect(skipReasons(db, id).sort((a, b) => a.error.localeCompare(b.error))).toEqual([
      { error: "cancelled before it ran", n: 384 },
      { error: "cancelled while running", n: 4 },
    ]);
  }, 60_000);

  it("runs custom JavaScript evaluators from a trial thread (the QuickJS sandbox starts next to the bundled code)", async () => {
    const { db, promptId, model } = await fileDb();
    const code = `function evaluate({ output }) { return { passed: output.includes("Scripted"), score: 1, message: "custom saw: " + output }; }`;
    await addCases(db, [
      {
        systemId: "s",
        promptId,
        caseKey: "c",
        source: "custom",
        content: { ...emptyCaseContent(), input: "question c", expected: "Scripted", evaluators: [{ kind: "custom", code }] },
      },
    ]);
    const { id } = await launch(db, promptId, model, { repeats: 1, concurrency: 2 });
    const worker = startBenchWorker(db, { env: {}, pollMs: 20, trialThreads: 1 });
    const bench = await waitEnded(db, id);
    await worker.stop(1000);
    expect(bench.status).toBe("finished");
    const row = db.$client
      .prepare("SELECT t.checks FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id WHERE t.bench_id = ? AND bc.case_key = 'c'")
      .get(id) as { checks: string };
    expect(JSON.parse(row.checks)).toEqual([expect.objectContaining({ kind: "custom", verdict: "passed", message: "custom saw: Scripted answer" })]);
  }, 60_000);

  it("a thread that dies: its trials run once more on a new thread; a second death ends them as errors", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 20, concurrency: 8 });
    const claimed = claimedRows(db, id);
    const pool = new TrialThreadPool({ size: 1, dbPath: db.$client.name, env: {} });
    // White-box: the thread of slot 0, stopped as a crash would stop it.
    const killThread = async () => {
      const slot = (pool as unknown as { slots: ({ worker: Promise<{ terminate(): Promise<number> }> } | null)[] }).slots[0]!;
      await (await slot.worker).terminate();
    };
    // As the worker hands them: the candidate's provider with a limit above the bench's concurrency
    // (a thread gives a provider it was not told of one call at a time).
    const providerKey = providerKeyOf((await getBench(db, id))!.candidates[0])!;
    const limits = { concurrency: 8, providerKey, provider: 32, providers: [{ key: providerKey, limit: 32 }] };
    const signal = new AbortController().signal;

    // The thread dies with 8 trials waiting at the model and 32 in its queue: all 40 run again.
    resetCalls({ answerFirst: 0 });
    const runs = claimed.map((t) => pool.run(id, t, signal, limits));
    await until(() => calls.received === 8);
    await killThread();
    release();
    const outcomes = await Promise.all(runs);
    expect(outcomes).toHaveLength(40);
    expect(outcomes.filter((o) => o.status === "done" && o.output === "Scripted answer")).toHaveLength(40);

    // Twice in a row: trials whose thread dies, and whose new thread dies too while they run there,
    // end as errors that say so (whatever exit code the dying thread reports).
    resetCalls({ answerFirst: 0 });
    const again = claimed.slice(0, 8).map((t) => pool.run(id, t, signal, limits));
    await until(() => calls.received === 8);
    await killThread();
    await until(() => calls.received === 16); // each ran again, on the new thread
    await killThread();
    const second = await Promise.all(again);
    expect(second.map((o) => o.status)).toEqual(Array(8).fill("error"));
    for (const o of second) expect(o.error).toMatch(/^worker: the trial thread stopped \(exit code \d+\) while running this trial, for the second time$/);
    release();
    await pool.close();
  }, 60_000);

  it("reports a trial's start only to a caller that listens: without a callback the thread sends no start ids", async () => {
    const { db, promptId, model } = await fileDb();
    const { id } = await launch(db, promptId, model, { repeats: 6, concurrency: 8 });
    const claimed = claimedRows(db, id);
    const pool = new TrialThreadPool({ size: 1, dbPath: db.$client.name, env: {} });
    await pool.prewarm();
    // White-box: every message of the thread, as the pool receives it.
    const startIds: number[] = [];
    const slot = (
      pool as unknown as { slots: ({ worker: Promise<{ on(e: "message", f: (m: { type: string; started?: number[] }) => void): void }> } | null)[] }
    ).slots[0]!;
    (await slot.worker).on("message", (m) => startIds.push(...(m.started ?? [])));
    const providerKey = providerKeyOf((await getBench(db, id))!.candidates[0])!;
    const limits = { concurrency: 8, providerKey, provider: 32, providers: [{ key: providerKey, limit: 32 }] };
    const signal = new AbortController().signal;
    resetCalls();

    // The job worker's way: no callback (the claim counted the delivery).
    const quiet = await Promise.all(claimed.slice(0, 3).map((t) => pool.run(id, t, signal, limits)));
    expect(quiet.map((o) => o.status)).toEqual(["done", "done", "done"]);
    expect(startIds).toEqual([]);

    // With a callback, each start is reported once, by trial id.
    const heard: number[] = [];
    const loud = claimed.slice(3, 6);
    await Promise.all(loud.map((t) => pool.run(id, t, signal, limits, () => heard.push(t.id))));
    expect(heard.sort()).toEqual(loud.map((t) => t.id).sort());
    expect(startIds.sort()).toEqual(loud.map((t) => t.id).sort());
    await pool.close();
  }, 60_000);
});
