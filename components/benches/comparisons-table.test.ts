import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { compareCandidates } from "@/lib/bench/stats/paired";
import { oneTrialTallies } from "@/lib/bench/evidence/test-support/one-trial-tallies";
import { comparisonRows } from "@/lib/bench/evidence/comparison-rows";
import { ComparisonsTable } from "./comparisons-table";

const tallies = oneTrialTallies;

describe("ComparisonsTable", () => {
  it("shows every comparison (vs baseline and vs the last bench) with its verdict, Δ, CI, p, test, n and detectable difference", () => {
    const better = compareCandidates(...tallies(28, 2, 10));
    const flat = compareCandidates(...tallies(38, 1, 1));
    const rows = comparisonRows(
      [
        { label: "base", comparisons: [{ ...flat, against: "last", againstCandidate: "old" }] },
        {
          label: "cand",
          comparisons: [
            { ...better, against: "baseline", againstCandidate: "base" },
            { ...flat, against: "last", againstCandidate: "old" },
          ],
        },
      ],
      7,
    );
    const html = renderToStaticMarkup(createElement(ComparisonsTable, { rows }));
    expect(html).toContain('aria-label="Comparisons"');
    const body = html.split("<tbody>")[1];
    expect(body.match(/data-testid="comparison-row"/g)).toHaveLength(3);
    expect(body).toContain("better");
    expect(body).toContain("+20.0 points");
    expect(body).toContain("95 % CI +4.2 to +35.8");
    expect(body).toContain("p = 0.039 · exact McNemar");
    expect(body).toContain("last bench #7 (old)");
    expect(body.match(/inconclusive/g)).toHaveLength(2);
    expect(body.match(/≥ \d+ points/g)).toHaveLength(3);
    // Sortable: each sortable header is a button that says its sort state.
    expect(html).toMatch(/<th[^>]*aria-sort="none"[^>]*><button/);
  });

  it("renders nothing when there is no comparison", () => {
    expect(renderToStaticMarkup(createElement(ComparisonsTable, { rows: [] }))).toBe("");
  });
});
