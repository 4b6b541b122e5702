/**
 * A synthetic bench for tests and speed scripts: a prompt with `cases` cases, priced model
 * candidates × `repeats` trials, run through the real queue (claim + complete + finalize) with
 * outcomes from a fixed seed — three checks per trial (two static, one judged), latency and cost,
 * some unscored checks and some errored trials. No model is called: the outcomes are written as a
 * worker would write them.
 */
import type { Db } from "@/db/client";
import { addCases } from "@/db/queries/cases";
import { createModelConfig } from "@/db/queries/models";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { getBench } from "@/db/queries/benches";
import { finalizeBench } from "@/db/queries/bench-finalize";
import type { ClaimedTrial, TrialOutcome } from "@/lib/bench/queue";
import { runQueuedTrials } from "./queue-driver";
import type { CheckRecord } from "@/lib/bench/types";
import { emptyCaseContent } from "@/lib/library/case-content";
import { launchFromRequest } from "../prepare";

/** The shape of a synthetic bench. */
export interface SyntheticBench {
  /** System id (created) and case count. */
  systemId: string;
  cases: number;
  repeats: number;
  /** Per candidate (the first is the baseline): the share of checks it fails, its mean latency (ms) and output tokens. */
  candidates: { name: string; fails: number; latencyMs: number; outputTokens: number }[];
  /** Share of trials that end in an error (no checks), and of checks left unscored; 0 by default. */
  errorRate?: number;
  unscoredRate?: number;
  /** Seed of the outcomes (a linear congruential generator). */
  seed?: number;
}

/** A seeded generator of numbers in [0, 1) (the same constants as the speed scripts). */
export function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** Creates the system, prompt, cases and priced model configs of `o`; returns the prompt id and the model config ids (candidate order). */
export async function createSyntheticSuite(db: Db, o: SyntheticBench): Promise<{ promptId: number; modelConfigIds: number[] }> {
  await createSystem(db, { id: o.systemId, name: `Synthetic ${o.systemId}` });
  const promptId = await createPrompt(db, { systemId: o.systemId, name: "answerer", systemPrompt: "Answer the question." });
  await addCases(
    db,
    Array.from({ length: o.cases }, (_, i) => ({
      systemId: o.systemId,
      promptId,
      caseKey: `${o.systemId}-${String(i).padStart(4, "0")}`,
      source: "custom" as const,
      content: { ...emptyCaseContent(), input: `Question ${i}?`, expected: "answer", evaluators: [{ kind: "contains" as const }] },
    })),
  );
  const modelConfigIds: number[] = [];
  for (const c of o.candidates)
    modelConfigIds.push(
      await createModelConfig(db, {
        name: `${o.systemId}-${c.name}`,
        provider: "openai-compatible",
        modelId: c.name,
        baseUrl: "http://127.0.0.1:9/v1",
        inputPricePerMTok: 1,
        outputPricePerMTok: 4,
      }),
    );
  return { promptId, modelConfigIds };
}

/** Launches a bench of the suite (the first model the baseline); returns its id (trials queued). */
export async function launchSyntheticBench(
  db: Db,
  o: SyntheticBench,
  suite: { promptId: number; modelConfigIds: number[] },
  launchKey: string,
  settings: { spendCapUsd?: number; maxLatencyIncreasePct?: number; maxCostIncreasePct?: number } = {},
): Promise<number> {
  const { id } = await launchFromRequest(db, {
    systemId: o.systemId,
    promptId: suite.promptId,
    candidates: suite.modelConfigIds.map((modelConfigId) => ({ kind: "model" as const, modelConfigId })),
    baseline: { kind: "candidate", index: 0 },
    selection: { kind: "all" },
    budget: null,
    repeats: o.repeats,
    concurrency: 64,
    timeoutSeconds: 30,
    maxSteps: 1,
    judgeModelConfigId: null,
    launchKey,
    ...settings,
  });
  return id;
}

/**
 * Runs every queued trial of bench `benchId` with seeded outcomes and finalizes it.
 * @param rnd the generator (kept across calls: a rerun round draws new outcomes)
 * @returns the time the finalize took (ms)
 */
export async function runSyntheticTrials(db: Db, benchId: number, o: SyntheticBench, rnd: () => number): Promise<number> {
  const bench = (await getBench(db, benchId))!;
  const byCandidate = new Map(bench.candidates.map((c, i) => [c.id, o.candidates[i]]));
  const run = (got: ClaimedTrial[]): TrialOutcome[] =>
    got.map((t) => {
      const c = byCandidate.get(t.candidateId)!;
      const errored = rnd() < (o.errorRate ?? 0);
      const checks: CheckRecord[] = ["e0:contains", "e1:exact", "c:1"].map((key) => {
        const unscored = rnd() < (o.unscoredRate ?? 0);
        const passed = rnd() >= c.fails;
        const verdict = unscored ? ("unscored" as const) : passed ? ("passed" as const) : ("failed" as const);
        return { key, kind: key.startsWith("c:") ? "judge" : "contains", label: key, verdict, score: verdict === "passed" ? 1 : 0, message: "" };
      });
      const latency = Math.round(c.latencyMs * (0.6 + rnd() * 0.8));
      const outTok = Math.round(c.outputTokens * (0.7 + rnd() * 0.6));
      return {
        id: t.id,
        status: errored ? "error" : "done",
        startedAt: 1,
        finishedAt: 2,
        latencyMs: errored ? null : latency,
        inputTokens: errored ? null : 300,
        outputTokens: errored ? null : outTok,
        costUsd: errored ? null : (300 * 1 + outTok * 4) / 1e6,
        finishReason: errored ? null : "stop",
        output: errored ? null : "answer",
        record: null,
        checks: errored ? null : checks,
        error: errored ? "HTTP 429: rate limited" : null,
      };
    });
  await runQueuedTrials(db, benchId, run, { finalize: false });
  const t0 = performance.now();
  await finalizeBench(db, benchId, Date.now());
  return performance.now() - t0;
}
