/**
 * What the generator takes and gives (lib/generate). A proposal is inactive until a user accepts
 * it; every proposal carries the run that made it (run id, generator model, prompt revision).
 */
import type { StaticSpec } from "@/lib/evaluators/spec";
import type { DuplicateDrop } from "./similarity";

/** The prompt revision the generator works from. */
export interface GeneratorPrompt {
  /** Prompt name, for the model's orientation. */
  name: string;
  revisionId: number;
  revisionNumber: number;
  systemPrompt: string;
  tools: { name: string; description: string; inputSchema: Record<string, unknown> }[];
}

/** What to generate and what the library already has (so it is not repeated). */
export interface GenerateInput {
  prompt: GeneratorPrompt;
  /** Criteria to propose (0 = none). */
  criteria: number;
  /** Scenarios to propose (0 = none). */
  scenarios: number;
  /** Rules of the prompt's active criteria. */
  existingRules: string[];
  /** Inputs of a sample of the prompt's cases. */
  existingInputs: string[];
}

/** How a proposed criterion can be checked. */
export type ProposedCheck = { kind: "static"; evaluator: StaticSpec } | { kind: "judge"; note?: string } | { kind: "unobservable"; reason: string };

/** A proposed criterion. */
export interface CriterionProposal {
  rule: string;
  passes: string;
  fails: string;
  priority: "primary" | "secondary";
  check: ProposedCheck;
  reason: string;
}

/** A proposed scenario (becomes a case). */
export interface ScenarioProposal {
  input: string;
  expected: string;
  variables: { name: string; value: string }[];
  tags: string[];
  /** Why it was proposed: the concept it covers and the persona it speaks for. */
  concept: string;
  persona: string;
  edgeCase: boolean;
}

/** An item of the model's answer that did not validate, or a near-duplicate. */
export type DroppedItem =
  { reason: "invalid"; step: string; item: number; problem: string } | ({ reason: "duplicate"; kind: "criterion" | "scenario" } & DuplicateDrop);

/** Where a batch came from. */
export interface GenerationProvenance {
  runId: string;
  /** The generator model, `provider:modelId`. */
  model: string;
  /** Revision of the generator's own instructions (changes when lib/generate/prompts.ts changes them). */
  generatorRevision: string;
  promptRevisionId: number;
}

/** A generated batch. */
export interface GenerationResult extends GenerationProvenance {
  criteria: CriterionProposal[];
  scenarios: ScenarioProposal[];
  concepts: { name: string; description: string }[];
  personas: { name: string; description: string }[];
  dropped: DroppedItem[];
  /** 1 − mean pairwise similarity of the kept items (null below two). */
  diversity: { criteria: number | null; scenarios: number | null };
  /** Tokens of every call of the batch. */
  usage: { inputTokens: number; outputTokens: number; calls: number };
}
