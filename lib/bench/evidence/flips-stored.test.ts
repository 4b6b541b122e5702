/** The flip table as stored with a bench summary (issue #16, speed): counts of every kind, the first cases of each. */
import { describe, expect, it } from "vitest";
import { flipCount, flipTable, storedFlips, type FlipRow } from "./flips";

const cell = (passedTrials: number, scoredTrials: number, firstTrialId: number) => ({ passedTrials, scoredTrials, firstTrialId });

describe("stored flips", () => {
  it("keep every kind's count and only its first cases, in manifest order", () => {
    // 7 regressed (even cases), 3 fixed (cases 1, 3, 5), 2 the baseline is flaky on (7, 9), 2 unchanged (11, 13).
    const rows: FlipRow[] = Array.from({ length: 14 }, (_, i) => ({
      caseKey: `c${i}`,
      caseRevisionId: 100 + i,
      cells:
        i % 2 === 0
          ? { 1: cell(1, 1, i), 2: cell(0, 1, 50 + i) }
          : i <= 5
            ? { 1: cell(0, 1, i), 2: cell(1, 1, 50 + i) }
            : i <= 9
              ? { 1: cell(1, 2, i), 2: cell(0, 2, 50 + i) }
              : { 1: cell(1, 1, i), 2: cell(1, 1, 50 + i) },
    }));
    const all = flipTable(rows, 1, [1, 2]);
    const [s] = storedFlips(all, 2);
    expect(s.counts).toEqual({ regressed: 7, fixed: 3, flaky: 2, cleared: 0 });
    expect(s.paired).toBe(14);
    expect(s.regressed.map((f) => [f.caseKey, f.trialId])).toEqual([
      ["c0", 50],
      ["c2", 52],
    ]);
    expect(s.fixed.map((f) => f.caseKey)).toEqual(["c1", "c3"]);
    expect(s.flaky.map((f) => f.caseKey)).toEqual(["c7", "c9"]);
    // Counted the same way from all flips and from the stored ones.
    for (const k of ["regressed", "fixed", "flaky"] as const) expect(flipCount(s, k)).toBe(flipCount(all[0], k));
  });
});
