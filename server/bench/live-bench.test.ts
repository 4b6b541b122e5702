import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, openMemoryDatabase, migrateDatabase, type Db } from "@/db/client";
import { addCases } from "@/db/queries/cases";
import { addCriterion } from "@/db/queries/criteria";
import { createModelConfig, deleteModelConfig, getModelConfig } from "@/db/queries/models";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { getBench, getBenchProgress } from "@/db/queries/benches";
import { emptyCaseContent } from "@/lib/library/case-content";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";
import { launchFromRequest } from "./prepare";
import { startBenchWorker } from "../worker";

let server: ScriptedModelServer;

beforeAll(async () => {
  server = await startScriptedModelServer({
    models: ["scripted-1"],
    script: [
      { name: "judge", when: { systemIncludes: "You are an impartial evaluator" }, reply: { text: '{"reason": "It is polite.", "verdict": "pass"}' } },
      { name: "rate-limited-once", when: { userText: "rate limit me once" }, fault: { status: 429, retryAfterMs: 10 }, times: 1 },
      { name: "rate-limited-then-ok", when: { userText: "rate limit me once" }, reply: { text: "fine after a retry" } },
      { name: "down", when: { userText: "server down" }, fault: { status: 503, message: "upstream unavailable" } },
      { name: "malformed", when: { userText: "malformed please" }, malformed: true },
      // Never answers within a test: the trial can only end by its timeout.
      { name: "slow", when: { userText: "be slow" }, delayMs: 600_000, reply: { text: "too late" } },
      {
        name: "lookup",
        when: { userText: "Where is order_123?", hasToolResult: false },
        reply: { toolCalls: [{ name: "get_order", arguments: { orderId: "order_123" } }] },
      },
      { name: "answer", when: { userText: "Where is order_123?", hasToolResult: true }, reply: { text: "Delivered." } },
    ],
  });
});
afterAll(async () => server.close());

/** The shop system, its agent prompt, its cases (all, or the keys in `only`) and two model configurations. */
async function setup(db: Db, only?: string[]) {
  await createSystem(db, { id: "shop", name: "Shop" });
  const promptId = await createPrompt(db, {
    systemId: "shop",
    name: "agent",
    systemPrompt: "You help customers of {{shop}}.",
    tools: [
      {
        name: "get_order",
        description: "Look up an order",
        inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
        fixtures: { byArguments: [{ when: { orderId: "order_123" }, result: { status: "delivered" } }] },
      },
    ],
  });
  const c = (key: string, input: string, expected: string, more: object = {}) => ({
    systemId: "shop",
    promptId,
    caseKey: key,
    source: "custom" as const,
    content: { ...emptyCaseContent(), input, expected, variables: [{ name: "shop", value: "Northwind" }], evaluators: [{ kind: "contains" }], ...more },
  });
  const cases = [
    c("tool", "Where is order_123?", "Delivered", {
      evaluators: [
        { kind: "contains" },
        { kind: "tool_call_syntax", alternatives: [{ calls: [{ toolName: "get_order", arguments: { orderId: { acceptedValues: ["order_123"] } } }] }] },
      ],
    }),
    c("retry", "rate limit me once", "fine"),
    c("down", "server down", "x"),
    c("malformed", "malformed please", "x"),
    c("slow", "be slow", "x"),
    c("history", "Next question", "Scripted", {
      history: [
        { role: "user", content: "hi" },
        { role: "tool", content: "{}", replayable: false },
      ],
    }),
    c("plain", "Say something", "Scripted"), // one call, the default reply
  ];
  await addCases(db, only ? cases.filter((x) => only.includes(x.caseKey)) : cases);
  await addCriterion(db, { systemId: "shop", promptId, fields: { rule: "Polite", passes: "polite", fails: "rude", priority: "secondary" } });
  const model = await createModelConfig(db, { name: "scripted", provider: "openai-compatible", modelId: "scripted-1", baseUrl: server.url });
  const unknown = await createModelConfig(db, { name: "unknown model", provider: "openai-compatible", modelId: "no-such-model", baseUrl: server.url });
  return { promptId, model, unknown };
}

