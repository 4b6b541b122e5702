import { describe, expect, it } from "vitest";
import { rerunCost, rerunCostText } from "./cost";

describe("a rerun's cost, from what the bench measured", () => {
  it("prices each trial at its candidate's mean cost per finished trial, the plan's figure only without one", () => {
    // The tester's #11: 2 trials of a $0.011 candidate and 2 of a $0.225 one; the plan said $0.1040 in all.
    const measured = rerunCost([
      { trials: 2, plannedUsd: 0.052, spentUsd: 0.066, spentTrials: 6 },
      { trials: 2, plannedUsd: 0.052, spentUsd: 1.35, spentTrials: 6 },
    ]);
    expect(measured.costUsd).toBeCloseTo(0.472, 10);
    expect(measured.costFrom).toEqual({ measuredTrials: 4, plannedTrials: 0 });
    expect(rerunCostText(measured.costUsd, measured.costFrom)).toBe("about $0.47 (each trial at its candidate's measured cost per trial in this bench)");

    const mixed = rerunCost([
      { trials: 1, plannedUsd: 0.03, spentUsd: 0, spentTrials: 0 },
      { trials: 2, plannedUsd: 0.05, spentUsd: 0.4, spentTrials: 2 },
    ]);
    expect(mixed.costUsd).toBeCloseTo(0.43, 10);
    expect(rerunCostText(mixed.costUsd, mixed.costFrom)).toBe(
      "about $0.43 (2 trials at their candidate's measured cost per trial in this bench, 1 at the plan's token estimate (no trial of their candidate has finished))",
    );
  });

  it("is unknown when a model has no prices (its trials were counted at $0)", () => {
    const r = rerunCost([{ trials: 3, plannedUsd: null, spentUsd: 0, spentTrials: 6 }]);
    expect(r.costUsd).toBeNull();
    expect(rerunCostText(r.costUsd, r.costFrom)).toBe("cost unknown (a model has no prices set)");
  });
});
