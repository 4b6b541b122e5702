import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { BenchCandidate } from "@/db/queries/benches";
import type { MatrixRow } from "@/db/queries/bench-matrix";
import type { Regression } from "@/lib/bench/recommend";
import type { RegressionStatus } from "@/lib/bench/stats/regression-status";
import { MatrixView } from "./matrix-view";

const cand = (id: number, label: string) => ({ id, position: id, kind: "recorded", label, recordedName: label }) as BenchCandidate;
const cell = (verdict: "passed" | "mixed", passed: number, firstTrialId: number) => ({
  verdict,
  passedTrials: passed,
  scoredTrials: 6,
  errorTrials: 0,
  trials: 6,
  failedChecks: 6 - passed,
  firstTrialId,
});
const row = (rev: number, key: string): MatrixRow => ({
  benchCaseId: rev,
  position: rev,
  caseId: rev,
  caseKey: key,
  caseRevisionId: rev,
  source: "custom",
  cells: { 1: cell("passed", 6, rev * 10 + 1), 2: cell("mixed", 5, rev * 10 + 2) },
});
const regression = (
  rev: number,
  key: string,
  regressionStatus: RegressionStatus,
  regressionReason: "deterministic replay" | null = null,
): Regression & { regressionStatus: RegressionStatus; regressionReason: "deterministic replay" | null } => ({
  caseKey: key,
  caseRevisionId: rev,
  key: "e0:exact",
  label: "Exact match",
  against: "baseline",
  outcome: "mixed",
  regressionStatus,
  regressionReason,
});

/** The matrix of cases `flaky` (its regression cleared by a confirm round), `broken` (suspected) and `replayed` (a deterministic replay), candidate 2 against baseline 1. */
function render() {
  const rows = [row(1, "flaky"), row(2, "broken"), row(3, "replayed")];
  return renderToStaticMarkup(
    createElement(MatrixView, {
      rows,
      candidates: [cand(1, "base"), cand(2, "cand")],
      total: 2,
      page: 1,
      pageCount: 1,
      pageSize: 50,
      filter: "all",
      sort: "position",
      href: () => "/x",
      regressionKeys: new Set(["1", "2", "3"]),
      regressedCells: new Map([
        ["2|1", [regression(1, "flaky", "cleared")]],
        ["2|2", [regression(2, "broken", "suspected")]],
        ["2|3", [regression(3, "replayed", "confirmed", "deterministic replay")]],
      ]),
    }),
  );
}

/** The markup of the matrix row of case `key`. */
const rowOf = (html: string, key: string) => html.split('data-testid="matrix-row"').find((r) => r.includes(`<code class="text-xs">${key}</code>`))!;

describe("the results matrix", () => {
  it("shows a regression a confirm round cleared as “flaky — cleared” (muted), not the red “regressed” badge", () => {
    const html = render();
    const flaky = rowOf(html, "flaky");
    expect(flaky).toContain("flaky — cleared");
    expect(flaky).not.toContain(">regressed<");
    expect(flaky).not.toContain("bg-red-50");
    expect(flaky).toContain("flaky — cleared (1 check)");
    // A regression still open keeps the red badge.
    const broken = rowOf(html, "broken");
    expect(broken).toContain(">regressed<");
    expect(broken).toContain("bg-red-50");
    expect(broken).not.toContain("flaky — cleared");
  });

  it("says a regression is a deterministic replay in its cell, its hover text and its link's name", () => {
    const replayed = rowOf(render(), "replayed");
    expect(replayed).toContain(">regressed<");
    expect(replayed).toContain(">deterministic replay<");
    expect(replayed).toContain("Exact match passed for the baseline and fails now (confirmed: deterministic replay");
    expect(replayed).toContain("regressed (1 check, deterministic replay)");
    // The others do not say so.
    expect(rowOf(render(), "broken")).not.toContain("deterministic replay");
  });
});

