import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { CandidateEvidence } from "@/server/bench/comparisons";
import { candidateRates } from "@/lib/bench/stats/candidate-rates";
import { compareCandidates } from "@/lib/bench/stats/paired";
import { EvidenceCharts } from "./evidence-charts";
import { twoCandidateBench } from "./test-support/bench-views";

// Wilson 75/200 = (0.311, 0.444) (the score-interval formula in python, z = 1.959964).
// GSM8K recorded: 6b-finetuning solves 45 of 200, 6b-verification 75; b = 8, c = 38 (server/bench/comparisons.test.ts).
const tallies = (passing: (i: number) => boolean) => new Map(Array.from({ length: 200 }, (_, i) => [i, { passed: passing(i) ? 1 : 0, scored: 1 }]));
const base = tallies((i) => i < 45);
const cand = tallies((i) => (i < 45 && i >= 8) || (i >= 45 && i < 83));
const bench = twoCandidateBench(["model-6b-finetuning", "model-6b-verification"]);
const evidence: CandidateEvidence[] = [
  { candidateId: 1, rates: candidateRates(base.values()), comparisons: [], regressions: [] },
  {
    candidateId: 2,
    rates: candidateRates(cand.values()),
    comparisons: [{ against: "baseline", againstCandidate: "model-6b-finetuning", againstBenchId: 1, ...compareCandidates(cand, base) }],
    regressions: [],
  },
];

describe("the evidence charts", () => {
  const html = renderToStaticMarkup(createElement(EvidenceCharts, { bench, evidence }));

  it("draws each pass rate with its interval and says the figures in the text alternative", () => {
    expect(html).toContain(
      'aria-label="Case pass rate with 95 % interval: model-6b-finetuning (baseline) 22.5 % (17.3–28.8); model-6b-verification 37.5 % (31.1–44.4)"',
    );
    expect(html.match(/data-testid="pass-rate-mark"/g)).toHaveLength(2);
  });

  it("draws the comparison right of the dashed zero line, green, with its interval in the text alternative", () => {
    expect(html).toContain("model-6b-verification vs model-6b-finetuning +15.0 (95 % CI +8.7 to +21.3, better)");
    // The zero line is placed in percent of the strip, the square in the strip's viewBox units.
    const zero = Number(/<line x1="([\d.]+)%"[^>]*data-testid="zero-line"/.exec(html)?.[1]) / 100;
    const width = Number(/data-testid="forest-row">[^]*?<svg [^>]*viewBox="0 0 ([\d.]+) /.exec(html)?.[1]);
    const square = /<rect [^>]*data-testid="forest-mark"[^>]*>/.exec(html)?.[0] ?? "";
    const centre = (Number(/ x="([\d.]+)"/.exec(square)?.[1]) + 5) / width;
    expect(zero).toBeGreaterThan(0);
    expect(centre).toBeGreaterThan(zero + 0.1);
    expect(/ fill="([^"]+)"/.exec(square)?.[1]).toBe("#059669");
  });

  it("shows long candidate labels whole (wrapped), never cut with an ellipsis (tester, s7 item 8)", () => {
    const long = twoCandidateBench(["TB baseline · intent-router r1", "TB candidate · intent-router r1"]);
    const vsLast = { against: "last" as const, againstCandidate: "TB baseline · intent-router r1", againstBenchId: 8, ...compareCandidates(base, base) };
    const ev: CandidateEvidence[] = [
      { candidateId: 1, rates: candidateRates(base.values()), comparisons: [vsLast], regressions: [] },
      {
        candidateId: 2,
        rates: candidateRates(cand.values()),
        comparisons: [{ against: "baseline", againstCandidate: "TB baseline · intent-router r1", againstBenchId: 9, ...compareCandidates(cand, base) }, vsLast],
        regressions: [],
      },
    ];
    const out = renderToStaticMarkup(createElement(EvidenceCharts, { bench: long, evidence: ev }));
    // The visible label (a text node of its own, not only the hover title), whole.
    const labels = [...out.matchAll(/data-testid="chart-label"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(labels).toEqual([
      "TB baseline · intent-router r1 (baseline)",
      "TB candidate · intent-router r1",
      "TB baseline · intent-router r1 vs last bench #8 (TB baseline · intent-router r1)",
      "TB candidate · intent-router r1 vs TB baseline · intent-router r1",
      "TB candidate · intent-router r1 vs last bench #8 (TB baseline · intent-router r1)",
    ]);
    expect(out).not.toContain("…");
  });

  it("draws nothing without evidence (a running bench)", () => {
    expect(renderToStaticMarkup(createElement(EvidenceCharts, { bench, evidence: null }))).toBe("");
  });

  it("says that with repeats the pass-rate interval is over cases, and does not say so without", () => {
    const repeated = new Map([
      [1, { passed: 2, scored: 3 }],
      [2, { passed: 3, scored: 3 }],
    ]);
    const withRepeats: CandidateEvidence[] = [{ candidateId: 1, rates: candidateRates(repeated.values()), comparisons: [], regressions: [] }];
    expect(renderToStaticMarkup(createElement(EvidenceCharts, { bench, evidence: withRepeats }))).toContain(
      "over cases: repeats of a case are not independent",
    );
    expect(html).not.toContain("repeats of a case");
  });
});
