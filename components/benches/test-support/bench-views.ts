/**
 * Shared fixtures of the bench page's component tests: the budget line's text as a user reads it,
 * and a bench of two candidates (`base`, the baseline, and `cand`) for the tables keyed by candidate.
 */
import { createElement, type ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { BenchDetail } from "@/db/queries/benches";
import { BudgetLine } from "../budget-line";

/** The budget line rendered on the server with `props`, its tags removed (the text a user reads). */
export function budgetLineText(props: ComponentProps<typeof BudgetLine>): string {
  return renderToStaticMarkup(createElement(BudgetLine, props)).replace(/<[^>]+>/g, "");
}

/** A bench whose candidates are #1 and #2 with `labels` (default `base` and `cand`), #1 its baseline: enough for the flip table and evidence charts. */
export function twoCandidateBench(labels: [string, string] = ["base", "cand"]): BenchDetail {
  return {
    candidates: [
      { id: 1, label: labels[0] },
      { id: 2, label: labels[1] },
    ],
    summary: { baselineCandidateId: 1 },
  } as unknown as BenchDetail;
}