describe("the results matrix during a rerun", () => {
  /** Case `confirming`: cand passed its 3 finished trials and 1 of the confirm round's 2 is left; case `errored`: base's only (errored) trial is being rerun. */
  function rerunning() {
    const confirming: MatrixRow = {
      ...row(1, "confirming"),
      cells: { 1: cell("passed", 6, 11), 2: { ...cell("passed", 3, 12), scoredTrials: 3, trials: 5, rerunning: { left: 1, trials: 2 } } },
    };
    const errored: MatrixRow = {
      ...row(2, "errored"),
      cells: {
        1: {
          verdict: "pending",
          passedTrials: 0,
          scoredTrials: 0,
          errorTrials: 0,
          trials: 1,
          failedChecks: 0,
          firstTrialId: 21,
          rerunning: { left: 1, trials: 1 },
        },
        2: cell("passed", 6, 22),
      },
    };
    return renderToStaticMarkup(
      createElement(MatrixView, {
        rows: [confirming, errored],
        candidates: [cand(1, "base"), cand(2, "cand")],
        total: 2,
        page: 1,
        pageCount: 1,
        pageSize: 50,
        filter: "all",
        sort: "position",
        href: () => "/x",
        regressionKeys: new Set<string>(),
        regressedCells: new Map(),
      }),
    );
  }

  it("says a cell is being rerun and how many of its trials are left, keeping its finished trials' result (not “pending 3/3”)", () => {
    const html = rerunning();
    const confirming = rowOf(html, "confirming");
    expect(confirming).toContain(">passed 3/3<");
    expect(confirming).toContain(">rerunning: 1 of 2 trials left<");
    expect(confirming).not.toContain("pending");
    expect(confirming).toContain("Open trial of confirming by cand: passed, 3 of 3 trials passed, rerunning: 1 of 2 trials left");
    // Its hover text says what the shown result is.
    expect(confirming).toContain("the result shown is that of its finished trials");
    // A cell with no finished trial left (its only trial errored and is being rerun) says only that.
    const errored = rowOf(html, "errored");
    expect(errored).toContain(">rerunning: 1 of 1 trial left<");
    expect(errored).not.toContain(">pending");
    expect(errored).toContain("Open trial of errored by base: rerunning: 1 of 1 trial left");
  });
});

describe("the results matrix pager", () => {
  /** Page 2 of 3 of “Failures only” (50 per page), with an href that keeps the current URL state as the page does. */
  function paged() {
    const state: Record<string, string | number | undefined> = { filter: "failures", page: 2 };
    const href = (changes: Record<string, string | number | undefined>) => {
      const p = new URLSearchParams();
      for (const [k, v] of Object.entries({ ...state, ...changes })) if (v !== undefined) p.set(k, String(v));
      return `/b?${p.toString()}`;
    };
    return renderToStaticMarkup(
      createElement(MatrixView, {
        rows: [row(51, "case-051"), row(52, "case-052")],
        candidates: [cand(1, "base"), cand(2, "cand")],
        total: 120,
        page: 2,
        pageCount: 3,
        pageSize: 50,
        filter: "failures",
        sort: "position",
        href,
        regressionKeys: new Set<string>(),
        regressedCells: new Map(),
      }),
    );
  }

  it("says which cases of the filter's result it shows and links the next and previous pages within the filter", () => {
    const html = paged();
    expect(html).toContain("Showing 51–100 of 120 · page 2 of 3");
    expect(html).toContain('rel="next" href="/b?filter=failures&amp;page=3"');
    expect(html).toContain('rel="prev" href="/b?filter=failures&amp;page=1"');
  });

  it("starts another filter or sort on its first page", () => {
    const html = paged();
    expect(html).toContain('href="/b?filter=errors"');
    expect(html).toContain('href="/b?filter=failures&amp;sort=case"');
  });
});

describe("a cell whose errored trial was rerun", () => {
  it("hints the error was rerun, in the cell and its link's name (it gave no hint)", () => {
    const rerun = { ...row(1, "down"), cells: { 1: cell("passed", 6, 11), 2: { ...cell("passed", 6, 12), errorsRerun: 1 } } };
    const html = renderToStaticMarkup(
      createElement(MatrixView, {
        rows: [rerun, row(2, "steady")],
        candidates: [cand(1, "base"), cand(2, "cand")],
        total: 2,
        page: 1,
        pageCount: 1,
        pageSize: 50,
        filter: "all",
        sort: "position",
        href: () => "/x",
        regressionKeys: new Set<string>(),
        regressedCells: new Map(),
      }),
    );
    const down = rowOf(html, "down");
    expect(down).toContain(">error rerun<");
    expect(down).toContain("Open trial of down by cand: passed, 6 of 6 trials passed, 1 errored trial rerun");
    expect(rowOf(html, "steady")).not.toContain("rerun");
  });
});
