import { describe, expect, it } from "vitest";
import type { PairedComparison } from "@/lib/bench/stats/paired";
import { failOnMessage, failOnReasons, parseFailOn } from "./fail-on";
import type { HeadlineCandidate, PrimaryComparison } from "./headline";
import { labelledComparison } from "./test-support/comparison";

const cmp = labelledComparison;
const cand: HeadlineCandidate = { label: "cand", isBaseline: false, comparisons: [], blockers: [] };
const primary = (o: Partial<PairedComparison>): PrimaryComparison => ({ candidate: cand, comparison: cmp(o) });
const better = primary({ delta: 0.2, ci95: [0.1, 0.3], pValue: 0.0004, verdict: "better" });
const unblocked = { regressions: 0, limits: [] };

describe("parseFailOn", () => {
  it("takes a comma-separated, repeatable list and names an unknown value", () => {
    expect(parseFailOn([])).toEqual([]);
    expect(parseFailOn(["worse,inconclusive", "worse"])).toEqual(["worse", "inconclusive"]);
    expect(() => parseFailOn(["worse,better"])).toThrow('--fail-on takes worse and/or inconclusive, comma-separated (got "better")');
  });
});

describe("failOnMessage", () => {
  it("passes a better, unblocked primary comparison under both rules", () => {
    expect(failOnMessage(failOnReasons(better, unblocked), ["worse", "inconclusive"])).toBeNull();
  });

  it("fails a better candidate blocked by a regression or a gate limit under worse and inconclusive", () => {
    const r = failOnReasons(better, { regressions: 1, limits: ["cost per case +1957 % exceeds the +30 % limit"] });
    expect(failOnMessage(r, ["worse"])).toBe("--fail-on worse: cand is blocked: 1 blocking regression; cost per case +1957 % exceeds the +30 % limit");
    expect(failOnMessage(r, ["inconclusive"])).toBe(
      "--fail-on inconclusive: cand is blocked: 1 blocking regression; cost per case +1957 % exceeds the +30 % limit",
    );
  });

  it("fails a worse verdict under worse and under inconclusive; an inconclusive one only under inconclusive", () => {
    const w = failOnReasons(primary({ delta: -0.325, ci95: [-0.4, -0.25], pValue: 1e-9, verdict: "worse" }), unblocked);
    expect(failOnMessage(w, ["worse"])).toBe("--fail-on worse: cand is worse than base (−32.5 points, p < 0.001)");
    expect(failOnMessage(w, ["inconclusive"])).toBe("--fail-on inconclusive: cand is worse than base (−32.5 points, p < 0.001)");
    const i = failOnReasons(primary({ delta: -0.05, ci95: [-0.119, 0.019], pValue: 0.2 }), unblocked);
    expect(failOnMessage(i, ["worse"])).toBeNull();
    expect(failOnMessage(i, ["inconclusive"])).toBe(
      "--fail-on inconclusive: cand vs base is inconclusive (the 95 % interval spans 0 or the test is not significant)",
    );
    expect(failOnMessage(failOnReasons(null, unblocked), ["worse"])).toBeNull();
    expect(failOnMessage(failOnReasons(null, unblocked), ["inconclusive"])).toBe(
      "--fail-on inconclusive: nothing was compared (one candidate and no earlier bench)",
    );
  });
});
