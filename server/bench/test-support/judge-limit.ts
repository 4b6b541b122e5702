/**
 * `BENCHWORK_PROVIDER_CONCURRENCY` counts a judge's calls too, across workers (issue 20): the tests
 * shared by both stores' suites (server/bench/sqlite-judge-limit.test.ts, pg-judge-limit.test.ts).
 * Two workers run a judged bench whose rubric has three criteria (three judge calls per trial,
 * which the evaluators would make at once). Each endpoint is its own scripted server, which records
 * the most requests it had in flight: none may pass the limit. Each suite supplies its store, how
 * two workers start on it, and how its executor reads a bench's judge's provider key.
 */
import { asc, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Db } from "@/db/client";
import { getBench } from "@/db/queries/benches";
import { addCases } from "@/db/queries/cases";
import { addCriterion } from "@/db/queries/criteria";
import { createModelConfig } from "@/db/queries/models";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { benches, trials } from "@/db/schema";
import { emptyCaseContent } from "@/lib/library/case-content";
import type { ModelConfig } from "@/lib/runtime/model-config";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";
import { launchFromRequest } from "../prepare";
import { modelBenchRequest } from "./model-bench";
import { providerKeyOfConfig } from "../provider-key";

/** The provider limit (requests in flight per endpoint) the workers get. */
export const JUDGE_LIMIT = 2;
const ENV = { BENCHWORK_PROVIDER_CONCURRENCY: String(JUDGE_LIMIT) };
const CASES = 8;
const CRITERIA = 3;

/** What a store's suite gives the shared tests. */
export interface JudgeLimitSetup {
  /** The suite's store (read when a test starts). */
  db: () => Db;
  /** Starts two workers on the store, each with its own claims (as two `npm run worker` processes), with `env`. */
  startTwoWorkers: (env: Record<string, string>) => Promise<{ stop: (graceMs: number) => Promise<void> }[]>;
  /** Bench `id`'s judge's provider key, read from the store as its executor reads it (null: no judge). */
  judgeKeyOf: (id: number) => Promise<string | null>;
}

/** A scripted endpoint: the judge's replies pass; every answer waits a little so calls overlap. */
function endpoint(): Promise<ScriptedModelServer> {
  return startScriptedModelServer({
    latencyMs: 40,
    script: [{ name: "judge", when: { systemIncludes: "You are an impartial evaluator" }, reply: { text: '{"reason": "Fine.", "verdict": "pass"}' } }],
  });
}

