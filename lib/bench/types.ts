/**
 * Shapes of the bench core (DESIGN.md §4): planning input and manifest, candidates, check records,
 * per-candidate aggregates and the recommendation. All JSON-serialisable.
 */
import type { CaseContent, CaseSource, CaseStatus, ToolDefinition } from "../library/case-content";
import type { ModelConfig } from "../runtime/model-config";

/** The three groups a suite is built from, in this order (DESIGN.md §4 step 1). */
export type CaseGroup = "explicit" | "retained" | "generated";

/** A case supplied to planning: its pinned revision and content. */
export interface SuppliedCase {
  caseId: number;
  caseKey: string;
  caseRevisionId: number;
  source: CaseSource;
  status: CaseStatus;
  content: CaseContent;
  /** For a retained copy: the case it was retained from (so the same scenario never runs twice). */
  retainedFromCaseId?: number | null;
  /** A retained copy the user edited: it replaces its original in future benches. */
  userCorrected?: boolean;
}

/** A prompt revision as a bench pins it. */
export interface PinnedPromptRevision {
  id: number;
  number: number;
  systemPrompt: string;
  tools: ToolDefinition[];
  /** As stored (see lib/prompts/settings.ts); they win over the model configuration's defaults. */
  modelSettings?: { temperature?: number; maxOutputTokens?: number; [key: string]: unknown };
}

/** What a bench compares: a prompt revision × model configuration, or a recorded-output column. */
export type CandidateSpec =
  { kind: "model"; label: string; model: ModelConfig; promptRevision: PinnedPromptRevision } | { kind: "recorded"; label: string; recordedName: string };

/** Which cases of the prompt a bench takes. */
export type CaseSelection = { kind: "all" } | { kind: "tag"; tag: string } | { kind: "source"; source: CaseSource } | { kind: "dataset"; dataset: string };

/** Planning settings. `budget` caps included cases (null = no cap); `repeats` ≥ 1 trials per case. */
export interface PlanSettings {
  budget: number | null;
  repeats: number;
  /** Criteria in the pinned rubric (each is one judge call per trial when a judge model is set). */
  criteriaCount: number;
  judge: ModelConfig | null;
  /** Most model calls in one trial (tool rounds + the answer); default 5. */
  maxSteps?: number;
  /** The prompt's default checks, which every case without an evaluator of its own inherits (issue 15). */
  defaultCheckCount?: number;
  /**
   * Criteria and scenarios to generate at launch (issue 17): counts, the generator model (name and
   * prices) and `promptTokens`, the estimated tokens of the prompt revision the generator reads.
   */
  generation?: { criteria: number; scenarios: number; model: { name: string; inputPricePerMTok?: number; outputPricePerMTok?: number }; promptTokens: number };
}

/** One manifest line: every supplied case, included or excluded with the reason. */
export interface ManifestEntry {
  position: number;
  caseId: number;
  caseKey: string;
  caseRevisionId: number;
  source: CaseSource;
  group: CaseGroup;
  included: boolean;
  /** Why an excluded case was left out (paused, over budget, missing input, missing variable `x` …). */
  reason: string | null;
  /** A remark on an included case (e.g. history that cannot be replayed: its checks stay unscored). */
  note: string | null;
}

/**
 * What a bench's generation adds (issue 17): items asked for, the generator's calls and estimate,
 * the generated scenarios that fit the budget, and at most how many trials and judge calls they add.
 */
export interface BenchGenerationPlan {
  /** The generator model configuration's name. */
  model: string;
  criteria: number;
  scenarios: number;
  /** Generated scenarios the case budget leaves room for (they join last); the rest are excluded "over budget". */
  scenariosIncluded: number;
  /** Generator model calls, at most: one for criteria, one for concepts and personas, one per persona (≤ 5; the model may name fewer). */
  calls: number;
  estimate: { inputTokens: number; outputTokens: number; costUsd: number | null };
  /** Trials the included generated scenarios add (at most: near-duplicates are dropped). */
  trials: number;
  /** Judge calls the generated criteria and scenarios add (0 without a judge). */
  judgeCalls: number;
}

/** The plan shown before anything runs. Token and cost figures are estimates (see plan.ts). */
export interface BenchPlan {
  manifest: ManifestEntry[];
  includedCount: number;
  /** Included retained regression cases that joined the selection (not counting corrections standing in for their original). */
  retainedJoined: number;
  excludedCount: number;
  /** Excluded cases per reason kind (`paused`, `over budget`, …). */
  excludedBy: Record<string, number>;
  trialCount: number;
  /**
   * Calls to candidate models (recorded candidates make none): one per trial without tools, and
   * the step limit per trial that exposes tools (then an upper bound, see `modelCallsUpperBound`).
   */
  modelCalls: number;
  /** `modelCalls` (and the tokens and cost with it) counts trials with tools at the step limit: at most that many. */
  modelCallsUpperBound: boolean;
  /** Calls to the judge model (one per criterion per trial). */
  judgeCalls: number;
  /** Recorded trials that will be skipped because the case has no output for that candidate. */
  missingRecordings: { candidate: string; count: number }[];
  estimate: { inputTokens: number; outputTokens: number; costUsd: number | null };
  /**
   * Per candidate, in the plan's order (= its position): the estimated cost in USD of one of its
   * trials (its model calls and its share of the judge's), null when a price is missing. What the
   * spend cap counts a running trial of that candidate for. Absent in plans made before it existed.
   */
  candidateTrialCostUsd?: (number | null)[];
  warnings: string[];
  /**
   * Included cases that would get no check at all (no evaluator, no prompt default check, no
   * criterion in the rubric — or criteria but no judge model to score them: `criteriaUnjudged`),
   * with the first few case IDs; absent when every included case has one.
   */
  unchecked?: { count: number; caseKeys: string[]; criteriaUnjudged: boolean };
  /** What generating criteria and scenarios at launch adds; absent when the bench generates nothing. */
  generation?: BenchGenerationPlan;
}

/** A check outcome stored with a trial. `key` identifies the same check across candidates and benches. */
export interface CheckRecord {
  key: string;
  kind: string;
  label: string;
  verdict: "passed" | "failed" | "unscored" | "error";
  score: number;
  message: string;
  priority?: "primary" | "secondary";
  criterionId?: number;
  details?: Record<string, unknown>;
  /**
   * Model calls the check itself made (a judge): tokens, and cost in USD where the judge model's
   * prices are configured (else null). Kept apart from the candidate's own tokens and cost.
   */
  usage?: { inputTokens: number; outputTokens: number; costUsd: number | null };
}
