/**
 * Test helpers for benches over recorded candidates (no model, no key): a system `rec` with one
 * prompt whose cases carry recorded answers and an `exact` check, a launch request, and a run of
 * a bench to its end on an in-process worker.
 */
import type { Db } from "@/db/client";
import { addCases } from "@/db/queries/cases";
import { getBench, getBenchProgress, type BenchDetail } from "@/db/queries/benches";
import { createPrompt, createSystem } from "@/db/queries/systems";
import type { BenchRequest } from "@/lib/bench/request";
import { emptyCaseContent, type CaseSource } from "@/lib/library/case-content";
import { launchFromRequest } from "../prepare";
import { startBenchWorker } from "../../worker";

/** One case: its key, expected answer and the recorded answer of each candidate column. */
export interface RecordedCase {
  key: string;
  expected: string;
  answers: Record<string, string>;
  source?: CaseSource;
  tags?: string[];
  /** Extra evaluator specs after the `exact` one. */
  evaluators?: unknown[];
}

/** Creates system `rec` and prompt `answerer` with `list` as its cases; returns the prompt id. */
export async function recordedSuite(db: Db, list: RecordedCase[]): Promise<number> {
  await createSystem(db, { id: "rec", name: "Recorded" });
  const promptId = await createPrompt(db, { systemId: "rec", name: "answerer", systemPrompt: "Answer briefly." });
  await addCases(
    db,
    list.map((c) => ({
      systemId: "rec",
      promptId,
      caseKey: c.key,
      source: c.source ?? "custom",
      content: {
        ...emptyCaseContent(),
        input: `question ${c.key}`,
        expected: c.expected,
        recordedOutputs: c.answers,
        tags: c.tags ?? [],
        evaluators: [{ kind: "exact" }, ...(c.evaluators ?? [])],
      },
    })),
  );
  return promptId;
}

/** A launch request for recorded columns `names` over every case (baseline: the first candidate). */
export function recordedRequest(promptId: number, names: string[], o: Partial<BenchRequest> = {}): BenchRequest {
  return {
    systemId: "rec",
    promptId,
    candidates: names.map((n) => ({ kind: "recorded" as const, recordedName: n })),
    baseline: { kind: "candidate", index: 0 },
    selection: { kind: "all" },
    includeRetained: true,
    budget: null,
    repeats: 1,
    concurrency: 4,
    timeoutSeconds: 30,
    maxSteps: 5,
    judgeModelConfigId: null,
    launchKey: `rec-${Math.random()}`,
    ...o,
  };
}

/** Waits until bench `id` has ended (finished, cancelled or failed). */
export async function waitEnded(db: Db, id: number, ms = 30_000): Promise<BenchDetail> {
  const end = Date.now() + ms;
  for (;;) {
    const b = await getBench(db, id);
    if (b && b.status !== "queued" && b.status !== "running") return b;
    if (Date.now() > end) throw new Error(`bench ${id} did not end: ${JSON.stringify(await getBenchProgress(db, id))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Launches `request` and runs it to its end with an in-process worker. */
export async function runBench(db: Db, request: BenchRequest): Promise<BenchDetail> {
  const { id } = await launchFromRequest(db, request);
  const worker = startBenchWorker(db, { env: {}, pollMs: 20 });
  try {
    return await waitEnded(db, id);
  } finally {
    await worker.stop(1000);
  }
}
