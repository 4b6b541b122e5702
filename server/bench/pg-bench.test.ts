/**
 * Benches on PostgreSQL end to end (issue 20): launched through the app's launch path (trials and
 * their pg-boss jobs in one transaction), run by the job worker against the scripted
 * OpenAI-compatible server over real HTTP, finalized with their results. The same bench on SQLite
 * (its own worker) gives the same verdicts. Also: cancel mid-bench, a spend cap, an error rerun.
 */
import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { openMemoryDatabase } from "@/db/client";
import { describePg } from "@/db/pg/test-support/database";
import { addCases } from "@/db/queries/cases";
import { createModelConfig } from "@/db/queries/models";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { getBench, requestCancel } from "@/db/queries/benches";
import { benches, trials, benchCases, benchCandidates } from "@/db/schema";
import { and, asc, eq } from "drizzle-orm";
import { emptyCaseContent } from "@/lib/library/case-content";
import { startScriptedModelServer, type ScriptedModelServer, type ScriptRule } from "@/e2e/fixtures/scripted-model-server";
import { launchFromRequest } from "./prepare";
import { planConfirm, startRerun } from "./reruns";
import { pgBenchStore } from "./test-support/pg-bench-store";
import { startBenchWorker } from "../worker";
import { startJobWorker, type JobWorkerHandle } from "../job-worker";

const SCRIPT: ScriptRule[] = [
  { name: "judge", when: { systemIncludes: "You are an impartial evaluator" }, reply: { text: '{"reason": "It is polite.", "verdict": "pass"}' } },
  { name: "rate-limited-once", when: { userText: "rate limit me once" }, fault: { status: 429, retryAfterMs: 10 }, times: 1 },
  { name: "rate-limited-then-ok", when: { userText: "rate limit me once" }, reply: { text: "fine after a retry" } },
  { name: "down", when: { userText: "server down" }, fault: { status: 503, message: "upstream unavailable" } },
  // Answers only when the test releases it (or never, for a cancel).
  { name: "slow", when: { userText: "be slow" }, delayMs: 600_000, reply: { text: "too late" } },
  {
    name: "lookup",
    when: { userText: "Where is order_123?", hasToolResult: false },
    reply: { toolCalls: [{ name: "get_order", arguments: { orderId: "order_123" } }] },
  },
  { name: "answer", when: { userText: "Where is order_123?", hasToolResult: true }, reply: { text: "Delivered." } },
  { name: "wrong", when: { userText: "What is 2+2?" }, reply: { text: "Five." } },
  // $200 a call at $1,000 per million tokens each way.
  { name: "pricey", when: { userText: "pricey" }, reply: { text: "ok", usage: { promptTokens: 100_000, completionTokens: 100_000 } } },
];

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer({ models: ["scripted-1"], script: SCRIPT });
});
afterAll(async () => server.close());

let systems = 0;
/** A system with an agent prompt and the cases named by key, and a priced model on the scripted server. */
async function setup(db: Db, keys: string[]) {
  const systemId = `shop-${++systems}`;
  await createSystem(db, { id: systemId, name: "Shop" });
  const promptId = await createPrompt(db, {
    systemId,
    name: "agent",
    systemPrompt: "You help customers.",
    tools: [
      {
        name: "get_order",
        description: "Look up an order",
        inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
        fixtures: { byArguments: [{ when: { orderId: "order_123" }, result: { status: "delivered" } }] },
      },
    ],
  });
  const all: Record<string, [string, string]> = {
    tool: ["Where is order_123?", "Delivered"],
    retry: ["rate limit me once", "fine"],
    down: ["server down", "x"],
    plain: ["Say something", "Scripted"],
    wrong: ["What is 2+2?", "Four"],
  };
  const inputOf = (key: string): [string, string] => all[key] ?? (key.startsWith("cap") ? ["pricey", "ok"] : ["be slow", "x"]);
  const cases = keys.flatMap((key) => {
    const [input, expected] = inputOf(key);
    return [
      { systemId, promptId, caseKey: key, source: "custom" as const, content: { ...emptyCaseContent(), input, expected, evaluators: [{ kind: "contains" }] } },
    ];
  });
  await addCases(db, cases);
  const model = await createModelConfig(db, {
    name: `scripted ${systemId}`,
    provider: "openai-compatible",
    modelId: "scripted-1",
    baseUrl: server.url,
    inputPricePerMTok: 1000,
    outputPricePerMTok: 1000,
  });
  return { systemId, promptId, model };
}

