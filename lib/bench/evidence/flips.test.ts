import { describe, expect, it } from "vitest";
import { flakyChecks, flipCount, flipTable, resolvedFlipCases, storedFlips, type FlipRow } from "./flips";

const cell = (passedTrials: number, scoredTrials: number, firstTrialId: number) => ({ passedTrials, scoredTrials, firstTrialId });

describe("flip table", () => {
  const rows: FlipRow[] = [
    { caseKey: "a", caseRevisionId: 1, cells: { 1: cell(3, 3, 10), 2: cell(0, 3, 20) } }, // regressed
    { caseKey: "b", caseRevisionId: 2, cells: { 1: cell(0, 3, 11), 2: cell(3, 3, 21) } }, // fixed
    { caseKey: "c", caseRevisionId: 3, cells: { 1: cell(2, 3, 12), 2: cell(0, 3, 22) } }, // baseline flaky
    { caseKey: "d", caseRevisionId: 4, cells: { 1: cell(3, 3, 13), 2: cell(3, 3, 23) } }, // same
    { caseKey: "e", caseRevisionId: 5, cells: { 1: cell(3, 3, 14), 2: cell(0, 0, 24) } }, // candidate unscored: not paired
    { caseKey: "f", caseRevisionId: 6, cells: { 1: cell(1, 1, 15), 2: cell(1, 2, 25) } }, // 1/1 → 1/2: regressed (rates)
    { caseKey: "g", caseRevisionId: 7, cells: { 1: cell(0, 3, 16), 2: cell(1, 3, 26) } }, // 0/3 → 1/3: better, but not a fix (README)
  ];
  it("sorts paired cases into regressed, fixed and flaky on the baseline, with the trial to open", () => {
    const [f] = flipTable(rows, 1, [1, 2]);
    expect(f.candidateId).toBe(2);
    expect(f.paired).toBe(6);
    expect(f.regressed.map((x) => [x.caseKey, x.trialId])).toEqual([
      ["a", 20],
      ["f", 25],
    ]);
    expect(f.fixed.map((x) => x.caseKey)).toEqual(["b"]);
    expect(f.flaky).toEqual([{ caseKey: "c", caseRevisionId: 3, candidate: { passed: 0, scored: 3 }, baseline: { passed: 2, scored: 3 }, trialId: 22 }]);
  });
  it("moves a regressed case whose regressions a confirm round cleared to 'flaky — cleared' (issue #16: it was still listed as regressed)", () => {
    // Candidate 2's regressions against the baseline: case a's two checks both cleared; case f's one still suspected.
    const resolved = resolvedFlipCases(
      {
        "2": [
          { caseRevisionId: 1, against: "baseline" },
          { caseRevisionId: 1, against: "baseline" },
          { caseRevisionId: 6, against: "baseline" },
        ],
      },
      {
        "2": {
          statuses: [
            ["cleared", 0.4],
            ["flaky on baseline", null],
            ["suspected", 0.5],
          ],
        },
      },
    );
    expect([...resolved.get(2)!]).toEqual([1]);
    const [f] = flipTable(rows, 1, [1, 2], resolved);
    expect(f.regressed.map((x) => x.caseKey)).toEqual(["f"]);
    expect(f.cleared.map((x) => [x.caseKey, x.trialId])).toEqual([["a", 20]]);
    const [stored] = storedFlips([f]);
    expect([flipCount(stored, "regressed"), flipCount(stored, "cleared")]).toEqual([1, 1]);
    // Stored before the kind existed: none.
    expect(flipCount({ ...stored, counts: { regressed: 1, fixed: 1, flaky: 1 } }, "cleared")).toBe(0);
  });
  it("lists the baseline's flaky checks, not its steady ones", () => {
    const t = (caseKey: string, rev: number, verdicts: string[]) => ({
      caseKey,
      caseRevisionId: rev,
      checks: verdicts.map((v, i) => ({ key: `k${i}`, label: `L${i}`, verdict: v })),
    });
    expect(
      flakyChecks([t("b", 2, ["passed", "passed"]), t("b", 2, ["failed", "passed"]), t("a", 1, ["unscored", "failed"]), t("a", 1, ["error", "failed"])]),
    ).toEqual([{ caseKey: "b", caseRevisionId: 2, key: "k0", label: "L0", baseline: { passed: 1, scored: 2 } }]);
  });
});
