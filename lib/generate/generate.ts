/**
 * The generator (issue 17): proposes criteria and scenarios for one prompt revision with a model
 * passed in. Criteria come from one structured call; scenarios from a concepts-and-personas call
 * followed by one call per persona (as promptfoo's `generate dataset` does). Items that do not
 * validate and near-duplicates (of the library or of earlier proposals) are dropped and reported;
 * the batch gets a diversity figure and its provenance (run id, generator model, revisions).
 * Pure: no storage, clock or environment; the caller stores the result.
 */
import type { LanguageModel } from "ai";
import { intrinsicProblems, parseEvaluatorSpec } from "@/lib/evaluators/validate";
import type { StaticSpec } from "@/lib/evaluators/spec";
import { templateVariables } from "@/lib/runtime/template";
import { criteriaMessages, conceptsMessages, GENERATOR_REVISION, scenariosMessages } from "./prompts";
import { criteriaAnswerSchema, criterionItemSchema, conceptsAnswerSchema, scenarioItemSchema, scenariosAnswerSchema, type CriterionItem } from "./schemas";
import { MAX_PER_BATCH } from "./limits";
import { diversity, dropNearDuplicates } from "./similarity";
import { GenerateError, structuredList, structuredObject, type CallUsage } from "./structured";
import type { CriterionProposal, DroppedItem, GenerateInput, GenerationResult, ProposedCheck, ScenarioProposal } from "./types";

export { MAX_PER_BATCH } from "./limits";
/** Most personas one batch asks scenarios for (each is one model call). */
export const MAX_PERSONAS = 5;

/** What the generator needs besides its input. */
export interface GenerateDeps {
  model: LanguageModel;
  /** Recorded with every proposal, e.g. `openai-compatible:qwen2.5`. */
  modelLabel: string;
  runId: string;
  abortSignal?: AbortSignal;
  /** Similarity at or above which an item is a near-duplicate (default 0.8). */
  duplicateThreshold?: number;
}

const STATIC_KINDS = new Set(["non_empty", "exact", "contains", "answer_bank", "gsm8k", "regex", "json", "tool_call_syntax", "expected_tool_calls"]);

/** A criterion's check as proposed; an invalid or non-static evaluator falls back to the judge, with the problem noted. */
function checkOf(item: CriterionItem): ProposedCheck {
  if (item.check === "unobservable") return { kind: "unobservable", reason: item.reason?.trim() || "the model says the answer alone cannot show it" };
  if (item.check === "judge") return { kind: "judge" };
  if (!item.evaluator) return { kind: "judge", note: "proposed as static without an evaluator spec" };
  if (!STATIC_KINDS.has(String(item.evaluator.kind))) return { kind: "judge", note: `"${String(item.evaluator.kind)}" is not a static evaluator` };
  const parsed = parseEvaluatorSpec(item.evaluator);
  const problems = parsed.ok ? intrinsicProblems(parsed.spec) : parsed.problems;
  if (!parsed.ok || problems.length > 0) {
    const p = problems[0];
    return { kind: "judge", note: `the proposed evaluator was invalid (${p.field ? `${p.field}: ` : ""}${p.message})` };
  }
  return { kind: "static", evaluator: parsed.spec as StaticSpec };
}

function checkCount(name: string, n: number) {
  if (!Number.isInteger(n) || n < 0 || n > MAX_PER_BATCH) throw new RangeError(`${name} must be a whole number from 0 to ${MAX_PER_BATCH} (got ${n})`);
}

/**
 * Generates one batch of proposals.
 * @returns kept proposals (at most the requested counts), what was dropped and why, diversity,
 *   provenance and token usage
 * @throws RangeError for counts outside 0–{@link MAX_PER_BATCH} or both 0; GenerateError when a
 *   step's answer is not JSON, has the wrong shape or nothing valid, or the call fails (nothing of
 *   the batch is returned then)
 */