const request = (s: { systemId: string; promptId: number; model: number }, o: Record<string, unknown> = {}) => ({
  systemId: s.systemId,
  promptId: s.promptId,
  candidates: [{ kind: "model" as const, modelConfigId: s.model }],
  baseline: { kind: "none" as const },
  selection: { kind: "all" as const },
  budget: null,
  repeats: 1,
  concurrency: 8,
  timeoutSeconds: 60,
  maxSteps: 5,
  judgeModelConfigId: null,
  launchKey: `k-${Math.random()}`,
  ...o,
});

/** Waits until bench `id` has ended (the test's timeout bounds the wait). */
async function waitEnded(db: Db, id: number) {
  for (;;) {
    const b = await getBench(db, id);
    if (b && b.status !== "queued" && b.status !== "running") return b;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Waits until bench `id` has no lane left (its worker retires an ended bench's pg-boss queues in the
 * background; the test's timeout bounds the wait). @returns pg-boss's queues still named after it
 */
async function waitLanesRetired(url: string, id: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const lanes = await client.query("SELECT 1 FROM queue_lanes WHERE bench_id = $1", [id]);
      if (lanes.rowCount === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    return (await client.query<{ name: string }>("SELECT name FROM pgboss.queue WHERE name LIKE $1", [`bw-trials-${id}-%`])).rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

/** Each trial of a bench as `case/candidate position: status verdicts`, in case order. */
async function verdicts(db: Db, benchId: number): Promise<string[]> {
  const rows = await db
    .select({ key: benchCases.caseKey, pos: benchCandidates.position, status: trials.status, checks: trials.checks, error: trials.error })
    .from(trials)
    .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
    .innerJoin(benchCandidates, eq(benchCandidates.id, trials.candidateId))
    .where(eq(trials.benchId, benchId))
    .orderBy(asc(benchCases.position), asc(benchCandidates.position), asc(trials.id));
  return rows.map((r) => {
    const checks = (r.checks ? JSON.parse(r.checks) : []) as { kind: string; verdict: string }[];
    return `${r.key}/${r.pos}: ${r.status} ${checks.map((c) => `${c.kind}=${c.verdict}`).join(",")}`;
  });
}

describePg("benches on PostgreSQL (job worker, pg-boss)", () => {
  const store = pgBenchStore(6);
  let db: Db;
  beforeAll(() => {
    db = store.db();
  });

  /** A job worker with one trial thread (as on two cores) unless `o.trialThreads` says otherwise (0: trials on its own thread). */
  async function withWorker<T>(fn: (w: JobWorkerHandle) => Promise<T>, o: { slots?: number; trialThreads?: number } = {}): Promise<T> {
    const worker = await startJobWorker(db, { env: {}, pollMs: 20, retryBaseDelayMs: 5, slots: o.slots, trialThreads: o.trialThreads ?? 1 });
    try {
      return await fn(worker);
    } finally {
      await worker.stop(1000);
    }
  }

  // A trial thread reads its bench from PostgreSQL over its own connections; without threads the
  // worker's own thread runs the trials. Both end with the same verdicts.
  it.each([1, 0])(
    "runs a live bench to finished with one result per trial and the same verdicts as on SQLite (trial threads: %i)",
    async (trialThreads) => {
      const keys = ["tool", "retry", "down", "plain", "wrong"];
      const s = await setup(db, keys);
      const { id } = await launchFromRequest(db, request(s, { repeats: 2 }), { env: {} });
      const logged = vi.spyOn(console, "error");
      let said: string[] = [];
      let bossQueuesLeft: string[] = [];
      const bench = await withWorker(
        async () => {
          const ended = await waitEnded(db, id);
          bossQueuesLeft = await waitLanesRetired(store.url(), id);
          return ended;
        },
        { trialThreads },
      ).finally(() => {
        said = logged.mock.calls.map((c) => String(c[0])); // read before the restore, which clears them
        logged.mockRestore();
      });
      expect(said.filter((m) => m.includes("trial threads could not start"))).toEqual([]);
      expect(bench.status).toBe("finished");
      // Its lanes were retired once it ended: no pg-boss queue (a table each) is left behind.
      expect(bossQueuesLeft).toEqual([]);
      const onPg = await verdicts(db, id);
      expect(onPg).toHaveLength(10);
      expect(bench.summary!.candidates[0].stats.trials).toMatchObject({ total: 10, done: 8, error: 2, pending: 0 });

      const lite = openMemoryDatabase();
      const sl = await setup(lite, keys);
      const launched = await launchFromRequest(lite, request(sl, { repeats: 2 }), { env: {} });
      const worker = startBenchWorker(lite, { env: {}, pollMs: 20, retryBaseDelayMs: 5, trialThreads: 0 });
      const onSqlite = await waitEnded(lite, launched.id);
      await worker.stop(1000);
      expect(onSqlite.status).toBe("finished");
      expect(onPg).toEqual(await verdicts(lite, launched.id));
      expect(onPg).toContain("tool/0: done contains=passed");
      expect(onPg).toContain("wrong/0: done contains=failed");
      expect(onPg).toContain("down/0: error ");
    },
    60_000,
  );

  it.each([1, 0])(
    "cancels mid-bench: running trials are aborted, unrun ones skipped, the bench ends cancelled (trial threads: %i)",
    async (trialThreads) => {
      const s = await setup(db, ["s1", "s2", "s3", "s4", "s5"]);
      const before = server.requests.count;
      const { id } = await launchFromRequest(db, request(s, { concurrency: 2 }), { env: {} });
      const bench = await withWorker(
        async () => {
          // Two calls in flight (the bench's concurrency), none of which will ever be answered.
          await server.requests.until((n) => n >= before + 2);
          await requestCancel(db, id);
          return waitEnded(db, id);
        },
        { trialThreads },
      );
      expect(bench.status).toBe("cancelled");
      const rows = await db.select({ status: trials.status, error: trials.error }).from(trials).where(eq(trials.benchId, id)).orderBy(trials.id);
      expect(rows.map((r) => `${r.status}: ${r.error}`).sort()).toEqual([
        "skipped: cancelled before it ran",
        "skipped: cancelled before it ran",
        "skipped: cancelled before it ran",
        "skipped: cancelled while running",
        "skipped: cancelled while running",
      ]);
      expect(server.requests.count - before).toBe(2);
    },
    60_000,
  );

  it("stops at the spend cap: what was spent never passes it, the rest is skipped for the budget", async () => {
    const s = await setup(db, ["cap1", "cap2", "cap3", "cap4", "cap5", "cap6"]);
    // Each trial really costs $200: after two ($400), a third would pass the $450 cap.
    const { id } = await launchFromRequest(db, request(s, { concurrency: 1, spendCapUsd: 450 }), { env: {} });
    const bench = await withWorker(() => waitEnded(db, id));
    expect(bench.status).toBe("finished");
    const rows = await db
      .select({ status: trials.status, error: trials.error, cost: trials.costUsd })
      .from(trials)
      .where(eq(trials.benchId, id))
      .orderBy(trials.id);
    expect(rows.filter((r) => r.status === "done").map((r) => r.cost)).toEqual([200, 200]);
    const skipped = rows.filter((r) => r.status === "skipped");
    expect(skipped).toHaveLength(4);
    expect(skipped.every((r) => r.error === "budget: the spend cap of $450.00 would be passed ($400.00 spent)")).toBe(true);
    const spent = await db.select({ usd: benches.spentUsd, n: benches.spentTrials }).from(benches).where(eq(benches.id, id));
    expect(spent).toEqual([{ usd: 400, n: 2 }]);
  }, 60_000);

  it("runs a confirm rerun: the added trials are enqueued with the rerun and the bench is finalized again", async () => {
    const RIGHT = { text: "right" };
    const WRONG = { text: "wrong" };
    const flaky = await startScriptedModelServer({
      defaultReply: RIGHT,
      script: [{ name: "flaky", when: { userText: "flaky question", model: "cand-model" }, replies: [RIGHT, WRONG, RIGHT, RIGHT, RIGHT, RIGHT] }],
    });
    try {
      const systemId = `confirm-${++systems}`;
      await createSystem(db, { id: systemId, name: "Confirm" });
      const promptId = await createPrompt(db, { systemId, name: "agent", systemPrompt: "Answer with one word." });
      await addCases(
        db,
        ["flaky", "steady"].map((k) => ({
          systemId,
          promptId,
          caseKey: k,
          source: "custom" as const,
          content: { ...emptyCaseContent(), input: `${k} question`, expected: "right", evaluators: [{ kind: "exact" }] },
        })),
      );
      // Priced 10× apart: the confirm plan's cost is what this bench measured per candidate and case (issue #16 §3).
      const price = (p: number) => ({ inputPricePerMTok: p, outputPricePerMTok: p });
      const base = await createModelConfig(db, {
        name: `base ${systemId}`,
        provider: "openai-compatible",
        modelId: "base-model",
        baseUrl: flaky.url,
        ...price(10),
      });
      const cand = await createModelConfig(db, {
        name: `cand ${systemId}`,
        provider: "openai-compatible",
        modelId: "cand-model",
        baseUrl: flaky.url,
        ...price(100),
      });
      const { id } = await launchFromRequest(
        db,
        {
          ...request({ systemId, promptId, model: base }),
          candidates: [
            { kind: "model", modelConfigId: base },
            { kind: "model", modelConfigId: cand },
          ],
          baseline: { kind: "candidate", index: 0 },
          repeats: 3,
          concurrency: 2,
          maxSteps: 1,
        },
        { env: {} },
      );
      await withWorker(async () => {
        const bench = await waitEnded(db, id);
        expect(bench.status).toBe("finished");
        expect(bench.recommendation!.candidates.find((c) => c.label.startsWith("cand"))!.blockers.map((b) => b.caseKey)).toEqual(["flaky"]);
      });
      // Each confirm trial at what its candidate's `flaky` trials cost (no judge: their model calls).
      const flakyUsd = await db
        .select({ cost: trials.costUsd, pos: benchCandidates.position })
        .from(trials)
        .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
        .innerJoin(benchCandidates, eq(benchCandidates.id, trials.candidateId))
        .where(and(eq(trials.benchId, id), eq(benchCases.caseKey, "flaky")));
      const measured = flakyUsd.reduce((a, r) => a + (r.cost ?? 0), 0);
      expect(flakyUsd.filter((r) => r.pos === 1).reduce((a, r) => a + (r.cost ?? 0), 0)).toBeGreaterThan(
        5 * flakyUsd.filter((r) => r.pos === 0).reduce((a, r) => a + (r.cost ?? 0), 0),
      );
      const planned = await planConfirm(db, id);
      expect(planned.estimate.costFrom).toEqual({ caseTrials: 6, candidateTrials: 0, plannedTrials: 0 });
      expect(planned.estimate.costUsd).toBeCloseTo(measured, 12);
      // Issue #16: a rerun cancelled before it ran cancels only its trials; the bench ends finished, as before.
      const headline = (await getBench(db, id))!.recommendation!.headline;
      await startRerun(db, id, "confirm", null, {});
      await requestCancel(db, id);
      await withWorker(async () => {
        const bench = await waitEnded(db, id);
        expect(bench.status).toBe("finished");
        expect(bench.recommendation!.headline).toBe(headline);
      });
      const cancelled = await db.select({ status: trials.status, error: trials.error }).from(trials).where(eq(trials.rerun, "confirm"));
      expect(cancelled.map((r) => r.status)).toEqual(Array(6).fill("skipped"));
      // Confirm again: its trials are claimed (the cancelled rerun's mark on the queue was cleared) and run.
      await withWorker(async () => {
        let bench = (await getBench(db, id))!;
        const before = flaky.requests.count;
        const plan = await startRerun(db, id, "confirm", null, {});
        expect(plan.trials).toHaveLength(6);
        bench = await waitEnded(db, id);
        expect(bench.status).toBe("finished");
        expect(flaky.requests.count - before).toBe(6);
        // The flake did not reproduce: nothing blocks the candidate any more.
        expect(bench.recommendation!.candidates.find((c) => c.label.startsWith("cand"))!.blockers).toEqual([]);
      });
      const rows = await db.select({ status: trials.status, rerun: trials.rerun }).from(trials).where(eq(trials.benchId, id));
      expect(rows.filter((r) => r.rerun === "confirm" && r.status === "done")).toHaveLength(6);
      expect(rows).toHaveLength(24);
    } finally {
      await flaky.close();
    }
  }, 60_000);
  it("idle, asks PostgreSQL nothing between its rare looks, and a launch from another connection wakes it at once (LISTEN/NOTIFY)", async () => {
    const s = await setup(db, ["plain"]);
    // Polls every 5 ms while a bench is open; idle, it would look only every 10 minutes.
    const worker = await startJobWorker(db, { env: {}, pollMs: 5, idlePollMs: 600_000, retryBaseDelayMs: 5, trialThreads: 1 });
    const sent = vi.spyOn(pg.Client.prototype, "query");
    try {
      // Every bench of this store has ended: once its first look found none, the worker goes quiet.
      // (Polling at 5 ms it would send statements in every 200 ms window; the test's timeout bounds the wait.)
      for (;;) {
        sent.mockClear();
        await new Promise((r) => setTimeout(r, 200));
        if (sent.mock.calls.length === 0) break;
      }
      sent.mockRestore();
      const { id } = await launchFromRequest(db, request(s), { env: {} });
      const bench = await waitEnded(db, id);
      expect(bench.status).toBe("finished");
      expect(await verdicts(db, id)).toEqual(["plain/0: done contains=passed"]);
    } finally {
      sent.mockRestore();
      await worker.stop(1000);
    }
  }, 30_000);
});
