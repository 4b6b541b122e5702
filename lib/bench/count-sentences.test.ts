/**
 * Sentences built from counts write them with thousands separators, as the progress bar does
 * (issue 20's tester: "Partial bench, cancelled after 942 of 80800 trials … of 20200" under a bar
 * that said 80,800). One formatter: lib/bench/progress-counts.ts `n`.
 */
import { describe, expect, it } from "vitest";
import { partialReason } from "./recommend";
import { launchLines } from "./launch-lines";
import { candidateCounts } from "./evidence/candidate-line";
import { blockerBreakdown, evidenceSentence } from "./evidence/headline";
import { passAtText } from "./evidence/pass-at-text";
import { benchMarkdown } from "./evidence/markdown";

describe("count sentences", () => {
  it("partial bench: cancelled, and stopped by the spend cap", () => {
    expect(partialReason({ finished: 942, total: 80_800 })).toBe("cancelled after 942 of 80,800 trials");
    expect(partialReason({ finished: 1_024, total: 80_800, budgetSkipped: 79_776 })).toBe(
      "the spend cap stopped it after 1,024 of 80,800 trials (79,776 skipped as budget)",
    );
  });

  it("launch lines: excluded cases and generated items dropped", () => {
    const lines = launchLines(
      10,
      {
        includedCount: 20_200,
        retainedJoined: 0,
        excludedCount: 1_500,
        excludedBy: {},
        trialCount: 80_800,
        modelCalls: 80_800,
        modelCallsUpperBound: false,
        judgeCalls: 0,
        warnings: [],
      } as never,
      { runId: "r", model: "m", criterionIds: [], caseIds: [], dropped: 1_200, refused: [] },
      false,
    );
    expect(lines[0]).toContain("; 1,200 dropped");
    expect(lines[1]).toBe(
      "bench #10: 20,200 cases included (retained regression cases left out), 1,500 excluded, 80,800 trials (80,800 model calls, 0 judge calls)",
    );
  });

  it("evidence: blockers, flaky counts, pass@k's cases", () => {
    const many = <T>(v: T, k: number) => Array.from({ length: k }, () => v);
    expect(blockerBreakdown(many("suspected" as const, 1_500))).toBe(" (1,500 suspected)");
    expect(
      candidateCounts({
        blockers: many("suspected" as const, 1_500),
        blockerReasons: [],
        regressions: many("cleared" as const, 2_000),
        fixes: 1_001,
        limits: [],
      }),
    ).toBe(" · 1,500 blocking regressions (1,500 suspected) · 2,000 flaky — cleared · 1,001 fixes");
    const rates = {
      cases: 0,
      trialPassRate: { rate: null, ci95: null },
      passAt: { "2": 0.5 },
      passHat: { "2": 0.5 },
      atRepeats: { k: 3, passAt: 0.5, passHat: 0.25, cases: 20_000, leftOut: 1_200, fewestTrials: 2 },
    };
    expect(passAtText(rates as never, 3)).toBe("pass@3 50.0 % · pass^3 25.0 % (over 20,000 cases; 1,200 cases with 2 scored trials left out)");
  });

  it("the evidence sentence's blockers", () => {
    const sentence = evidenceSentence({
      candidate: { label: "b", blockers: Array.from({ length: 1_200 }, () => "suspected" as const) },
      comparison: { againstCandidate: "a", n: 0, delta: null, verdict: "inconclusive" },
    } as never);
    expect(sentence).toContain("1,200 regressions block it (1,200 suspected)");
  });

  it("Markdown: trials errored of the candidate's trials", () => {
    const md = benchMarkdown({
      benchId: 1,
      status: "finished",
      headline: null,
      recommendation: "r",
      candidates: [
        {
          label: "a",
          baseline: false,
          casePassRate: { rate: 0.5, ci95: [0.4, 0.6], passed: 10_000, scored: 20_000 },
          comparisons: [],
          blockers: [],
          erroredTrials: 1_500,
          trials: 20_000,
        },
      ],
      errors: [{ trials: 1_500, message: "boom" }],
    } as never);
    expect(md).toContain("a 1,500 of 20,000");
    expect(md).toContain("10,000/20,000 trials");
    expect(md).toContain("- 1,500 × boom");
  });
});
