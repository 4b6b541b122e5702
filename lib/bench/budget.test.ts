import { describe, expect, it } from "vitest";
import {
  budgetAllowance,
  budgetSkipLine,
  budgetSkipReason,
  candidateEstimates,
  capAllowance,
  inFlightEstimate,
  isBudgetSkip,
  outcomeSpend,
  trialCostEstimate,
  usd,
} from "./budget";

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

describe("a cap over candidates of different price", () => {
  const cap = { usd: 2, trialEstimateUsd: 0.11, candidateTrialUsd: [0.02, 0.2] };
  const cand = (position: number, running: number, spentUsd = 0, spentTrials = 0) => ({ position, running, spentUsd, spentTrials });

  it("counts each running trial at its own candidate's estimate, and a new one at the dearest", () => {
    // $0.50 spent; running: 3 cheap ($0.06) + 5 dear ($1.00) = $1.06; left $0.44 → 2 more at $0.20.
    const a = capAllowance(cap, { spentUsd: 0.5, spentTrials: 10 }, [cand(0, 3), cand(1, 5)]);
    expect(a).toEqual({ startable: 2, exhausted: false, runningUsd: expect.closeTo(1.06, 12), dearestUsd: 0.2 });
    // At the single mean ($0.11) the same 8 running trials counted $0.88: 5 more would have started, $0.50 past the cap once they ran.
    expect(budgetAllowance({ capUsd: 2, spentUsd: 0.5, running: 8, trialEstimateUsd: 0.11 }).startable).toBe(5);
  });

  it("uses a candidate's mean cost per finished trial when it is above the plan's figure", () => {
    // Candidate 0's 4 finished trials cost $0.05 each, over its plan's $0.02; candidate 1's one
    // finished trial cost its plan's $0.20, so its own mean (not candidate 0's overrun) holds.
    expect(candidateEstimates(cap, { spentUsd: 0.4, spentTrials: 5 }, [cand(0, 0, 0.2, 4), cand(1, 0, 0.2, 1)])).toEqual([0.05, 0.2]);
  });

  it("counts a running trial at its candidate's dearest finished trial, not its mean, when that is above the plan's figure", () => {
    // Found by a tester ($2 cap spent $2.21): a candidate at $0.017 on most cases and $0.225 on
    // some. Its 4 finished trials (3 cheap, 1 dear) average $0.069, under a dear trial's cost.
    const varied = { ...cand(1, 0, 3 * 0.017 + 0.225, 4), maxTrialUsd: 0.225 };
    expect(candidateEstimates(cap, { spentUsd: 0.4, spentTrials: 5 }, [cand(0, 0, 0.02, 1), varied])).toEqual([0.02, 0.225]);
    // 8 of its trials running, $1.00 spent: at the mean ($0.069 → the plan's $0.20) 1 more started; at $0.225 none fits.
    expect(capAllowance(cap, { spentUsd: 1, spentTrials: 5 }, [cand(0, 0, 0.02, 1), { ...varied, running: 4 }])).toMatchObject({
      startable: 0,
      exhausted: false,
      dearestUsd: 0.225,
    });
    // Below the plan's figure the plan's holds; without a stored dearest (0: finished before it was stored) the mean stands in.
    expect(candidateEstimates(cap, { spentUsd: 0.1, spentTrials: 2 }, [cand(0, 0, 0.06, 1), { ...cand(1, 0, 0.04, 1), maxTrialUsd: 0.04 }])).toEqual([
      0.06, 0.2,
    ]);
    expect(candidateEstimates(cap, { spentUsd: 0.3, spentTrials: 2 }, [cand(0, 0), { ...cand(1, 0, 0.3, 1), maxTrialUsd: 0 }])).toEqual([
      expect.closeTo(0.03, 12),
      0.3,
    ]);
  });

  it("scales the plan's figure of a candidate with no finished trial by how far the others ran over theirs", () => {
    // Found trying it for real: answers 8× longer than the plan's token estimate. The cheap
    // candidate's 4 trials cost $0.16 (2× its plan's $0.02 each): the dear one counts at 2 × $0.20.
    expect(candidateEstimates(cap, { spentUsd: 0.16, spentTrials: 4 }, [cand(0, 0, 0.16, 4), cand(1, 3)])).toEqual([0.04, 0.4]);
    // Cheaper than planned does not lower it: never below the plan's figure.
    expect(candidateEstimates(cap, { spentUsd: 0.04, spentTrials: 4 }, [cand(0, 0, 0.04, 4), cand(1, 3)])).toEqual([0.02, 0.2]);
  });

  it("is exhausted once spent + the dearest trial passes the cap, even though a cheap one would fit", () => {
    expect(capAllowance(cap, { spentUsd: 1.85, spentTrials: 20 }, [cand(0, 0), cand(1, 0)])).toMatchObject({ startable: 0, exhausted: true });
    expect(capAllowance(cap, { spentUsd: 1.8, spentTrials: 20 }, [cand(0, 0), cand(1, 0)])).toMatchObject({ startable: 1, exhausted: false });
  });

  it("falls back to the bench's single figure on a bench launched without per-candidate estimates", () => {
    const old = { usd: 1, trialEstimateUsd: 0.1 };
    // The bench's mean ($0.15 over 2 trials) is above the plan's $0.10: every candidate counts at it.
    expect(candidateEstimates(old, { spentUsd: 0.3, spentTrials: 2 }, [cand(0, 0), cand(1, 0)])).toEqual([0.15, 0.15]);
    expect(capAllowance(old, { spentUsd: 0.3, spentTrials: 2 }, [cand(0, 1), cand(1, 1)])).toMatchObject({ startable: 2, exhausted: false });
    // No candidate rows: the single figure, as before.
    expect(capAllowance(old, { spentUsd: 0, spentTrials: 0 }, [])).toMatchObject({ startable: 10, dearestUsd: 0.1 });
  });
});

describe("the closing line on budget skips", () => {
  it("names the cap the skips were made under when a rerun raised it later (it said 'the spend cap ($2.50; $1.36 spent)')", () => {
    expect(budgetSkipLine({ usd: 2.5, trialEstimateUsd: 0.04, raisedFromUsd: 1.5 }, 1.36, 103)).toBe(
      "103 trials skipped as budget: the spend cap of $1.50 kept them from starting ($1.36 spent; raised to $2.50 later for a rerun).",
    );
  });
  it("names the cap as it stands when it was never raised", () => {
    expect(budgetSkipLine({ usd: 1.5, trialEstimateUsd: 0.04 }, 1.49, 1)).toBe(
      "1 trial skipped as budget: the spend cap of $1.50 kept it from starting ($1.49 spent).",
    );
  });
});
