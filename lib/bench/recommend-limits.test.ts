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
});
