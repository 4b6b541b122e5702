import { describe, expect, it } from "vitest";
import { capAfterRerun, rerunSpendCap, rerunSpendCapRefusal, rerunSpendCapSentence } from "./spend-cap";

describe("a rerun under the bench's spend cap", () => {
  // The tester's bench: a $2 cap, $1.98 spent over 99 trials ($0.02 each), a confirm round of 9 trials.
  const reached = rerunSpendCap({ usd: 2, trialEstimateUsd: 0.02 }, { spentUsd: 1.98, spentTrials: 99 }, 9)!;

  it("says what is left and that the cap stops the rerun, with the cap it needs", () => {
    // 1.98 + 0.02 = 2.00 fits one trial exactly; 1.98 + 9 × 0.02 = 2.16.
    expect(reached).toMatchObject({ capUsd: 2, spentUsd: 1.98, startable: 1, trials: 9, stops: true, neededUsd: 2.16 });
    expect(reached.leftUsd).toBeCloseTo(0.02, 10);
    expect(rerunSpendCapSentence(reached)).toBe(
      "Spend cap $2.00: $1.98 spent, $0.02 left; it would stop this rerun (1 of 9 trials could start): raise it to at least $2.16 for the rerun.",
    );
  });

  it("counts one trial in the singular (it said '0 of its 1 trials could start': issue #16)", () => {
    const one = rerunSpendCap({ usd: 1, trialEstimateUsd: 0.06 }, { spentUsd: 0.95, spentTrials: 20 }, 1)!;
    expect([one.stops, one.startable, one.trials]).toEqual([true, 0, 1]);
    expect(rerunSpendCapSentence(one)).toContain("(0 of 1 trial could start)");
    expect(rerunSpendCapRefusal(one, undefined)).toContain("0 of its 1 trial could start.");
  });

  it("counts a trial at the finished trials' mean cost when it is above the plan's estimate (as the queue does)", () => {
    const c = rerunSpendCap({ usd: 2, trialEstimateUsd: 0.01 }, { spentUsd: 1.5, spentTrials: 50 }, 9)!;
    expect(c.perTrialUsd).toBe(0.03);
    // (2 − 1.5) / 0.03 = 16.7: all 9 fit.
    expect([c.stops, c.startable, c.neededUsd]).toEqual([false, 9, 1.77]);
    expect(rerunSpendCapSentence(c)).toBe("Spend cap $2.00: $1.50 spent, $0.50 left; enough for this rerun.");
  });

  it("counts each trial at its candidate's estimate and a trial about to start at the dearest (as the queue does)", () => {
    // A confirm round of a cheap baseline ($0.02) and a dear candidate ($0.20), 3 cases each, $1.20 spent of $2.00.
    const cap = { usd: 2, trialEstimateUsd: 0.11, candidateTrialUsd: [0.02, 0.2] };
    const spent = {
      spentUsd: 1.2,
      spentTrials: 11,
      candidates: [
        { position: 0, spentUsd: 0.1, spentTrials: 5 },
        { position: 1, spentUsd: 1.1, spentTrials: 6 }, // $0.1833 each: its plan's $0.20 stays
      ],
    };
    const c = rerunSpendCap(cap, spent, 6, [0, 1, 0, 1, 0, 1])!;
    expect(c.perTrialUsd).toBe(0.2);
    // Dearest first: 1.2 + 0.2 ≤ 2, 1.4 + 0.2, 1.6 + 0.2, then 1.8 + 0.2 = 2.0 fits one cheap trial, 1.82 + 0.2 does not: 4 of 6.
    expect([c.stops, c.startable]).toEqual([true, 4]);
    // Every trial starts when the last (a cheap one) fits at the dearest estimate beside the others: 1.2 + 0.66 − 0.02 + 0.2 = 2.04.
    expect(c.neededUsd).toBe(2.04);
    // The plan states the rerun's cost from the measured means (3 × $0.02 + 3 × $0.1833 = $0.61): the sentence splits the cap it needs into that and the margin.
    expect(rerunSpendCapSentence({ ...c, rerunCostUsd: 0.61 })).toBe(
      "Spend cap $2.00: $1.20 spent, $0.80 left; it would stop this rerun (4 of 6 trials could start): raise it to at least $2.04 for the rerun " +
        "($1.20 spent + $0.61 this rerun's cost + $0.23 safety margin: the queue counts a trial about to start at the dearest candidate's cost, " +
        "and each candidate at the higher of its planned cost per trial and its dearest measured trial, whatever the case).",
    );
    expect(rerunSpendCapRefusal({ ...c, rerunCostUsd: 0.61 }, undefined)).toContain(
      "Raise the cap to at least $2.04 for the rerun ($1.20 spent + $0.61 this rerun's cost + $0.23 safety margin",
    );
    // Counted at a single mean ($0.11 each), the rerun seemed to fit, and the claim would then stop it.
    expect(rerunSpendCap({ usd: 2, trialEstimateUsd: 0.11 }, { spentUsd: 1.2, spentTrials: 11 }, 6)!.stops).toBe(false);
  });

  it("refuses a rerun the cap stops unless the cap is raised enough; no cap, nothing to refuse", () => {
    expect(rerunSpendCapRefusal(reached, undefined)).toBe(
      "The spend cap would stop this rerun: $1.98 of $2.00 spent, 1 of its 9 trials could start. Raise the cap to at least $2.16 for the rerun.",
    );
    expect(rerunSpendCapRefusal(reached, 2.1)).toBe(
      "The spend cap would stop this rerun: $1.98 of $2.00 spent, 1 of its 9 trials could start. A cap of $2.10 is not enough. Raise the cap to at least $2.16 for the rerun.",
    );
    expect(rerunSpendCapRefusal(reached, 2.16)).toBeNull();
    expect(rerunSpendCapRefusal(reached, 1)).toBe("The spend cap can only be raised for a rerun (it is $2.00).");
    expect(rerunSpendCap(undefined, { spentUsd: 5, spentTrials: 10 }, 9)).toBeNull();
    expect(rerunSpendCapRefusal(null, undefined)).toBeNull();
    expect(rerunSpendCapRefusal(null, 3)).toBe("This bench has no spend cap to raise.");
  });
});

describe("the cap after a rerun that raised it", () => {
  const raised = { usd: 2.5, trialEstimateUsd: 0.04, raisedForRerun: { fromUsd: 1.5, spentUsd: 1.36 } };
  it("keeps the cap the bench ran under before the raise when the raise stays (a tester: 'the spend cap ($2.50; $1.36 spent) kept them from starting' named the raised cap for skips made under $1.50)", () => {
    expect(capAfterRerun(raised, { cancelled: false, spentUsd: 1.45 })).toEqual({ usd: 2.5, trialEstimateUsd: 0.04, raisedFromUsd: 1.5 });
    // A second raise keeps the first cap: the one the launched run's skips were made under.
    expect(
      capAfterRerun({ ...raised, usd: 3, raisedFromUsd: 1.5, raisedForRerun: { fromUsd: 2.5, spentUsd: 1.45 } }, { cancelled: false, spentUsd: 1.6 }),
    ).toEqual({
      usd: 3,
      trialEstimateUsd: 0.04,
      raisedFromUsd: 1.5,
    });
  });
  it("goes back, with no trace of the raise, when the rerun is cancelled before it spent", () => {
    expect(capAfterRerun(raised, { cancelled: true, spentUsd: 1.36 })).toEqual({ usd: 1.5, trialEstimateUsd: 0.04 });
  });
});
