/**
 * What "generate criteria and scenarios for this bench" adds to a plan (issue 17), pure: how many
 * items the generator is asked for, its model calls, tokens and cost, and how many of the generated
 * scenarios fit the case budget. Generated cases join after the explicit and retained ones (and
 * after the prompt's earlier generated cases), so they take only the budget those leave.
 */
import { MAX_PERSONAS } from "../generate/generate";
import type { BenchGenerationPlan } from "./types";

/** Tokens of the generator's own instructions and the library sample it is shown (rule of thumb). */
const INSTRUCTION_TOKENS = 600;
/** Output tokens per generated item, and per concepts-and-personas answer (rule of thumb). */
const CRITERION_TOKENS = 100;
const SCENARIO_TOKENS = 120;
const CONCEPTS_TOKENS = 250;

/**
 * Plans the generation of one bench.
 * @param req counts asked for (0–50 each) and the generator model (its prices in USD per million tokens, when known)
 * @param ctx `promptTokens` of the system prompt and tools; `includedCount` cases the plan already
 *   includes; `budget` (null = no cap); `candidates` and `repeats` of the bench; `criteriaCount` in
 *   the rubric already and whether a judge will score them (`judged`)
 * @returns calls, estimated tokens (input ≈, output ≤) and cost (null when a price is unknown),
 *   scenarios that fit the budget, and the trials and judge calls they add at most
 */
export function planGeneration(
  req: { criteria: number; scenarios: number; model: { name: string; inputPricePerMTok?: number; outputPricePerMTok?: number } },
  ctx: { promptTokens: number; includedCount: number; budget: number | null; candidates: number; repeats: number; criteriaCount: number; judged: boolean },
): BenchGenerationPlan {
  const criteriaCalls = req.criteria > 0 ? 1 : 0;
  // Scenarios: one concepts-and-personas call, then one call per persona (at most MAX_PERSONAS).
  const scenarioCalls = req.scenarios > 0 ? 1 + Math.min(MAX_PERSONAS, req.scenarios) : 0;
  const calls = criteriaCalls + scenarioCalls;
  const inputTokens = calls * (INSTRUCTION_TOKENS + ctx.promptTokens);
  const outputTokens = req.criteria * CRITERION_TOKENS + (req.scenarios > 0 ? CONCEPTS_TOKENS + req.scenarios * SCENARIO_TOKENS : 0);
  const { inputPricePerMTok: inP, outputPricePerMTok: outP } = req.model;
  const costUsd = inP === undefined || outP === undefined ? null : (inputTokens * inP + outputTokens * outP) / 1e6;
  const room = ctx.budget === null ? req.scenarios : Math.max(0, ctx.budget - ctx.includedCount);
  const scenariosIncluded = Math.min(req.scenarios, room);
  const trials = scenariosIncluded * ctx.candidates * ctx.repeats;
  // A judge scores every criterion on every trial: the new criteria on all trials, the old ones on the new trials.
  const judgeCalls = ctx.judged ? req.criteria * (ctx.includedCount * ctx.candidates * ctx.repeats + trials) + ctx.criteriaCount * trials : 0;
  return {
    model: req.model.name,
    criteria: req.criteria,
    scenarios: req.scenarios,
    scenariosIncluded,
    calls,
    estimate: { inputTokens, outputTokens, costUsd },
    trials,
    judgeCalls,
  };
}
