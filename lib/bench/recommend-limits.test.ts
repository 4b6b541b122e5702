/** The gate limits in the recommendation (issue #16 §4): a candidate over a limit is not recommended, and the headline names the limit. */
import { describe, expect, it } from "vitest";
import { aggregateCandidates, type TrialFacts } from "./aggregate";
import { recommend } from "./recommend";

const t = (candidateId: number, caseNo: number, passed: boolean): TrialFacts => ({
  candidateId,
  caseRevisionId: caseNo,
  caseKey: `case-${caseNo}`,
  repeat: 1,
  status: "done",
  checks: [{ key: "e0", kind: "exact", label: "e0", verdict: passed ? "passed" : "failed" }],
  inputTokens: 10,
  outputTokens: 5,
  costUsd: null,
  latencyMs: 100,
});

// Baseline 1 passes case 1; candidate 2 passes cases 1 and 2 (better, no regression).
const stats = aggregateCandidates([1, 2], [t(1, 1, true), t(1, 2, false), t(2, 1, true), t(2, 2, true)]);
const cands = [
  { id: 1, label: "base", stats: stats[0] },
  { id: 2, label: "fast-but-slow", stats: stats[1] },
];

describe("recommend with gate limits", () => {
  it("recommends the better candidate without limits", () => {
    expect(recommend(cands, 1, new Map()).recommendedCandidateId).toBe(2);
  });

  it("holds back a candidate over a limit and names it", () => {
    const r = recommend(cands, 1, new Map(), { limits: new Map([[2, ["p95 latency +34 % exceeds the +20 % limit"]]]) });
    expect(r.recommendedCandidateId).toBe(1);
    expect(r.candidates.find((c) => c.candidateId === 2)).toMatchObject({ recommended: false, limitBlockers: ["p95 latency +34 % exceeds the +20 % limit"] });
    expect(r.headline).toBe("Keep the baseline base (50.0% of 2 scored checks): fast-but-slow scores higher but p95 latency +34 % exceeds the +20 % limit.");
  });

  it("says so when the limit leaves no candidate", () => {
    const r = recommend([cands[1]], null, new Map(), { limits: new Map([[2, ["cost per case +50 % exceeds the +30 % limit"]]]) });
    expect(r.recommendedCandidateId).toBeNull();
    expect(r.headline).toBe("No candidate is recommended: fast-but-slow passes the gate's regression check but cost per case +50 % exceeds the +30 % limit.");
  });

  it("names every blocked candidate when none is recommended, not only the best-ranked (shots/sq-31: TB baseline · intent-router r1: 1)", () => {
    const reg = (caseNo: number) => ({
      caseKey: `case-${caseNo}`,
      caseRevisionId: caseNo,
      key: "e0",
      label: "e0",
      against: "last bench" as const,
      outcome: "failed" as const,
    });
    const r = recommend(
      cands,
      1,
      new Map([
        [1, [reg(1)]],
        [2, [reg(1), reg(2)]],
      ]),
    );
    expect(r.recommendedCandidateId).toBeNull();
    expect(r.headline).toBe("No candidate is recommended: every candidate that passed a check breaks a previously passing check (fast-but-slow: 2, base: 1).");
  });

  it("names a gate limit beside the regressions that also block (it was only in the JSON and Markdown table)", () => {
    const reg = { caseKey: "case-1", caseRevisionId: 1, key: "e0", label: "e0", against: "baseline" as const, outcome: "failed" as const };
    const limit = "cost per case +1957 % exceeds the +30 % limit";
    const kept = recommend(cands, 1, new Map([[2, [reg]]]), { limits: new Map([[2, [limit]]]) });
    expect(kept.headline).toBe(
      "Keep the baseline base (50.0% of 2 scored checks): fast-but-slow scores higher but breaks 1 previously passing check, and cost per case +1957 % exceeds the +30 % limit.",
    );
    const none = recommend(
      cands,
      1,
      new Map([
        [1, [reg]],
        [2, [reg]],
      ]),
      { limits: new Map([[2, [limit]]]) },
    );
    expect(none.headline).toBe(
      "No candidate is recommended: every candidate that passed a check is blocked (fast-but-slow: 1 broken check, and cost per case +1957 % exceeds the +30 % limit; base: 1 broken check).",
    );
  });
});
