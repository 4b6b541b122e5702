/**
 * Test helpers for benches of model candidates over HTTP (a scripted server's URL): cases with a
 * `contains` check and the launch request of one or more model configurations over every case,
 * once each, with one call per trial. Shared by server/bench tests and bench/ scripts.
 */
import type { Db } from "@/db/client";
import { addCases } from "@/db/queries/cases";
import type { BenchRequest } from "@/lib/bench/request";
import { emptyCaseContent } from "@/lib/library/case-content";

/**
 * Adds `cases` to prompt `promptId` of system `systemId`, each with its input and a `contains`
 * check of `expected` (source `custom`).
 */
export async function addContainsCases(
  db: Db,
  o: { systemId: string; promptId: number; cases: { key: string; input: string; expected: string }[] },
): Promise<void> {
  await addCases(
    db,
    o.cases.map((c) => ({
      systemId: o.systemId,
      promptId: o.promptId,
      caseKey: c.key,
      source: "custom" as const,
      content: { ...emptyCaseContent(), input: c.input, expected: c.expected, evaluators: [{ kind: "contains" as const }] },
    })),
  );
}

/**
 * The launch request of model configurations `modelConfigIds` (one candidate each, no baseline) over
 * every case of the prompt, one repeat, one call per trial (`maxSteps` 1), timeout 60 s unless given.
 */
export function modelBenchRequest(o: {
  systemId: string;
  promptId: number;
  modelConfigIds: number[];
  concurrency: number;
  launchKey: string;
  timeoutSeconds?: number;
  judgeModelConfigId?: number | null;
}): BenchRequest {
  return {
    systemId: o.systemId,
    promptId: o.promptId,
    candidates: o.modelConfigIds.map((modelConfigId) => ({ kind: "model" as const, modelConfigId })),
    baseline: { kind: "none" },
    selection: { kind: "all" },
    budget: null,
    repeats: 1,
    concurrency: o.concurrency,
    timeoutSeconds: o.timeoutSeconds ?? 60,
    maxSteps: 1,
    judgeModelConfigId: o.judgeModelConfigId ?? null,
    launchKey: o.launchKey,
  };
}
