/** The bench page's budget line and flip table as server-rendered HTML (issue #16 §4–5). */
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { BenchDetail } from "@/db/queries/benches";
import { flipTable } from "@/lib/bench/evidence/flips";
import { BudgetLine } from "./budget-line";
import { FlipTable } from "./flip-table";
import { budgetLineText, twoCandidateBench } from "./test-support/bench-views";

describe("budget line", () => {
  it("shows the cap, the spend, the trials skipped as budget and the limits", () => {
    const html = budgetLineText({
      settings: { spendCap: { usd: 0.5, trialEstimateUsd: 0.02 }, gate: { maxLatencyIncreasePct: 20, maxCostIncreasePct: 30 } } as BenchDetail["settings"],
      spend: { spentUsd: 0.48, spentTrials: 24, candidates: [], budgetSkippedTotal: 7 },
    });
    expect(html).toContain("Spend cap $0.50 · spent $0.48 · 7 trials skipped: budget");
    expect(html).toContain("Gate limits vs baseline: p95 latency at most +20 %, cost per case at most +30 %");
  });
  it("says what a running trial of each candidate counts for, not one mean for all (issue #16 §4: it showed the plan's mean for a bench whose candidates cost 10× apart)", () => {
    const html = budgetLineText({
      settings: { spendCap: { usd: 2, trialEstimateUsd: 0.11, candidateTrialUsd: [0.02, 0.2] } } as BenchDetail["settings"],
      spend: {
        spentUsd: 0.7,
        spentTrials: 11,

        budgetSkippedTotal: 0,
        // The cheap candidate's 10 finished trials cost $0.05 each, over its plan's $0.02: its mean counts.
        candidates: [
          { id: 7, position: 0, spentUsd: 0.5, spentTrials: 10, maxTrialUsd: 0.05 },
          { id: 8, position: 1, spentUsd: 0.2, spentTrials: 1, maxTrialUsd: 0.2 },
        ],
      },
      candidates: [
        { id: 7, position: 0, label: "small" },
        { id: 8, position: 1, label: "large" },
      ],
    });
    expect(html).toContain(
      "a running trial counts for its candidate’s planned cost per trial, or its dearest finished trial when higher: small $0.05, large $0.20",
    );
    expect(html).not.toContain("$0.11");
  });
  it("says a candidate whose cost varies by case counts at its dearest finished trial, not its mean (issue #16 §4: $2.21 spent on a $2.00 cap)", () => {
    const html = budgetLineText({
      settings: { spendCap: { usd: 2, trialEstimateUsd: 0.025, candidateTrialUsd: [0.011, 0.04] } } as BenchDetail["settings"],
      spend: {
        spentUsd: 0.44,
        spentTrials: 10,
        budgetSkippedTotal: 0,
        // The candidate's 4 finished trials: 3 at $0.017, 1 at $0.225 — a mean of $0.069.
        candidates: [
          { id: 7, position: 0, spentUsd: 0.066, spentTrials: 6, maxTrialUsd: 0.011 },
          { id: 8, position: 1, spentUsd: 0.276, spentTrials: 4, maxTrialUsd: 0.225 },
        ],
      },
      candidates: [
        { id: 7, position: 0, label: "base" },
        { id: 8, position: 1, label: "cand" },
      ],
    });
    expect(html).toContain("its dearest finished trial when higher: base $0.01, cand $0.23)");
    expect(html).not.toContain("$0.07");
  });
  it("says a cap raised for a rerun that ran, and the cap the bench ran under before (a tester: only the raised cap showed beside the launch's budget skips)", () => {
    const html = budgetLineText({
      settings: { spendCap: { usd: 2.43, trialEstimateUsd: 0.04, raisedFromUsd: 1.5 } } as BenchDetail["settings"],
      spend: { spentUsd: 1.59, spentTrials: 18, budgetSkippedTotal: 102, candidates: [] },
    });
    expect(html).toContain("Spend cap $2.43 (raised from $1.50 for a rerun; the 102 budget skips were made under $1.50) · spent $1.59");
  });
  it("says a cap raised for the running rerun, and what happens to it when that rerun is cancelled (issue #16)", () => {
    const html = budgetLineText({
      settings: { spendCap: { usd: 6.01, trialEstimateUsd: 1, raisedForRerun: { fromUsd: 2, spentUsd: 2 } } } as BenchDetail["settings"],
      spend: { spentUsd: 2, spentTrials: 4, budgetSkippedTotal: 0, candidates: [] },
    });
    expect(html).toContain(
      "Spend cap $6.01 (raised from $2.00 for the rerun: cancelled before any of its trials spends, it goes back to $2.00; after that it stays) · spent $2.00",
    );
  });
  it("renders nothing without a cap or a limit", () => {
    expect(
      renderToStaticMarkup(
        createElement(BudgetLine, {
          settings: {} as BenchDetail["settings"],
          spend: { spentUsd: 0, spentTrials: 0, candidates: [], budgetSkippedTotal: 0 },
        }),
      ),
    ).toBe("");
  });
});

describe("flip table", () => {
  it("links each flipped case to the candidate's trial and counts the kinds", () => {
    const bench = twoCandidateBench();
    const cell = (p: number, s: number, id: number) => ({ passedTrials: p, scoredTrials: s, firstTrialId: id });
    const flips = flipTable(
      [
        { caseKey: "a", caseRevisionId: 1, cells: { 1: cell(1, 1, 10), 2: cell(0, 1, 20) } },
        { caseKey: "b", caseRevisionId: 2, cells: { 1: cell(0, 1, 11), 2: cell(1, 1, 21) } },
      ],
      1,
      [1, 2],
    );
    const html = renderToStaticMarkup(
      createElement(FlipTable, { bench, flips, trialHref: (t: number) => `/b?trial=${t}`, regressionsHref: "/b?filter=changed" }),
    );
    const anchors = [...html.matchAll(/<a [^>]*data-testid="flip-chip"[^>]*>/g)].map((m) => m[0]);
    expect(anchors).toHaveLength(2);
    expect(anchors[0]).toMatch(/title="a: baseline 1\/1 → candidate 0\/1 trials passed"/);
    expect(anchors[0]).toContain('href="/b?trial=20"');
    expect(anchors[1]).toMatch(/title="b: baseline 0\/1 → candidate 1\/1 trials passed"/);
    expect(anchors[1]).toContain('href="/b?trial=21"');
    expect(html.replace(/<[^>]+>/g, "")).toContain("1 regressed · 1 fixed · 0 flaky on baseline · of 2 paired cases");
  });
});
