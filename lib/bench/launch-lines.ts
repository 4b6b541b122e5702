/**
 * What `bench run` prints right after the launch (the generation run, the plan's counts and notes),
 * the same for a bench launched on a database file and one launched through the HTTP API.
 */
import { counted } from "./counted";
import { n as num } from "./progress-counts";
import type { BenchPlan } from "./types";

/** The part of a plan the launch lines (and the results' manifest block) need. */
export type PlanSummary = Pick<
  BenchPlan,
  "includedCount" | "retainedJoined" | "excludedCount" | "excludedBy" | "trialCount" | "modelCalls" | "modelCallsUpperBound" | "judgeCalls" | "warnings"
>;

/** The generation run recorded with a bench (BenchSettings `generated`). */
export interface GeneratedSummary {
  runId: string;
  model: string;
  criterionIds: number[];
  caseIds: number[];
  dropped: number;
  refused: string[];
}

/** The plan's summary fields (what the HTTP API sends back instead of the whole manifest). */
export function planSummary(p: BenchPlan): PlanSummary {
  return {
    includedCount: p.includedCount,
    retainedJoined: p.retainedJoined,
    excludedCount: p.excludedCount,
    excludedBy: p.excludedBy,
    trialCount: p.trialCount,
    modelCalls: p.modelCalls,
    modelCallsUpperBound: p.modelCallsUpperBound,
    judgeCalls: p.judgeCalls,
    warnings: p.warnings,
  };
}

/** The lines printed after launching bench `id`. */
export function launchLines(id: number, plan: PlanSummary, generated: GeneratedSummary | null | undefined, includeRetained: boolean): string[] {
  const out: string[] = [];
  const g = generated;
  if (g) {
    const n = counted;
    out.push(
      `generated ${n(g.criterionIds.length, "criterion", "criteria")} and ${n(g.caseIds.length, "scenario", "scenarios")} with ${g.model} (run ${g.runId}), accepted as generated items of the library${g.dropped ? `; ${num(g.dropped)} dropped` : ""}${g.refused.length ? `; ${num(g.refused.length)} refused (already in the rubric)` : ""}`,
    );
  }
  out.push(
    `bench #${id}: ${counted(plan.includedCount, "case")} included (${includeRetained ? `${counted(plan.retainedJoined, "retained regression case")} joined` : "retained regression cases left out"}), ${num(plan.excludedCount)} excluded, ${counted(plan.trialCount, "trial")} (${plan.modelCallsUpperBound ? "at most " : ""}${counted(plan.modelCalls, "model call")}, ${counted(plan.judgeCalls, "judge call")})`,
  );
  for (const w of plan.warnings) out.push(`  note: ${w}`);
  return out;
}
