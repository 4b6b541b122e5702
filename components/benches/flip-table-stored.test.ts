/** The flip table from the flips stored with the summary (issue #16, speed): counts from the summary, chips for the stored cases. */
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { FlipCase, StoredFlips } from "@/lib/bench/evidence/flips";
import { FlipTable } from "./flip-table";
import { twoCandidateBench } from "./test-support/bench-views";

describe("flip table from stored flips", () => {
  it("shows the stored counts, a chip per stored case, and how many more there are", () => {
    const bench = twoCandidateBench();
    const flip = (i: number): FlipCase => ({
      caseKey: `c${i}`,
      caseRevisionId: i,
      candidate: { passed: 0, scored: 1 },
      baseline: { passed: 1, scored: 1 },
      trialId: 500 + i,
    });
    const stored: StoredFlips = {
      candidateId: 2,
      paired: 300,
      counts: { regressed: 100, fixed: 1, flaky: 0 },
      regressed: Array.from({ length: 40 }, (_, i) => flip(i)),
      fixed: [flip(1000)],
      flaky: [],
    };
    const html = renderToStaticMarkup(
      createElement(FlipTable, { bench, flips: [stored], trialHref: (t: number) => `/b?trial=${t}`, regressionsHref: "/b?filter=changed" }),
    );
    const text = html.replace(/<[^>]+>/g, "");
    expect(text).toContain("100 regressed · 1 fixed · 0 flaky on baseline · of 300 paired cases");
    expect(text).toContain("… and 60 more");
    expect([...html.matchAll(/data-testid="flip-chip"/g)]).toHaveLength(41);
    expect(html).toContain('href="/b?trial=1500"');
    expect(html).not.toContain('data-testid="flip-flaky"');
  });
});