/** Waits until bench `id` has ended (looking every 20 ms; the test's timeout bounds the wait). */
async function waitEnded(db: Db, id: number) {
  for (;;) {
    const b = await getBench(db, id);
    if (b && b.status !== "queued" && b.status !== "running") return b;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const request = (promptId: number, candidates: { kind: "model"; modelConfigId: number }[], o: Record<string, unknown> = {}) => ({
  systemId: "shop",
  promptId,
  candidates,
  baseline: { kind: "none" as const },
  selection: { kind: "all" as const },
  budget: null,
  repeats: 1,
  concurrency: 8,
  // Ample: a trial that should succeed never meets it on a busy machine (the timeout test sets its own).
  timeoutSeconds: 60,
  maxSteps: 5,
  judgeModelConfigId: null,
  launchKey: `k-${Math.random()}`,
  ...o,
});

describe("a live bench over HTTP (scripted OpenAI-compatible server)", () => {
  it("records tool calls, retries a rate limit, and ends provider faults as errors with the provider's message", async () => {
    const db = openMemoryDatabase();
    const { promptId, model, unknown } = await setup(db, ["tool", "retry", "down", "malformed", "history"]);
    const judge = await createModelConfig(db, {
      name: "priced judge",
      provider: "openai-compatible",
      modelId: "scripted-1",
      baseUrl: (await getModelConfig(db, model))!.baseUrl,
      inputPricePerMTok: 3,
      outputPricePerMTok: 15,
    });
    const { id, plan } = await launchFromRequest(
      db,
      request(
        promptId,
        [
          { kind: "model", modelConfigId: model },
          { kind: "model", modelConfigId: unknown },
        ],
        { judgeModelConfigId: judge },
      ),
    );
    // The prompt exposes a tool: each of the 10 trials (5 cases × 2 candidates) may make up to 5 calls (the step limit).
    expect([plan.modelCalls, plan.modelCallsUpperBound]).toEqual([50, true]);
    // A queued bench pins its model configurations: deleting one is refused.
    await expect(deleteModelConfig(db, model)).rejects.toThrow(/used by a bench that has not finished/);
    const worker = startBenchWorker(db, { env: {}, pollMs: 20, retryBaseDelayMs: 5 });
    const bench = await waitEnded(db, id);
    await worker.stop(1000);
    expect(bench.status).toBe("finished");
    const rows = db.$client
      .prepare(
        "SELECT bc.case_key AS k, c.label AS cand, t.status, t.error, t.output, t.record, t.checks, t.attempts FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id JOIN bench_candidates c ON c.id = t.candidate_id ORDER BY c.position, bc.position",
      )
      .all() as { k: string; cand: string; status: string; error: string | null; output: string | null; record: string | null; checks: string | null }[];
    const mine = (k: string) => rows.find((r) => r.k === k && r.cand.startsWith("scripted "))!;
    expect(mine("tool").status).toBe("done");
    expect(mine("tool").output).toBe("Delivered.");
    const rec = JSON.parse(mine("tool").record!);
    expect(rec.toolCalls.map((c: { toolName: string; input: unknown; rawInput?: string }) => [c.toolName, c.input, c.rawInput])).toEqual([
      ["get_order", { orderId: "order_123" }, '{"orderId":"order_123"}'],
    ]);
    expect(rec.toolResults[0].output).toEqual({ status: "delivered" });
    expect(JSON.parse(mine("tool").checks!).map((c: { kind: string; verdict: string }) => [c.kind, c.verdict])).toEqual([
      ["contains", "passed"],
      ["tool_call_syntax", "passed"],
      ["judge", "passed"],
    ]);
    // The judge's tokens and cost (its model has prices) are on its check, apart from the candidate's.
    const judged = JSON.parse(mine("tool").checks!).find((c: { kind: string }) => c.kind === "judge");
    expect(judged.usage.inputTokens).toBeGreaterThan(0);
    expect(judged.usage.costUsd).toBeCloseTo((judged.usage.inputTokens * 3 + judged.usage.outputTokens * 15) / 1e6, 12);
    const scriptedStats = bench.summary!.candidates[0].stats;
    expect(scriptedStats.judge!.checks).toBeGreaterThan(0);
    expect(scriptedStats.judge!.costUsd).toBeGreaterThan(0);
    expect(mine("retry")).toMatchObject({ status: "done", output: "fine after a retry" });
    expect(mine("down").status).toBe("error");
    expect(mine("down").error).toMatch(/HTTP 503/);
    expect(mine("down").error).toMatch(/upstream unavailable/);
    expect(mine("malformed").status).toBe("error");
    expect(mine("malformed").error).toMatch(/^bad_response/);
    // A malformed reply is retried like a 5xx: the trial made every attempt before it gave up.
    expect(JSON.parse(mine("malformed").record!).attempts).toBe(4);
    expect(JSON.parse(mine("down").record!).attempts).toBe(4);
    // unreplayable history: run, but every check unscored with the reason
    expect(mine("history").status).toBe("done");
    expect(
      JSON.parse(mine("history").checks!).every((c: { verdict: string; message: string }) => c.verdict === "unscored" && /cannot be replayed/.test(c.message)),
    ).toBe(true);
    // the unknown model: every trial errors with the provider's message
    const unknownRows = rows.filter((r) => r.cand.startsWith("unknown model"));
    expect(unknownRows.every((r) => r.status === "error" && /not_found|404/.test(r.error ?? ""))).toBe(true);
    // counts show it, and errors are not failures
    const stats = bench.summary!.candidates.find((c) => c.candidateId === bench.candidates[1].id)!.stats;
    expect(stats.trials).toMatchObject({ total: 5, error: 5 });
    expect(stats.checks.failed).toBe(0);
    await deleteModelConfig(db, model); // allowed once the bench finished
  }, 60_000);

  it("ends a trial whose model does not answer within the bench's timeout as a timeout error", async () => {
    const db = openMemoryDatabase();
    const { promptId, model } = await setup(db, ["slow"]);
    const { id } = await launchFromRequest(db, request(promptId, [{ kind: "model", modelConfigId: model }], { timeoutSeconds: 1 }));
    const worker = startBenchWorker(db, { env: {}, pollMs: 20, retryBaseDelayMs: 5 });
    const bench = await waitEnded(db, id);
    await worker.stop(1000);
    expect(bench.status).toBe("finished");
    const row = db.$client.prepare("SELECT status, error FROM trials WHERE bench_id = ?").get(id) as { status: string; error: string };
    expect(row.status).toBe("error");
    expect(row.error).toMatch(/^timeout/);
  }, 60_000);

  it("resumes after the worker process is killed: every trial ends with exactly one result", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "benchwork-kill-"));
    const file = path.join(dir, "kill.db");
    const db = openDatabase(file);
    migrateDatabase(db);
    const { promptId, model } = await setup(db, ["plain"]);
    // 72 trials of one model call each, 2 at a time. The model answers 20 calls, then holds the next
    // ones, so the worker is killed with exactly 20 results written and trials still running,
    // however fast or slow the machine.
    server.hold({ answerFirst: 20 });
    const start = server.requests.count;
    const { id } = await launchFromRequest(db, request(promptId, [{ kind: "model", modelConfigId: model }], { repeats: 72, concurrency: 2 }));
    // A short claim lease: the killed worker's trials go back to the queue 3 s after its last heartbeat.
    const env = { ...process.env, BENCHWORK_DB: file, BENCHWORK_WORKER: "on", BENCHWORK_WORKER_LEASE_MS: "3000" };
    const first = spawn(process.execPath, ["--import", "tsx", "server/worker-main.ts"], { env, stdio: "ignore" });
    await server.requests.until((n) => n === start + 22); // 20 answered, 2 held
    for (;;) {
      const p = (await getBenchProgress(db, id))!;
      if (p.done + p.error === 20) break; // the 20 answered trials' results are written
      await new Promise((r) => setTimeout(r, 20));
    }
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    server.release(); // the held answers go to the dead worker's closed connections
    const before = db.$client.prepare("SELECT id, finished_at AS f FROM trials WHERE bench_id = ? AND status IN ('done', 'error')").all(id) as {
      id: number;
      f: number;
    }[];
    const held = db.$client.prepare("SELECT id, attempts FROM trials WHERE bench_id = ? AND status = 'running'").all(id) as { id: number; attempts: number }[];
    expect(before).toHaveLength(20);
    expect(held.length).toBeGreaterThanOrEqual(2); // the killed worker held trials (2 running, maybe more claimed)
    const second = spawn(process.execPath, ["--import", "tsx", "server/worker-main.ts"], { env, stdio: "ignore" });
    const bench = await waitEnded(db, id);
    second.kill("SIGKILL");
    expect(bench.status).toBe("finished");
    const all = db.$client.prepare("SELECT id, status, finished_at AS f, attempts FROM trials WHERE bench_id = ?").all(id) as {
      id: number;
      status: string;
      f: number;
      attempts: number;
    }[];
    expect(all).toHaveLength(72);
    expect(all.every((t) => t.status === "done" || t.status === "error")).toBe(true);
    // results written before the kill were not run again or overwritten
    const after = new Map(all.map((t) => [t.id, t]));
    for (const b of before) {
      expect(after.get(b.id)!.f).toBe(b.f);
      expect(after.get(b.id)!.attempts).toBe(1);
    }
    // the trials the dead worker held ran again, each starting its model call once more (an attempt
    // counts a started model call, not a claim: those it held without starting had 0)
    for (const h of held) expect(after.get(h.id)!.attempts).toBe(h.attempts + 1);
    expect(all.every((t) => t.attempts >= 1)).toBe(true);
  }, 90_000);
});
