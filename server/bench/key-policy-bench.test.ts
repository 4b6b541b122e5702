/**
 * Bench trials and judges apply the key policy (security review item 2): a stored configuration
 * whose key variable or host is refused makes no request, on the worker's own thread and on trial
 * threads; its trials end as errors that say why, and a refused judge leaves its checks unscored.
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
import { getBench } from "@/db/queries/benches";
import { emptyCaseContent } from "@/lib/library/case-content";
import { launchFromRequest } from "./prepare";
import { startBenchWorker } from "../worker";

/** A loopback chat endpoint; `hits` counts every request it received. */
async function chatServer() {
  const s = { hits: 0, url: "", server: http.createServer() };
  s.server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    s.hits++;
    req.resume();
    req.on("end", () =>
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: "c",
          object: "chat.completion",
          created: 1,
          model: "m",
          choices: [{ index: 0, message: { role: "assistant", content: "Scripted answer" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        }),
      ),
    );
  });
  await new Promise<void>((r) => s.server.listen(0, "127.0.0.1", r));
  s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}/v1`;
  return s;
}

let allowed: Awaited<ReturnType<typeof chatServer>>;
let attacker: Awaited<ReturnType<typeof chatServer>>;
beforeAll(async () => {
  allowed = await chatServer();
  attacker = await chatServer();
});
afterAll(() => {
  allowed.server.close();
  attacker.server.close();
});

async function setup() {
  const db = openDatabase(path.join(mkdtempSync(path.join(tmpdir(), "benchwork-keys-")), "b.db"));
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
  await addCriterion(db, { systemId: "s", promptId, fields: { rule: "Polite", passes: "polite", fails: "rude", priority: "secondary" } });
  // Stored directly, as a configuration saved before the policy existed would be.
  const ok = await createModelConfig(db, { name: "ok", provider: "openai-compatible", modelId: "m", baseUrl: allowed.url });
  const exfilVariable = await createModelConfig(db, {
    name: "exfil variable",
    provider: "openai-compatible",
    modelId: "m",
    baseUrl: attacker.url,
    apiKeyEnv: "BENCHWORK_DB",
  });
  const exfilHost = await createModelConfig(db, { name: "exfil host", provider: "openai", modelId: "gpt-4o-mini", baseUrl: attacker.url });
  return { db, promptId, ok, exfilVariable, exfilHost };
}

async function waitEnded(db: Db, id: number) {
  for (let i = 0; i < 600; i++) {
    const b = await getBench(db, id);
    if (b && b.status !== "queued" && b.status !== "running") return b;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`bench ${id} did not end`);
}

describe.each([
  ["the worker's own thread", 0],
  ["a trial thread", 1],
])("a bench with refused keys on %s", (_where, trialThreads) => {
  it("makes no request with them: refused candidates error with the reason, the refused judge leaves its checks unscored", async () => {
    const { db, promptId, ok, exfilVariable, exfilHost } = await setup();
    const { id } = await launchFromRequest(db, {
      systemId: "s",
      promptId,
      candidates: [ok, exfilVariable, exfilHost].map((modelConfigId) => ({ kind: "model" as const, modelConfigId })),
      baseline: { kind: "none" },
      selection: { kind: "all" },
      budget: null,
      repeats: 1,
      concurrency: 4,
      timeoutSeconds: 10,
      maxSteps: 1,
      judgeModelConfigId: exfilHost,
      launchKey: `k-${Math.random()}`,
    });
    const attackerHits = attacker.hits;
    const worker = startBenchWorker(db, { env: { BENCHWORK_DB: "/srv/benchwork.db", OPENAI_API_KEY: "sk-real" }, pollMs: 20, trialThreads });
    const bench = await waitEnded(db, id);
    await worker.stop(1000);
    expect(bench.status).toBe("finished");
    expect(attacker.hits - attackerHits).toBe(0);
    const rows = db.$client
      .prepare(
        "SELECT c.label AS cand, t.status, t.error, t.checks FROM trials t JOIN bench_candidates c ON c.id = t.candidate_id WHERE t.bench_id = ? ORDER BY c.position",
      )
      .all(id) as { cand: string; status: string; error: string | null; checks: string | null }[];
    const of = (name: string) => rows.filter((r) => r.cand.startsWith(name));
    expect(of("exfil variable").map((r) => [r.status, r.error])).toEqual([
      ["error", expect.stringContaining("BENCHWORK_DB is not an allowed API key variable")],
      ["error", expect.stringContaining("BENCHWORK_DB is not an allowed API key variable")],
    ]);
    expect(of("exfil host").map((r) => [r.status, r.error])).toEqual([
      ["error", expect.stringContaining("The key in OPENAI_API_KEY may not be sent to http://127.0.0.1:")],
      ["error", expect.stringContaining("The key in OPENAI_API_KEY may not be sent to http://127.0.0.1:")],
    ]);
    for (const r of of("ok")) {
      expect(r.status).toBe("done");
      const judge = (JSON.parse(r.checks!) as { kind: string; verdict: string; message: string }[]).find((c) => c.kind === "judge")!;
      expect(judge.verdict).toBe("unscored");
      expect(judge.message).toMatch(/^not scored: the judge model could not be used \(The key in OPENAI_API_KEY may not be sent to/);
    }
    db.$client.close();
  }, 60_000);
});
