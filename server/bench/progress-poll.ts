/**
 * What the bench page's progress poll reads each second while a bench runs (issue #16): its
 * progress, and what it spent so far — the spend line under the title follows the run with it
 * instead of showing the figures of the page's first render ("spent $0.00" beside 12 done trials).
 */
import type { Db } from "@/db/client";
import { benchSpend, type BenchSpend } from "@/db/queries/bench-budget";
import { getBenchProgress, type BenchProgress } from "@/db/queries/benches";
import { progressLease } from "./progress-lease";

/** The spend line's figures, as JSON carries them (BenchSpend without its per-candidate Map of budget skips). */
export type SpendFigures = Pick<BenchSpend, "spentUsd" | "spentTrials" | "candidates" | "budgetSkippedTotal">;

/** The figures of `spend` that the spend line shows (no Map: they cross to the browser). */
export function spendFigures(spend: BenchSpend): SpendFigures {
  const { spentUsd, spentTrials, candidates, budgetSkippedTotal } = spend;
  return { spentUsd, spentTrials, candidates, budgetSkippedTotal };
}

/** A bench's progress with its spend figures. */
export type BenchProgressPoll = BenchProgress & { spend: SpendFigures };

/**
 * Bench `id`'s progress and spending, ready for `Response.json`.
 * @returns null when there is no such bench
 */
export async function benchProgressPoll(db: Db, id: number): Promise<BenchProgressPoll | null> {
  const p = await getBenchProgress(db, id, progressLease());
  if (!p) return null;
  return { ...p, spend: spendFigures(await benchSpend(db, id)) };
}
