import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { BenchDetail } from "@/db/queries/benches";
import { aggregateCandidates, type TrialFacts } from "@/lib/bench/aggregate";
import { recommend, type Recommendation } from "@/lib/bench/recommend";
import type { CheckRecord } from "@/lib/bench/types";
import { RecommendationCard } from "./results-summary";

const check = (verdict: CheckRecord["verdict"]): CheckRecord => ({ key: "e0:exact", kind: "exact", label: "Exact match", verdict, score: verdict === "passed" ? 1 : 0, message: "" });
const trial = (candidateId: number, caseNo: number, verdict: CheckRecord["verdict"]): TrialFacts => ({
  candidateId,
  caseRevisionId: caseNo,
  caseKey: `case-${caseNo}`,
  repeat: 1,
  status: "done",
  checks: [check(verdict)],
  inputTokens: 10,
  outputTokens: 5,
  costUsd: null,
  latencyMs: 100,
});

/** A finished bench of two candidates, `a` (the baseline) and `b`, whose stored summary holds their stats. */
function bench(verdicts: { a: CheckRecord["verdict"][]; b: CheckRecord["verdict"][] }) {
  const facts = [...verdicts.a.map((v, i) => trial(1, i + 1, v)), ...verdicts.b.map((v, i) => trial(2, i + 1, v))];
  const stats = aggregateCandidates([1, 2], facts);
  const detail = {
    status: "finished",
    summary: { candidates: stats.map((s) => ({ candidateId: s.candidateId, stats: s })), baselineCandidateId: 1, referenceBenchId: null, referenceCandidateId: null, regressions: {}, retained: 0 },
  } as unknown as BenchDetail;
  const rec = recommend(
    [
      { id: 1, label: "a", stats: stats[0] },
      { id: 2, label: "b", stats: stats[1] },
    ],
    1,
    new Map(),
  );
  return { detail, rec };
}

const card = (rec: Recommendation, detail: BenchDetail) => renderToStaticMarkup(createElement(RecommendationCard, { rec, bench: detail }));
const badges = (html: string) => [...html.matchAll(/<span[^>]*rounded-full[^>]*>([^<]*)</g)].map((m) => m[1]);

describe("the recommendation card", () => {
  it("says nothing passed, with no 'recommended' badge and no green card, when every candidate is at 0.0 %", () => {
    const { detail, rec } = bench({ a: ["failed", "failed"], b: ["failed", "failed"] });
    const html = card(rec, detail);
    expect(html).toContain("Nothing passed: every scored check failed (a: 0 of 2, b: 0 of 2). No candidate is recommended.");
    expect(badges(html)).toEqual(["baseline"]);
    expect(html).not.toContain("border-emerald-300");
  });

  it("shows no 'recommended' badge on a candidate that passed nothing, even in a recommendation stored before this rule", () => {
    const { detail, rec } = bench({ a: ["failed", "failed"], b: ["failed", "failed"] });
    const stale: Recommendation = {
      recommendedCandidateId: 1,
      headline: "Keep the baseline a: it has the best pass rate (0.0% of 2 scored checks).",
      candidates: rec.candidates.map((c) => ({ ...c, recommended: c.candidateId === 1 })),
    };
    const html = card(stale, detail);
    expect(badges(html)).toEqual(["baseline"]);
    expect(html).not.toContain("border-emerald-300");
  });

  it("still badges the candidate that passed and is recommended", () => {
    const { detail, rec } = bench({ a: ["failed", "failed"], b: ["passed", "failed"] });
    const html = card(rec, detail);
    expect(rec.recommendedCandidateId).toBe(2);
    expect(badges(html)).toEqual(["recommended", "baseline"]);
    expect(html).toContain("border-emerald-300");
  });
});