export async function generateProposals(input: GenerateInput, deps: GenerateDeps): Promise<GenerationResult> {
  checkCount("criteria", input.criteria);
  checkCount("scenarios", input.scenarios);
  if (input.criteria === 0 && input.scenarios === 0) throw new RangeError("ask for at least one criterion or scenario");
  const settings = { model: deps.model, abortSignal: deps.abortSignal };
  const variables = templateVariables(input.prompt.systemPrompt);
  const usage = { inputTokens: 0, outputTokens: 0, calls: 0 };
  const took = (u: CallUsage) => {
    usage.inputTokens += u.inputTokens;
    usage.outputTokens += u.outputTokens;
    usage.calls++;
  };
  const dropped: DroppedItem[] = [];

  let criteria: CriterionProposal[] = [];
  if (input.criteria > 0) {
    const step = "criteria";
    const answer = await structuredList(
      settings,
      step,
      "criteria",
      "criteria",
      criteriaAnswerSchema,
      criterionItemSchema,
      criteriaMessages(input.prompt, variables, input.criteria, input.existingRules),
    );
    took(answer.usage);
    for (const d of answer.invalid) dropped.push({ reason: "invalid", step, ...d });
    const proposals = answer.items.map((i) => ({
      rule: i.rule,
      passes: i.passes,
      fails: i.fails,
      priority: i.priority,
      check: checkOf(i),
      reason: i.reason?.trim() ?? "",
    }));
    const { kept, dropped: dups } = dropNearDuplicates(proposals, (c) => c.rule, input.existingRules, deps.duplicateThreshold);
    for (const d of dups) dropped.push({ reason: "duplicate", kind: "criterion", ...d });
    criteria = kept.slice(0, input.criteria);
  }

  let scenarios: ScenarioProposal[] = [];
  let concepts: GenerationResult["concepts"] = [];
  let personas: GenerationResult["personas"] = [];
  if (input.scenarios > 0) {
    const wanted = Math.min(MAX_PERSONAS, input.scenarios);
    const c = await structuredObject(settings, "concepts and personas", "concepts", conceptsAnswerSchema, conceptsMessages(input.prompt, variables, wanted));
    took(c.usage);
    concepts = c.value.concepts;
    personas = c.value.personas.slice(0, wanted);
    if (personas.length === 0) throw new GenerateError("empty", "concepts and personas: the model named no persona.");
    const all: ScenarioProposal[] = [];
    for (const [i, persona] of personas.entries()) {
      // Spread the requested count over the personas; the first ones take the remainder.
      const share = Math.floor(input.scenarios / personas.length) + (i < input.scenarios % personas.length ? 1 : 0);
      const step = `scenarios for persona "${persona.name}"`;
      const answer = await structuredList(
        settings,
        step,
        "scenarios",
        "scenarios",
        scenariosAnswerSchema,
        scenarioItemSchema,
        scenariosMessages(input.prompt, variables, persona, concepts, share, input.existingInputs),
      );
      took(answer.usage);
      for (const d of answer.invalid) dropped.push({ reason: "invalid", step, ...d });
      answer.items.forEach((s, k) => {
        // A case without a value for a template variable would be excluded from every bench.
        const given = new Set(s.variables.map((v) => v.name));
        const missing = variables.filter((v) => !given.has(v));
        if (missing.length) {
          dropped.push({ reason: "invalid", step, item: k + 1, problem: `variables: no value for ${missing.map((m) => `{{${m}}}`).join(", ")}` });
          return;
        }
        const tags = [...new Set([...s.tags.map((t) => t.trim()).filter(Boolean), ...(s.edgeCase ? ["edge-case"] : [])])];
        all.push({
          input: s.input,
          expected: s.expected,
          variables: s.variables.filter((v) => variables.includes(v.name)),
          tags,
          concept: s.covers,
          persona: persona.name,
          edgeCase: s.edgeCase,
        });
      });
    }
    if (all.length === 0) {
      const first = dropped.find((d) => d.reason === "invalid" && d.step !== "criteria");
      throw new GenerateError(
        "wrong_shape",
        `scenarios: no proposed scenario is valid${first && first.reason === "invalid" ? `; ${first.step} item ${first.item}: ${first.problem}` : ""}.`,
      );
    }
    const { kept, dropped: dups } = dropNearDuplicates(all, (s) => s.input, input.existingInputs, deps.duplicateThreshold);
    for (const d of dups) dropped.push({ reason: "duplicate", kind: "scenario", ...d });
    scenarios = kept.slice(0, input.scenarios);
  }

  return {
    runId: deps.runId,
    model: deps.modelLabel,
    generatorRevision: GENERATOR_REVISION,
    promptRevisionId: input.prompt.revisionId,
    criteria,
    scenarios,
    concepts,
    personas,
    dropped,
    diversity: { criteria: diversity(criteria.map((c) => c.rule)), scenarios: diversity(scenarios.map((s) => s.input)) },
    usage,
  };
}
