import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { BenchDetail } from "@/db/queries/benches";
import { aggregateCandidates, type TrialFacts } from "@/lib/bench/aggregate";
import { recommend, type Recommendation } from "@/lib/bench/recommend";
import type { CheckRecord } from "@/lib/bench/types";
import type { CandidateEvidence } from "@/server/bench/comparisons";
import { candidateRates } from "@/lib/bench/stats/candidate-rates";
import { compareCandidates } from "@/lib/bench/stats/paired";
import { CandidatesTable, RecommendationCard } from "./results-summary";

const check = (verdict: CheckRecord["verdict"]): CheckRecord => ({
  key: "e0:exact",
  kind: "exact",
  label: "Exact match",
  verdict,
  score: verdict === "passed" ? 1 : 0,
  message: "",
});
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
    settings: { repeats: 1 },
    summary: {
      candidates: stats.map((s) => ({ candidateId: s.candidateId, stats: s })),
      baselineCandidateId: 1,
      referenceBenchId: null,
      referenceCandidateId: null,
      regressions: {},
      retained: 0,
    },
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
  it("a partial bench's recommendation stored before partial benches recommended nothing shows no 'recommended' badge (issue #16)", () => {
    const { detail, rec } = bench({ a: ["failed"], b: ["passed"] });
    expect(card(rec, detail)).toContain(">recommended<");
    const old = { ...rec, headline: `Partial bench, the spend cap stopped it after 2 of 40 trials (38 skipped as budget). ${rec.headline}` };
    const html = card(old, detail);
    expect(html).not.toContain(">recommended<");
    expect(html).not.toContain("border-emerald-300");
  });

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

describe("a candidate blocked twice", () => {
  it("names the gate limit beside its regressions on its badge (the page said only '2 regressions' where the CLI named the limit)", () => {
    const { detail, rec } = bench({ a: ["passed", "passed"], b: ["passed", "failed"] });
    const b = rec.candidates.find((c) => c.candidateId === 2)!;
    b.blockers = [{ caseKey: "case-2", caseRevisionId: 2, key: "e0:exact", label: "Exact match", against: "baseline", outcome: "failed" }];
    b.limitBlockers = ["cost per case +50 % exceeds the +30 % limit"];
    expect(badges(card(rec, detail))).toContain("not recommended: 1 regression; cost per case +50 % exceeds the +30 % limit");
  });
});

describe("the recommendation card with the evidence", () => {
  it("puts the evidence sentence above the recommendation's headline, gives each blocker its status and says what blocks", () => {
    // b (not the baseline) breaks case 1 and fixes cases 2–3: one regression, two fixes over 3 paired cases.
    const { detail, rec: plain } = bench({ a: ["passed", "failed", "failed"], b: ["failed", "passed", "passed"] });
    const blocker = { caseKey: "case-1", caseRevisionId: 1, key: "e0:exact", label: "Exact match", against: "baseline" as const, outcome: "failed" as const };
    const rec: Recommendation = { ...plain, candidates: plain.candidates.map((c) => (c.candidateId === 2 ? { ...c, blockers: [blocker] } : c)) };
    const tally = (vs: number[]) => new Map(vs.map((p, i) => [i + 1, { passed: p, scored: 1 }]));
    const evidence: CandidateEvidence[] = [
      { candidateId: 1, rates: candidateRates(tally([1, 0, 0]).values()), comparisons: [], regressions: [] },
      {
        candidateId: 2,
        rates: candidateRates(tally([0, 1, 1]).values()),
        comparisons: [{ against: "baseline", againstCandidate: "a", againstBenchId: 1, ...compareCandidates(tally([0, 1, 1]), tally([1, 0, 0])) }],
        regressions: [{ ...blocker, regressionStatus: "suspected", regressionPValue: 0.5, regressionReason: null }],
      },
    ];
    const html = renderToStaticMarkup(createElement(RecommendationCard, { rec, bench: detail, evidence }));
    const sentence = /data-testid="evidence-headline"[^>]*>([^<]*)</.exec(html)?.[1];
    // Δ = (2 − 1)/3, SE = √(3 − 1/3)/3 = 0.544331, lo = 0.333333 − 1.959964·0.544331 = −0.733536; exact McNemar p of 1 in 3 at ½ = 1; Connor's MDE is floored at 6/3 → capped at 100 points.
    expect(sentence).toBe(
      "No detectable difference between b and a (+33.3 points, 95 % CI −73.4 to +100.0, p = 1.000, 3 paired cases): this bench can detect ≥ 100 points; add cases or repeats; 1 regression blocks it (1 suspected)",
    );
    expect(html.indexOf("evidence-headline")).toBeLessThan(html.indexOf('data-testid="recommendation"'));
    expect(html).toMatch(/case-1<\/code>[^]*?suspected/);
    expect(html).toContain("A suspected regression blocks until a rerun confirms or clears it");
    // One trial per case: chance cannot be ruled out, more repeats can.
    expect(html).toContain("with one trial per case chance cannot be ruled out: run more repeats");
    // With 3 repeats that sentence was not true (issue #16): the note says a rerun, not "one trial per case".
    const three = renderToStaticMarkup(
      createElement(RecommendationCard, { rec, bench: { ...detail, settings: { ...detail.settings, repeats: 3 } }, evidence }),
    );
    expect(three).toContain("A suspected regression blocks until a rerun confirms or clears it.");
    expect(three).not.toContain("one trial per case");
  });
});

