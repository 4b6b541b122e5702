import { describe, expect, it } from "vitest";
import type { BenchSettings } from "@/db/queries/benches";
import type { BenchRequest } from "@/lib/bench/request";
import type { BenchPlan } from "@/lib/bench/types";
import { applyBudgetSettings } from "./budget-settings";

const settings = (): BenchSettings => ({ selection: { kind: "all" }, budget: null, repeats: 1, concurrency: 4, timeoutMs: 1000, maxSteps: 1 });
const plan = (costUsd: number | null, trialCount = 40) =>
  ({ trialCount, estimate: { inputTokens: 0, outputTokens: 0, costUsd }, warnings: [] as string[] }) as unknown as BenchPlan;
const req = (o: Partial<BenchRequest>) => ({ baseline: { kind: "candidate", index: 0 }, ...o }) as BenchRequest;

describe("spend cap and gate limits into the bench settings", () => {
  it("stores the cap with the plan's cost per trial, and warns when the estimate is over it", () => {
    const s = settings();
    const p = plan(2); // $0.05 per trial
    applyBudgetSettings(s, req({ spendCapUsd: 1 }), p);
    expect(s.spendCap).toEqual({ usd: 1, trialEstimateUsd: 0.05 });
    expect(p.warnings).toEqual([
      "The estimated cost ($2.00) is over the spend cap of $1.00. Trials start while what was spent plus one trial's estimate stays within the cap: at the plan's $0.05 a trial (it counts every answer at its output-token limit), 20 of the 40 trials fit, and trials that cost less let more start. The rest will be skipped as “budget”.",
    ]);
  });
  // Issue 20's tester: "about 4 of the 400 trials can start" under a $0.50 cap, and 28 ran ($0.39 spent). The figure is
  // what fits at the plan's estimate (an upper bound per answer), counted as the claim counts a new trial: at the dearest candidate's.
  it("counts the trials that fit as the claim does, at the dearest candidate's estimate, and says cheaper trials let more start", () => {
    const s = settings();
    const p = { ...plan(0.88, 8), candidateTrialCostUsd: [0.02, 0.2] } as BenchPlan; // mean $0.11: the old note said "about 4"
    applyBudgetSettings(s, req({ spendCapUsd: 0.5 }), p);
    expect(p.warnings).toEqual([
      "The estimated cost ($0.88) is over the spend cap of $0.50. Trials start while what was spent plus one trial's estimate stays within the cap: at the plan's $0.20 a trial (the dearest candidate's; it counts every answer at its output-token limit), 2 of the 8 trials fit, and trials that cost less let more start. The rest will be skipped as “budget”.",
    ]);
  });
  it("stores each candidate's cost per trial beside the mean (what the claim counts a running trial of it for)", () => {
    const s = settings();
    const p = { ...plan(0.88, 8), candidateTrialCostUsd: [0.02, 0.2] } as BenchPlan;
    applyBudgetSettings(s, req({ spendCapUsd: 2 }), p);
    expect(s.spendCap).toEqual({ usd: 2, trialEstimateUsd: 0.11, candidateTrialUsd: [0.02, 0.2] });
  });
  it("stores nothing and warns of nothing without a cap or limits", () => {
    const s = settings();
    const p = plan(null);
    applyBudgetSettings(s, req({ spendCapUsd: null, maxLatencyIncreasePct: null }), p);
    expect(s).toEqual(settings());
    expect(p.warnings).toEqual([]);
  });
  it("refuses a cap the plan cannot price, naming the field", () => {
    expect(() => applyBudgetSettings(settings(), req({ spendCapUsd: 1 }), plan(null))).toThrow(
      expect.objectContaining({ fieldErrors: { spendCapUsd: expect.stringMatching(/needs prices/) } }),
    );
  });
  it("keeps the limits, and warns that they block nothing without a baseline candidate", () => {
    const s = settings();
    const p = plan(0);
    applyBudgetSettings(s, req({ baseline: { kind: "last-bench" }, maxLatencyIncreasePct: 20, maxCostIncreasePct: 0 }), p);
    expect(s.gate).toEqual({ maxLatencyIncreasePct: 20, maxCostIncreasePct: 0 });
    expect(p.warnings).toEqual(["Gate limits compare each candidate with the baseline candidate: with no baseline candidate they block nothing."]);
  });
});
