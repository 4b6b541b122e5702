/**
 * Trade-offs and gate limits through the real finalize path (issue #16 §4): trials stored with
 * their latency and cost by the SQLite queue; the bench's summary carries the cost and latency
 * differences, and a candidate over the bench's p95 latency limit is not recommended, the
 * headline naming the limit.
 */
import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { seedDemoWorkspace } from "@/db/seed/demo";
import { listPrompts } from "@/db/queries/systems";
import { getBench } from "@/db/queries/benches";
import { createModelConfig } from "@/db/queries/models";
import { claimedTrialRows } from "@/db/queries/trial-jobs";
import { trials } from "@/db/schema";
import { eq } from "drizzle-orm";
import { runQueuedTrials } from "./test-support/queue-driver";
import { launchFromRequest } from "./prepare";
import type { TrialOutcome } from "@/lib/bench/queue";

async function run(gate: { maxLatencyIncreasePct?: number; maxCostIncreasePct?: number }) {
  const db = openMemoryDatabase();
  await seedDemoWorkspace(db);
  const router = (await listPrompts(db, "customer-support")).find((p) => p.name === "intent-router")!;
  const model = (name: string) =>
    createModelConfig(db, {
      name,
      provider: "openai-compatible",
      modelId: name,
      baseUrl: "http://127.0.0.1:9/v1",
      inputPricePerMTok: 1,
      outputPricePerMTok: 1,
    });
  const [a, b] = [await model("base-model"), await model("slow-model")];
  const { id } = await launchFromRequest(db, {
    systemId: "customer-support",
    promptId: router.id,
    candidates: [
      { kind: "model", modelConfigId: a },
      { kind: "model", modelConfigId: b },
    ],
    baseline: { kind: "candidate", index: 0 },
    selection: { kind: "all" },
    budget: 10,
    repeats: 1,
    concurrency: 4,
    timeoutSeconds: 5,
    maxSteps: 1,
    judgeModelConfigId: null,
    launchKey: `gate-${Math.random()}`,
    ...gate,
  });
  const bench = (await getBench(db, id))!;
  const [base, cand] = bench.candidates;
  const claimed = await claimedTrialRows(
    db,
    (await db.select({ id: trials.id }).from(trials).where(eq(trials.benchId, id))).map((t) => t.id),
  );
  // Baseline: 100 ms, $0.0010, fails its first case; candidate: 150 ms (+50 %), $0.0011 (+10 %), passes all.
  const cases = [...new Set(claimed.map((t) => t.benchCaseId))].sort((x, y) => x - y);
  const outcomes: TrialOutcome[] = claimed.map((t) => {
    const isBase = t.candidateId === base.id;
    const pass = !isBase || t.benchCaseId !== cases[0];
    return {
      id: t.id,
      status: "done",
      startedAt: 1,
      finishedAt: 2,
      latencyMs: isBase ? 100 : 150,
      inputTokens: 1,
      outputTokens: 1,
      costUsd: isBase ? 0.001 : 0.0011,
      finishReason: "stop",
      output: "x",
      record: null,
      checks: [{ key: "e0:exact", kind: "exact", label: "exact", verdict: pass ? "passed" : "failed", score: pass ? 1 : 0, message: "" }],
      error: null,
    };
  });
  expect(await runQueuedTrials(db, id, (batch) => outcomes.filter((x) => batch.some((t) => t.id === x.id)), { now: 3 })).toBe(true);
  return { bench: (await getBench(db, id))!, base, cand };
}

describe("trade-offs and gate limits at finalize", () => {
  it("stores the cost and latency differences against the baseline", async () => {
    const { bench, cand } = await run({});
    const t = bench.summary!.tradeoffs![String(cand.id)];
    expect(t.latencyP95).toMatchObject({ n: 10, candidate: 150, baseline: 100, delta: 50, ci95: [50, 50], relative: 0.5 });
    expect(t.costPerCase!.delta).toBeCloseTo(0.0001, 12);
    expect(t.costPerCase!.relative).toBeCloseTo(0.1, 12);
    expect(bench.recommendation!.recommendedCandidateId).toBe(cand.id);
  });

  it("blocks a candidate over the p95 latency limit with the named reason, and not one within the cost limit", async () => {
    const { bench, base, cand } = await run({ maxLatencyIncreasePct: 20, maxCostIncreasePct: 30 });
    expect(bench.settings.gate).toEqual({ maxLatencyIncreasePct: 20, maxCostIncreasePct: 30 });
    const rec = bench.recommendation!;
    expect(rec.recommendedCandidateId).toBe(base.id);
    expect(rec.candidates.find((c) => c.candidateId === cand.id)!.limitBlockers).toEqual(["p95 latency +50 % exceeds the +20 % limit"]);
    expect(rec.headline).toMatch(/^Keep the baseline base-model.*: slow-model.* scores higher but p95 latency \+50 % exceeds the \+20 % limit\.$/);
  });
});
