import { describe, expect, it } from "vitest";
import type { CaseCell } from "./aggregate";
import { compareBenches, verdictChange, type CompareRow } from "./compare";

const row = (caseKey: string, rev: number, cells: Record<number, [CaseCell["verdict"], number]>): CompareRow => ({
  caseKey,
  caseRevisionId: rev,
  cells: Object.fromEntries(Object.entries(cells).map(([id, [verdict, trial]]) => [id, { verdict, firstTrialId: trial }])),
});

describe("verdictChange", () => {
  it("names regressions and fixes; mixed counts as failing", () => {
    expect(verdictChange("passed", "failed")).toBe("regressed");
    expect(verdictChange("passed", "mixed")).toBe("regressed");
    expect(verdictChange("failed", "passed")).toBe("fixed");
    expect(verdictChange("mixed", "passed")).toBe("fixed");
    expect(verdictChange("failed", "mixed")).toBe("same");
    expect(verdictChange("passed", "passed")).toBe("same");
    expect(verdictChange("passed", "error")).toBe("changed");
    expect(verdictChange("absent", "passed")).toBe("changed");
    expect(verdictChange("unscored", "unscored")).toBe("same");
  });
});

describe("compareBenches", () => {
  // Bench A: candidate 1; bench B: candidate 7.
  const a = [
    row("case-2", 20, { 1: ["passed", 101] }),
    row("case-10", 100, { 1: ["failed", 102] }),
    row("case-1", 10, { 1: ["passed", 103] }),
    row("gone", 5, { 1: ["passed", 104] }),
  ];
  const b = [
    row("case-1", 10, { 7: ["passed", 201] }),
    row("case-2", 21, { 7: ["failed", 202] }),
    row("case-10", 100, { 7: ["passed", 203] }),
    row("new", 6, { 7: ["error", 204] }),
  ];

  it("lists regressions, fixes, other changes, then unchanged cases, with the trials to open", () => {
    const { lines, counts } = compareBenches(a, b, 1, 7);
    expect(lines.map((l) => [l.caseKey, l.change])).toEqual([
      ["case-2", "regressed"],
      ["case-10", "fixed"],
      ["gone", "changed"],
      ["new", "changed"],
      ["case-1", "same"],
    ]);
    expect(counts).toEqual({ regressed: 1, fixed: 1, changed: 2, same: 1 });
    expect(lines[0]).toEqual({
      caseKey: "case-2",
      before: "passed",
      after: "failed",
      beforeTrialId: 101,
      afterTrialId: 202,
      change: "regressed",
      revisionChanged: true,
      regressedChecks: [],
    });
    expect(lines.find((l) => l.caseKey === "gone")).toMatchObject({ before: "passed", after: "absent", afterTrialId: null, revisionChanged: false });
  });

  it("a case that fails in both benches but has a check that passed before and fails now is regressed, naming the check (as the bench page counts it)", () => {
    const { lines, counts } = compareBenches(a, b, 1, 7, new Map([["case-1", ["Output is not empty"]]]));
    expect(lines[0]).toMatchObject({ caseKey: "case-1", before: "passed", after: "passed", change: "regressed", regressedChecks: ["Output is not empty"] });
    expect(counts).toEqual({ regressed: 2, fixed: 1, changed: 2, same: 0 });
    const failingBoth = [row("k", 1, { 1: ["failed", 1] })];
    const again = [row("k", 1, { 7: ["failed", 2] })];
    expect(compareBenches(failingBoth, again, 1, 7).lines[0].change).toBe("same");
    expect(compareBenches(failingBoth, again, 1, 7, new Map([["k", ["Calls get_order", "Output is not empty"]]])).lines[0]).toMatchObject({
      change: "regressed",
      regressedChecks: ["Calls get_order", "Output is not empty"],
    });
  });

  it("reads the chosen candidate of each bench; a candidate with no trials is absent", () => {
    const { lines } = compareBenches(a, b, 1, 99);
    expect(new Set(lines.map((l) => l.after))).toEqual(new Set(["absent"]));
  });
});
