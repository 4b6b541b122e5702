import { describe, expect, it } from "vitest";
import { budgetAllowance, budgetSkipReason, inFlightEstimate, isBudgetSkip, outcomeSpend, trialCostEstimate, usd } from "./budget";

describe("spend cap allowance", () => {
  it("lets start only what fits beside the spent and the running trials' estimates", () => {
    // $1.00 cap, $0.10 per trial, $0.35 spent, 2 running: 0.35 + (2 + k) × 0.10 ≤ 1.00 → k ≤ 4.5 → 4.
    expect(budgetAllowance({ capUsd: 1, spentUsd: 0.35, running: 2, trialEstimateUsd: 0.1 })).toEqual({ startable: 4, exhausted: false });
    // A cap of exactly 3 trials (float sums: 0.1 × 3 > 0.3 by a hair) allows 3.
    expect(budgetAllowance({ capUsd: 0.3, spentUsd: 0, running: 0, trialEstimateUsd: 0.1 })).toEqual({ startable: 3, exhausted: false });
  });

  it("waits (not exhausted) while running trials hold the rest of the cap", () => {
    expect(budgetAllowance({ capUsd: 0.3, spentUsd: 0.1, running: 2, trialEstimateUsd: 0.1 })).toEqual({ startable: 0, exhausted: false });
  });

  it("is exhausted once spent + one trial passes the cap", () => {
    expect(budgetAllowance({ capUsd: 0.3, spentUsd: 0.25, running: 0, trialEstimateUsd: 0.1 })).toEqual({ startable: 0, exhausted: true });
    expect(budgetAllowance({ capUsd: 0.3, spentUsd: 0.31, running: 0, trialEstimateUsd: 0 }).exhausted).toBe(true);
  });

  it("does not limit trials estimated to cost nothing (recorded candidates without a judge)", () => {
    expect(budgetAllowance({ capUsd: 0.3, spentUsd: 0, running: 5, trialEstimateUsd: 0 })).toEqual({ startable: Infinity, exhausted: false });
  });
});

describe("budget helpers", () => {
  it("estimates per trial from the plan, null without prices", () => {
    expect(trialCostEstimate({ trialCount: 40, estimate: { costUsd: 2 } })).toBe(0.05);
    expect(trialCostEstimate({ trialCount: 40, estimate: { costUsd: null } })).toBeNull();
  });
  it("names the reason and recognises it", () => {
    expect(budgetSkipReason(0.5, 0.48)).toBe("budget: the spend cap of $0.50 would be passed ($0.48 spent)");
    expect(isBudgetSkip(budgetSkipReason(1, 0))).toBe(true);
    expect(isBudgetSkip("cancelled before it ran")).toBe(false);
    expect(usd(0.0042)).toBe("$0.0042");
  });
  it("counts a trial's model and judge spend", () => {
    expect(
      outcomeSpend({
        costUsd: 0.01,
        checks: [
          { key: "j", kind: "judge", label: "j", verdict: "passed", score: 1, message: "", usage: { inputTokens: 1, outputTokens: 1, costUsd: 0.002 } },
          { key: "e", kind: "exact", label: "e", verdict: "passed", score: 1, message: "" },
        ],
      }),
    ).toBeCloseTo(0.012, 12);
  });
});

describe("what a running trial counts for", () => {
  it("is the plan's estimate until finished trials cost more on average", () => {
    expect(inFlightEstimate(0.001, { spentUsd: 0, spentTrials: 0 })).toBe(0.001);
    expect(inFlightEstimate(0.001, { spentUsd: 0.004, spentTrials: 8 })).toBe(0.001); // $0.0005 each: the plan's stays
    expect(inFlightEstimate(0.0005, { spentUsd: 0.0072, spentTrials: 8 })).toBeCloseTo(0.0009, 15); // $0.0009 each, over the plan's $0.0005
  });
});