describe("a regression confirmed as a deterministic replay", () => {
  it("shows its reason beside its status, counts it apart in the headline and says why it needs no rerun", () => {
    const { detail, rec: plain } = bench({ a: ["passed", "failed", "failed"], b: ["failed", "passed", "passed"] });
    const blocker = { caseKey: "case-1", caseRevisionId: 1, key: "e0:exact", label: "Exact match", against: "baseline" as const, outcome: "failed" as const };
    const rec: Recommendation = { ...plain, candidates: plain.candidates.map((c) => (c.candidateId === 2 ? { ...c, blockers: [blocker] } : c)) };
    const tally = (vs: number[]) => new Map(vs.map((p, i) => [i + 1, { passed: p, scored: 1 }]));
    const evidence: CandidateEvidence[] = [
      { candidateId: 1, rates: candidateRates(tally([1, 0, 0]).values()), comparisons: [], regressions: [] },
      {
        candidateId: 2,
        rates: candidateRates(tally([0, 1, 1]).values()),
        comparisons: [{ against: "baseline", againstCandidate: "a", againstBenchId: 1, ...compareCandidates(tally([0, 1, 1]), tally([1, 0, 0])) }],
        regressions: [{ ...blocker, regressionStatus: "confirmed", regressionPValue: null, regressionReason: "deterministic replay" }],
      },
    ];
    const html = renderToStaticMarkup(createElement(RecommendationCard, { rec, bench: detail, evidence }));
    const sentence = /data-testid="evidence-headline"[^>]*>([^<]*)</.exec(html)?.[1];
    expect(sentence).toMatch(/; 1 regression blocks it \(1 confirmed by deterministic replay\)$/);
    expect(html).toMatch(/case-1<\/code>[^]*?>confirmed · deterministic replay</);
    expect(html).toContain("A deterministic replay (a recorded answer against a recorded reference, scored by code) is confirmed without a rerun");
    expect(html).not.toContain("A suspected regression blocks until a rerun confirms or clears it");
  });
});

describe("the recommendation card's long lists", () => {
  it("shows the first 20 blocking regressions and fixes with a link to all of them; with every one asked for, all and no link", () => {
    const { detail, rec: plain } = bench({ a: ["passed"], b: ["failed"] });
    const item = (i: number) => ({
      caseKey: `case-${i}`,
      caseRevisionId: i,
      key: "e0:exact",
      label: "Exact match",
      against: "baseline" as const,
      outcome: "failed" as const,
    });
    const blockers = Array.from({ length: 25 }, (_, i) => item(i + 1));
    const fixes = Array.from({ length: 30 }, (_, i) => item(i + 101));
    const rec: Recommendation = { ...plain, candidates: plain.candidates.map((c) => (c.candidateId === 2 ? { ...c, blockers, fixes } : c)) };
    const listed = (html: string) => [...html.matchAll(/<code>(case-\d+)<\/code>/g)].map((m) => m[1]);
    const short = renderToStaticMarkup(createElement(RecommendationCard, { rec, bench: detail, showAllHref: "/b/1?list=all" }));
    expect(listed(short)).toEqual([...blockers.slice(0, 20), ...fixes.slice(0, 20)].map((b) => b.caseKey));
    expect(short).toContain('href="/b/1?list=all"');
    expect(short).toContain("Show all 25 blocking regressions");
    expect(short).toContain("Show all 30 fixes");
    const all = renderToStaticMarkup(createElement(RecommendationCard, { rec, bench: detail, showAllHref: "/b/1?list=all", listLimit: null }));
    expect(listed(all)).toEqual([...blockers, ...fixes].map((b) => b.caseKey));
    expect(all).not.toContain("Show all");
  });
});

describe("the candidates table with the evidence", () => {
  it("shows each candidate's case pass rate with its Wilson 95 % interval and says what a passing case is", () => {
    const { detail } = bench({ a: ["passed", "failed"], b: ["passed", "passed"] });
    const full = {
      ...detail,
      candidates: [
        { id: 1, label: "a", kind: "recorded" },
        { id: 2, label: "b", kind: "recorded" },
      ],
      settings: { repeats: 1 },
      baseline: { kind: "candidate", position: 0 },
    } as unknown as BenchDetail;
    const stats = detail.summary!.candidates.map((c) => c.stats);
    const evidence: CandidateEvidence[] = [
      {
        candidateId: 1,
        rates: candidateRates(Array.from({ length: 200 }, (_, i) => ({ passed: i < 45 ? 1 : 0, scored: 1 }))),
        comparisons: [],
        regressions: [],
      },
      {
        candidateId: 2,
        rates: candidateRates([
          { passed: 1, scored: 1 },
          { passed: 1, scored: 1 },
        ]),
        comparisons: [],
        regressions: [],
      },
    ];
    const html = renderToStaticMarkup(createElement(CandidatesTable, { bench: full, stats, evidence }));
    // Wilson 45/200: scipy binomtest(45, 200).proportion_ci("wilson") = (0.172624, 0.287659); 2/2 = (0.342380, 1.0).
    expect(html).toContain("22.5 % (95 % CI 17.3–28.8)");
    expect(html).toContain("100.0 % (95 % CI 34.2–100.0)");
    // The counts are trials (the rate's unit), said so: with repeats 56/60 read as cases of a 20-case bench.
    expect(html).toContain("(45/200 trials)");
    expect(html).toContain("Pass rate means a case passes when all its scored checks pass");
  });
});