/** Defines the judge-limit tests (call inside the suite's describe). */
export function judgeLimitTests(s: JudgeLimitSetup): void {
  let systems = 0;

  /** A prompt with {@link CRITERIA} criteria and {@link CASES} cases, a candidate on each of `cands` and a judge on `judge`. */
  async function launchJudged(cands: ScriptedModelServer[], judge: ScriptedModelServer): Promise<number> {
    const db = s.db();
    const systemId = `judged-${++systems}`;
    await createSystem(db, { id: systemId, name: "Judged" });
    const promptId = await createPrompt(db, { systemId, name: "agent", systemPrompt: "Answer politely." });
    for (let i = 1; i <= CRITERIA; i++)
      await addCriterion(db, { systemId, promptId, fields: { rule: `Rule ${i}`, passes: "fine", fails: "not fine", priority: "secondary" } });
    await addCases(
      db,
      Array.from({ length: CASES }, (_, i) => ({
        systemId,
        promptId,
        caseKey: `c${i}`,
        source: "custom" as const,
        content: { ...emptyCaseContent(), input: `question ${i}`, expected: "a polite answer" },
      })),
    );
    const models: number[] = [];
    for (const [i, c] of cands.entries())
      models.push(await createModelConfig(db, { name: `cand ${i} ${systemId}`, provider: "openai-compatible", modelId: `cand-${i}`, baseUrl: c.url }));
    const judgeModel = await createModelConfig(db, { name: `judge ${systemId}`, provider: "openai-compatible", modelId: "judge-1", baseUrl: judge.url });
    const request = modelBenchRequest({
      systemId,
      promptId,
      modelConfigIds: models,
      judgeModelConfigId: judgeModel,
      concurrency: 16,
      launchKey: `k-${systemId}`,
    });
    const { id } = await launchFromRequest(db, request, { env: ENV });
    return id;
  }

  /** Runs bench `id` on two workers until it has ended; returns each trial's status and check verdicts. */
  async function runOnTwoWorkers(id: number): Promise<string[]> {
    const db = s.db();
    const workers = await s.startTwoWorkers(ENV);
    try {
      for (;;) {
        const b = await getBench(db, id);
        if (b && b.status !== "queued" && b.status !== "running") {
          expect(b.status).toBe("finished");
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await Promise.all(workers.map((w) => w.stop(1000)));
    }
    const rows = await db.select({ status: trials.status, checks: trials.checks }).from(trials).where(eq(trials.benchId, id)).orderBy(asc(trials.id));
    return rows.map(
      (r) => `${r.status} ${((r.checks ? JSON.parse(r.checks) : []) as { kind: string; verdict: string }[]).map((c) => `${c.kind}=${c.verdict}`).join(",")}`,
    );
  }

  const judged = `done ${Array(CRITERIA).fill("judge=passed").join(",")}`;

  it("a judge on its own endpoint, two candidates on two others: no endpoint ever has more than the limit in flight", async () => {
    const cands = [await endpoint(), await endpoint()];
    const judge = await endpoint();
    try {
      const id = await launchJudged(cands, judge);
      expect(await runOnTwoWorkers(id)).toEqual(Array(2 * CASES).fill(judged));
      expect(cands.map((c) => c.requests.count)).toEqual([CASES, CASES]);
      expect(judge.requests.count).toBe(2 * CASES * CRITERIA);
      // Each candidate's endpoint has its own limit; the judge's endpoint serves both candidates' trials.
      expect(cands.map((c) => c.requests.peakInFlight <= JUDGE_LIMIT)).toEqual([true, true]);
      expect(judge.requests.peakInFlight).toBeLessThanOrEqual(JUDGE_LIMIT);
    } finally {
      for (const c of cands) await c.close();
      await judge.close();
    }
  }, 120_000);

  it("a judge on the candidate's endpoint: its calls and the candidate's share the limit", async () => {
    const both = await endpoint();
    try {
      const id = await launchJudged([both], both);
      expect(await runOnTwoWorkers(id)).toEqual(Array(CASES).fill(judged));
      expect(both.requests.count).toBe(CASES * (1 + CRITERIA));
      expect(both.requests.peakInFlight).toBeLessThanOrEqual(JUDGE_LIMIT);
    } finally {
      await both.close();
    }
  }, 120_000);

  it("reads a bench's stored judge's provider key as the executor does (providerKeyOfConfig)", async () => {
    const db = s.db();
    const server = await endpoint();
    try {
      const id = await launchJudged([server], server);
      const configs: ModelConfig[] = [
        { name: "a", provider: "openai", modelId: "gpt-x" },
        { name: "b", provider: "anthropic", modelId: "claude-x", baseUrl: "https://proxy.example/v1" },
        { name: "c", provider: "openai-compatible", modelId: "m", baseUrl: server.url },
      ];
      for (const judge of configs) {
        await db
          .update(benches)
          .set({ judge: JSON.stringify(judge) })
          .where(eq(benches.id, id));
        expect(await s.judgeKeyOf(id)).toBe(providerKeyOfConfig(judge));
      }
      await db.update(benches).set({ judge: null }).where(eq(benches.id, id));
      expect(await s.judgeKeyOf(id)).toBeNull();
    } finally {
      await server.close();
    }
  }, 60_000);
}
