/**
 * What a bench spent and which trials its spend cap kept from starting (issue #16 §4).
 */
import type { Db } from "../client";
import { BUDGET_SKIP } from "@/lib/bench/budget";

/** A bench's spending: USD spent by its finished trials, and trials skipped as "budget" per candidate id. */
export interface BenchSpend {
  spentUsd: number;
  budgetSkipped: Map<number, number>;
  /** All candidates together. */
  budgetSkippedTotal: number;
}

/** Reads a bench's spending (one row and one grouped count). */
export function benchSpend(db: Db, benchId: number): BenchSpend {
  const spent = db.$client.prepare("SELECT spent_usd AS s FROM benches WHERE id = ?").get(benchId) as { s: number } | undefined;
  const rows = db.$client
    .prepare(
      // By status first: without it SQLite walks every trial row of the bench for the grouping's order (results page speed, issue #16).
      `SELECT candidate_id AS c, count(*) AS n FROM trials INDEXED BY trials_bench_status
       WHERE bench_id = ? AND status = 'skipped' AND (error = ? OR error LIKE ? ESCAPE '\\') GROUP BY candidate_id`,
    )
    .all(benchId, BUDGET_SKIP, `${BUDGET_SKIP}:%`) as { c: number; n: number }[];
  const budgetSkipped = new Map(rows.map((r) => [r.c, r.n]));
  return { spentUsd: spent?.s ?? 0, budgetSkipped, budgetSkippedTotal: rows.reduce((a, r) => a + r.n, 0) };
}
