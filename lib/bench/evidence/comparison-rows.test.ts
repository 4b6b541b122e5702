import { describe, expect, it } from "vitest";
import { compareCandidates } from "@/lib/bench/stats/paired";
import { oneTrialTallies } from "./test-support/one-trial-tallies";
import { comparisonRows, sortComparisonRows } from "./comparison-rows";

const tallies = oneTrialTallies;

describe("comparisonRows", () => {
  // 28 agreeing cases, b = 2, c = 10: Δ = 8/40 = +20.0 points, SE = √(12 − 64/40)/40 = 0.0806,
  // CI 0.2 ± 1.96·0.0806 = +4.2 to +35.8; exact McNemar p = 0.03857 (the reference) → better.
  const better = compareCandidates(...tallies(28, 2, 10));
  const worse = compareCandidates(...tallies(28, 10, 2));

  it("writes every comparison of every candidate with its verdict, Δ, CI, p and test, n and the smallest detectable difference", () => {
    const rows = comparisonRows(
      [
        { label: "base", comparisons: [] },
        {
          label: "cand",
          comparisons: [
            { ...worse, against: "last", againstCandidate: "old", againstBenchId: 8 },
            { ...better, against: "baseline", againstCandidate: "base" },
          ],
        },
      ],
      8,
    );
    expect(rows).toHaveLength(2);
    const [b, l] = rows;
    expect(b.against).toBe("baseline (base)");
    expect(b.verdict).toBe("better");
    expect(b.delta).toBe("+20.0 points");
    expect(b.ci).toBe("95 % CI +4.2 to +35.8");
    expect(b.test).toBe("p = 0.039 · exact McNemar");
    expect(b.n).toBe(40);
    // The primary's detectable difference is shown even when it is `better`.
    expect(b.detectable).toMatch(/^≥ \d+ points$/);
    expect(l.against).toBe("last bench #8 (old)");
    expect(l.verdict).toBe("worse");
    // One minus sign, U+2212, never a hyphen.
    expect(l.delta).toBe("\u221220.0 points");
    expect(l.ci).toBe("95 % CI \u221235.8 to \u22124.2");
  });

  it("says when nothing was paired", () => {
    const none = compareCandidates(new Map(), new Map());
    const [r] = comparisonRows([{ label: "c", comparisons: [{ ...none, against: "baseline", againstCandidate: "b" }] }], null);
    expect(r).toMatchObject({ delta: "—", ci: "no interval", test: "—", n: 0, detectable: "— (too few cases)", verdict: "inconclusive" });
  });

  it("sorts by Δ, p or verdict, missing values last", () => {
    const none = compareCandidates(new Map(), new Map());
    const rows = comparisonRows(
      [
        { label: "a", comparisons: [{ ...better, against: "baseline", againstCandidate: "x" }] },
        { label: "b", comparisons: [{ ...none, against: "baseline", againstCandidate: "x" }] },
        { label: "c", comparisons: [{ ...worse, against: "baseline", againstCandidate: "x" }] },
      ],
      null,
    );
    expect(sortComparisonRows(rows, "delta", "asc").map((r) => r.candidate)).toEqual(["c", "a", "b"]);
    expect(sortComparisonRows(rows, "delta", "desc").map((r) => r.candidate)).toEqual(["a", "c", "b"]);
    expect(sortComparisonRows(rows, "verdict", "asc").map((r) => r.verdict)).toEqual(["worse", "inconclusive", "better"]);
    expect(sortComparisonRows(rows, "candidate", "desc").map((r) => r.candidate)).toEqual(["c", "b", "a"]);
  });
});