describe("pass rates with their Wilson interval (issue #16 §1: every pass rate)", () => {
  // 1 of 2 scored checks: Wilson (z = 1.959964) = (0.094531, 0.905469), as scipy binomtest(1, 2).proportion_ci("wilson").
  it("gives the ranking card's pass rate its interval", () => {
    const { detail, rec } = bench({ a: ["passed", "failed"], b: ["passed", "passed"] });
    const html = card(rec, detail);
    expect(html).toContain("50.0% (95 % CI 9.5–90.5)");
    // 2 of 2: (0.342380, 1.0).
    expect(html).toContain("100.0% (95 % CI 34.2–100.0)");
  });

  it("gives the 'Pass rate (scored checks)' column its interval", () => {
    const { detail } = bench({ a: ["passed", "failed"], b: ["passed", "passed"] });
    const full = {
      ...detail,
      candidates: [
        { id: 1, label: "a", kind: "recorded" },
        { id: 2, label: "b", kind: "recorded" },
      ],
      settings: { repeats: 1 },
      baseline: { kind: "candidate", position: 0 },
    } as unknown as BenchDetail;
    const html = renderToStaticMarkup(createElement(CandidatesTable, { bench: full, stats: detail.summary!.candidates.map((c) => c.stats) }));
    const cells = [...html.matchAll(/data-testid="check-pass-rate">(.*?)<\/td>/g)].map((m) => m[1].replace(/<[^>]+>/g, ""));
    expect(cells).toEqual(["50.0% (1/2)95 % CI 9.5–90.5", "100.0% (2/2)95 % CI 34.2–100.0"]);
  });
});

describe("pass@k and pass^k: one k per column (the bench's repeats)", () => {
  const tableWith = (rates: CandidateEvidence["rates"][]) => {
    const { detail } = bench({ a: ["passed", "failed"], b: ["passed", "passed"] });
    const full = {
      ...detail,
      candidates: [
        { id: 1, label: "a", kind: "recorded" },
        { id: 2, label: "b", kind: "recorded" },
      ],
      settings: { repeats: 3 },
      baseline: { kind: "candidate", position: 0 },
    } as unknown as BenchDetail;
    const evidence: CandidateEvidence[] = rates.map((r, i) => ({ candidateId: i + 1, rates: r, comparisons: [], regressions: [] }));
    const html = renderToStaticMarkup(createElement(CandidatesTable, { bench: full, stats: detail.summary!.candidates.map((c) => c.stats), evidence }));
    return [...html.matchAll(/data-testid="case-pass-rate">(.*?)<\/td>/g)].map((m) => m[1].replace(/<[^>]+>/g, ""));
  };

  it("shows pass@3 for a candidate one of whose trials errored (it showed pass@2 beside the baseline's pass@3), saying how that case is counted", () => {
    const cells = tableWith([
      candidateRates(
        [
          { passed: 3, scored: 3 },
          { passed: 1, scored: 3 },
        ],
        3,
      ),
      candidateRates(
        [
          { passed: 2, scored: 3 },
          { passed: 3, scored: 3 },
          { passed: 0, scored: 2 },
        ],
        3,
      ),
    ]);
    // Baseline: pass@3 = mean(1, 1) = 100 %; pass^3 = mean(1, 0) = 50 %.
    expect(cells[0]).toContain("pass@3 100.0 % · pass^3 50.0 %");
    // Candidate: over the 2 cases with 3 scored trials (see candidate-rates.test.ts), the third apart.
    expect(cells[1]).toContain("pass@3 100.0 % · pass^3 50.0 % (over 2 cases; 1 case with 2 scored trials left out)");
    expect(cells.join(" ")).not.toContain("pass@2");
  });

  it("says pass@3 was not computed for evidence stored before (it has pass@k only up to the fewest trials)", () => {
    const old = candidateRates([
      { passed: 2, scored: 3 },
      { passed: 0, scored: 2 },
    ]);
    const cells = tableWith([
      candidateRates(
        [
          { passed: 3, scored: 3 },
          { passed: 1, scored: 3 },
        ],
        3,
      ),
      old,
    ]);
    expect(cells[1]).toContain("pass@3 — (a case has only 2 scored trials)");
  });
});
