import { describe, expect, it } from "vitest";
import type { PairedComparison } from "@/lib/bench/stats/paired";
import { evidenceHeadline, primaryComparison, type HeadlineCandidate, type LabelledComparison } from "./headline";
import { labelledComparison } from "./test-support/comparison";

// Every comparison here names what it is against.
const cmp = (o: Partial<PairedComparison> & Pick<LabelledComparison, "against" | "againstCandidate">): LabelledComparison => labelledComparison(o);
const base: HeadlineCandidate = { label: "6b-finetuning", isBaseline: true, comparisons: [], blockers: [] };

describe("evidenceHeadline", () => {
  it("says who beats whom by how much, with the interval, p and paired cases, and what blocks it (the issue's first example)", () => {
    const cand: HeadlineCandidate = {
      label: "175b-verification",
      isBaseline: false,
      comparisons: [cmp({ against: "baseline", againstCandidate: "6b-finetuning", delta: 0.325, ci95: [0.253, 0.397], pValue: 2e-12, verdict: "better" })],
      blockers: ["suspected", "suspected", "confirmed", "suspected", "suspected"],
    };
    expect(evidenceHeadline([cand, base])).toBe(
      "175b-verification beats 6b-finetuning by +32.5 points (95 % CI +25.3 to +39.7, p < 0.001, 200 paired cases); 5 regressions block it (1 confirmed, 4 suspected)",
    );
  });

  it("counts regressions confirmed as deterministic replays apart from those repeats confirmed", () => {
    const cand: HeadlineCandidate = {
      label: "6b-verification",
      isBaseline: false,
      comparisons: [cmp({ against: "baseline", againstCandidate: "6b-finetuning", delta: 0.15, ci95: [0.087, 0.213], pValue: 9.2e-6, verdict: "better" })],
      blockers: ["confirmed", "confirmed", "confirmed", "suspected"],
      blockerReasons: ["deterministic replay", null, "deterministic replay", null],
    };
    expect(evidenceHeadline([cand, base])).toBe(
      "6b-verification beats 6b-finetuning by +15.0 points (95 % CI +8.7 to +21.3, p < 0.001, 200 paired cases); 4 regressions block it (1 confirmed, 2 confirmed by deterministic replay, 1 suspected)",
    );
    expect(evidenceHeadline([{ ...cand, blockers: ["confirmed"], blockerReasons: ["deterministic replay"] }, base])).toMatch(
      /; 1 regression blocks it \(1 confirmed by deterministic replay\)$/,
    );
  });

  it("says why it cannot tell when the interval excludes 0 but the test does not reach p < 0.05 (not a bare 'no detectable difference')", () => {
    // Seen by the new-team pass: b = 4 regressions, c = 0 fixes of 29 paired cases → Δ = −13.8, Wald CI
    // −26.3 to −1.2, exact McNemar p = 0.125; the verdict is inconclusive by design (paired.ts), and the
    // sentence must not read as if the interval said so too.
    const cand: HeadlineCandidate = {
      label: "Scripted",
      isBaseline: false,
      comparisons: [
        cmp({
          against: "baseline",
          againstCandidate: "6b",
          n: 29,
          regressions: 4,
          delta: -4 / 29,
          ci95: [-0.263, -0.012],
          pValue: 0.125,
          minDetectableEffect: 0.205,
        }),
      ],
      blockers: ["suspected", "suspected", "suspected", "suspected"],
    };
    expect(evidenceHeadline([cand, { ...base, label: "6b" }])).toBe(
      "No difference its test can confirm between Scripted and 6b (−13.8 points, 95 % CI −26.3 to −1.2, p = 0.125, 29 paired cases): the interval excludes 0 but the test does not reach p < 0.05; this bench can detect ≥ 21 points; add cases or repeats; 4 regressions block it (4 suspected)",
    );
  });

  it("says an inconclusive comparison cannot tell, and the smallest difference this bench could detect (the issue's second example)", () => {
    const cand: HeadlineCandidate = {
      label: "b",
      isBaseline: false,
      comparisons: [cmp({ against: "baseline", againstCandidate: "a", delta: -0.05, ci95: [-0.119, 0.019], pValue: 0.15, minDetectableEffect: 0.065 })],
      blockers: [],
    };
    expect(evidenceHeadline([cand, { ...base, label: "a" }])).toBe(
      "No detectable difference between b and a (−5.0 points, 95 % CI −11.9 to +1.9, p = 0.150, 200 paired cases): this bench can detect ≥ 7 points; add cases or repeats",
    );
  });

  it("says a worse candidate is worse, with one regression in the singular", () => {
    const cand: HeadlineCandidate = {
      label: "b",
      isBaseline: false,
      comparisons: [cmp({ against: "baseline", againstCandidate: "a", n: 1, delta: -0.2, ci95: [-0.3, -0.1], pValue: 0.0012, verdict: "worse" })],
      blockers: ["confirmed"],
    };
    expect(evidenceHeadline([base, cand])).toBe(
      "b is worse than a by −20.0 points (95 % CI −30.0 to −10.0, p = 0.0012, 1 paired case); 1 regression blocks it (1 confirmed)",
    );
  });

  it("takes the best-ranked non-baseline candidate against the baseline, even when it also has a last-bench comparison", () => {
    const second: HeadlineCandidate = { label: "c", isBaseline: false, comparisons: [cmp({ against: "baseline", againstCandidate: "a" })], blockers: [] };
    const first: HeadlineCandidate = {
      label: "b",
      isBaseline: false,
      comparisons: [cmp({ against: "last", againstCandidate: "z" }), cmp({ against: "baseline", againstCandidate: "a" })],
      blockers: [],
    };
    const p = primaryComparison([{ ...base, comparisons: [cmp({ against: "last", againstCandidate: "z" })] }, first, second]);
    expect(p?.candidate.label).toBe("b");
    expect(p?.comparison.againstCandidate).toBe("a");
  });

  it("falls back to the last bench for a sole candidate, names it, and is null when nothing was compared", () => {
    const sole: HeadlineCandidate = {
      ...base,
      comparisons: [cmp({ against: "last", againstCandidate: "a", delta: 0, ci95: [0, 0], pValue: 1, minDetectableEffect: null, n: 3 })],
    };
    expect(evidenceHeadline([sole])).toBe(
      "No detectable difference between 6b-finetuning and a (last bench) (0.0 points, 95 % CI 0.0 to 0.0, p = 1.000, 3 paired cases): too few cases to tell; add cases or repeats",
    );
    expect(evidenceHeadline([base])).toBeNull();
  });

  it("says so when the two share no scored case", () => {
    const cand: HeadlineCandidate = {
      label: "b",
      isBaseline: false,
      comparisons: [cmp({ against: "baseline", againstCandidate: "a", n: 0, delta: null, ci95: null, pValue: null })],
      blockers: [],
    };
    expect(evidenceHeadline([base, cand])).toBe("b and a share no case both scored: nothing to compare");
  });
});
