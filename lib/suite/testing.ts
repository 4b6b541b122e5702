/** Test helpers for the suite core: a release case with every field at its compiled default. */
import type { ReleaseCase } from "./types";

/** A {@link ReleaseCase} as `compile` writes it for a case that sets nothing but its prompt; `more` overrides fields. */
export function releaseCase(more: Partial<ReleaseCase> = {}): ReleaseCase {
  return {
    id: "c",
    evalId: "e",
    index: 0,
    givenId: true,
    title: null,
    description: null,
    prompt: "p",
    systemPrompt: null,
    expected: null,
    tools: [],
    evaluators: [],
    evaluatorFunction: null,
    data: null,
    labels: [],
    metadata: {},
    timeoutSeconds: null,
    maxSteps: null,
    temperature: null,
    criteria: null,
    judgeMode: "binary",
    judgeThreshold: 7,
    judgeModel: null,
    expectedToolCalls: null,
    allowAdditionalToolCalls: true,
    hasSetup: false,
    hasTeardown: false,
    source: { module: "evals/e.ts", file: "evals/e.ts", index: 0 },
    ...more,
  };
}
