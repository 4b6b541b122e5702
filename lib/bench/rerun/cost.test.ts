import { describe, expect, it } from "vitest";
import { rerunCost, rerunCostText, type RerunCandidateCost } from "./cost";

const cand = (o: Partial<RerunCandidateCost>): RerunCandidateCost => ({ plannedPerTrialUsd: 0.026, spentUsd: 0, spentTrials: 0, modelUsd: 0, ...o });

describe("a rerun's cost, from what the bench measured", () => {
  it("prices each trial at its candidate's trials of that case, else its candidate's mean, the plan's figure only without a finished trial", () => {
    // The tester's #11: errored trials of a $0.011 candidate and a $0.225 one, on cases none of whose trials finished; the plan said $0.1040 in all.
    const candidates = new Map([
      [1, cand({ spentUsd: 0.066, spentTrials: 6, modelUsd: 0.066 })],
      [2, cand({ spentUsd: 1.35, spentTrials: 6, modelUsd: 1.35 })],
    ]);
    const errors = rerunCost(
      [
        { candidateId: 1, benchCaseId: 10 },
        { candidateId: 1, benchCaseId: 11 },
        { candidateId: 2, benchCaseId: 10 },
        { candidateId: 2, benchCaseId: 11 },
      ],
      candidates,
      new Map(),
    );
    expect(errors.costUsd).toBeCloseTo(0.472, 10);
    expect(errors.costFrom).toEqual({ caseTrials: 0, candidateTrials: 4, plannedTrials: 0 });
    expect(rerunCostText(errors.costUsd, errors.costFrom)).toBe("about $0.47 (each trial at its candidate's mean cost per trial in this bench)");

    // A confirm round on a case whose answers are short: candidate 2's trials of case 10 cost $0.02 of model calls,
    // and its judge $0.05 a trial ($1.35 spent, $1.05 of it by its model).
    const confirm = rerunCost(
      [
        { candidateId: 2, benchCaseId: 10 },
        { candidateId: 2, benchCaseId: 10 },
        { candidateId: 3, benchCaseId: 10 },
      ],
      new Map([...candidates, [2, cand({ spentUsd: 1.35, spentTrials: 6, modelUsd: 1.05 })], [3, cand({ plannedPerTrialUsd: 0.03 })]]),
      new Map([["2|10", { doneUsd: 0.06, done: 3 }]]),
    );
    expect(confirm.costUsd).toBeCloseTo(2 * (0.02 + 0.05) + 0.03, 10);
    expect(rerunCostText(confirm.costUsd, confirm.costFrom)).toBe(
      "about $0.17 (2 of 3 trials at what their candidate's trials of that case cost in this bench, 1 at the plan's token estimate (no trial of their candidate has finished))",
    );
  });

  it("is unknown when a model has no prices (its trials were counted at $0)", () => {
    const r = rerunCost([{ candidateId: 1, benchCaseId: 1 }], new Map([[1, cand({ plannedPerTrialUsd: null, spentTrials: 6 })]]), new Map());
    expect(r.costUsd).toBeNull();
    expect(rerunCostText(r.costUsd, r.costFrom)).toBe("cost unknown (a model has no prices set)");
  });
});
