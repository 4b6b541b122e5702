import { describe, expect, it } from "vitest";
import { candidateCounts } from "./candidate-line";

describe("candidateCounts (the counts on a candidate's summary line of bench run)", () => {
  it("counts what blocks, like the headline, with the cleared flake apart (r1.out said '2 regressions · 2 fixes' where the headline said 1)", () => {
    expect(
      candidateCounts({
        blockers: ["confirmed"],
        blockerReasons: [null],
        regressions: ["cleared", "confirmed"],
        fixes: 1,
        limits: ["cost per case +1957 % exceeds the +30 % limit"],
      }),
    ).toBe(" · 1 blocking regression (1 confirmed) · 1 flaky — cleared · 1 fix · blocked by the gate: cost per case +1957 % exceeds the +30 % limit");
  });

  it("says 'regression' for one and 'regressions' for more, and nothing when there is nothing to count", () => {
    expect(candidateCounts({ blockers: [], blockerReasons: [], regressions: [], fixes: 0, limits: [] })).toBe("");
    expect(
      candidateCounts({
        blockers: ["confirmed", "confirmed", "suspected"],
        blockerReasons: ["deterministic replay", null, null],
        regressions: [],
        fixes: 2,
        limits: [],
      }),
    ).toBe(" · 3 blocking regressions (1 confirmed, 1 confirmed by deterministic replay, 1 suspected) · 2 fixes");
    expect(candidateCounts({ blockers: [], blockerReasons: [], regressions: ["flaky on baseline"], fixes: 0, limits: [] })).toBe(" · 1 flaky on baseline");
  });
});
