/**
 * What a bench spent and which trials its spend cap kept from starting (issue #16 §4).
 */
import { and, count, eq, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { benchCandidates, benches, trials } from "../schema";
import { trialsColumn, trialsIndexedBy } from "./trials-from";
import { BUDGET_SKIP } from "@/lib/bench/budget";
import type { TxDb } from "../transaction";
import type { BenchSettings } from "./benches";

/** What one candidate of a bench spent: USD by its finished trials, how many of them answered, and its dearest one (bench_candidates.spent_usd, spent_trials, max_trial_usd). */
export interface CandidateSpent {
  id: number;
  position: number;
  spentUsd: number;
  spentTrials: number;
  maxTrialUsd: number;
}

/** A bench's spending: USD spent by its finished trials (all, and per candidate), and trials skipped as "budget" per candidate id. */
export interface BenchSpend {
  spentUsd: number;
  /** Its trials that finished with an answer (benches.spent_trials). */
  spentTrials: number;
  /** Per candidate, by position: what the spend cap counts its running trials against. */
  candidates: CandidateSpent[];
  budgetSkipped: Map<number, number>;
  /** All candidates together. */
  budgetSkippedTotal: number;
}

/** The columns of a candidate's spend ({@link CandidateSpent}): also read, prepared, by the SQLite claim's spend cap. */
export const CANDIDATE_SPENT_COLUMNS = {
  id: benchCandidates.id,
  position: benchCandidates.position,
  spentUsd: benchCandidates.spentUsd,
  spentTrials: benchCandidates.spentTrials,
  maxTrialUsd: benchCandidates.maxTrialUsd,
};

/** Each candidate's spend of bench `benchId`, by position. */
async function candidatesSpent(db: Db, benchId: number): Promise<CandidateSpent[]> {
  return db.select(CANDIDATE_SPENT_COLUMNS).from(benchCandidates).where(eq(benchCandidates.benchId, benchId)).orderBy(benchCandidates.position);
}

/** Reads a bench's spending (two rows' worth of reads and one grouped count). */
export async function benchSpend(db: Db, benchId: number): Promise<BenchSpend> {
  const spent = await first(db.select({ s: benches.spentUsd, n: benches.spentTrials }).from(benches).where(eq(benches.id, benchId)));
  const candidates = await candidatesSpent(db, benchId);
  const rows = await db
    .select({ c: trialsColumn(trials.candidateId), n: count() })
    // By status first: without it SQLite walks every trial row of the bench for the grouping's order (results page speed, issue #16).
    .from(trialsIndexedBy(db, "trials_bench_status"))
    .where(
      and(
        eq(trials.benchId, benchId),
        eq(trials.status, "skipped"),
        or(eq(trials.error, BUDGET_SKIP), sql`${trials.error} LIKE ${`${BUDGET_SKIP}:%`} ESCAPE '\\'`),
      ),
    )
    .groupBy(trials.candidateId);
  const budgetSkipped = new Map(rows.map((r) => [r.c, r.n]));
  return { spentUsd: spent?.s ?? 0, spentTrials: spent?.n ?? 0, candidates, budgetSkipped, budgetSkippedTotal: rows.reduce((a, r) => a + r.n, 0) };
}

/**
 * What a bench's finished trials spent (USD) and how many they were, in all and per candidate: what
 * its spend cap counts against (benches.spent_usd, spent_trials; bench_candidates' own).
 */
export async function benchSpentSoFar(db: Db, benchId: number): Promise<{ spentUsd: number; spentTrials: number; candidates: CandidateSpent[] }> {
  const r = await first(db.select({ spentUsd: benches.spentUsd, spentTrials: benches.spentTrials }).from(benches).where(eq(benches.id, benchId)));
  return { ...(r ?? { spentUsd: 0, spentTrials: 0 }), candidates: await candidatesSpent(db, benchId) };
}

/**
 * Raises bench `benchId`'s spend cap to `usd` inside transaction `tx` (a rerun the cap would stop,
 * issue #16 §3–4); a bench without a cap, or with a higher one, is left as it is. The cap before
 * the raise is kept with it (`raisedForRerun`) until the rerun ends.
 * @returns whether the cap was changed
 */
export async function raiseSpendCapTx(tx: TxDb, benchId: number, usd: number): Promise<boolean> {
  const row = await first(tx.select({ settings: benches.settings, spentUsd: benches.spentUsd }).from(benches).where(eq(benches.id, benchId)));
  if (!row) return false;
  const settings = JSON.parse(row.settings) as BenchSettings;
  if (!settings.spendCap || settings.spendCap.usd >= usd) return false;
  // Kept until the rerun ends: a rerun cancelled before it spent anything puts the cap back (finalizeBench, capAfterRerun).
  settings.spendCap = { ...settings.spendCap, usd, raisedForRerun: { fromUsd: settings.spendCap.usd, spentUsd: row.spentUsd } };
  await tx
    .update(benches)
    .set({ settings: JSON.stringify(settings) })
    .where(eq(benches.id, benchId));
  return true;
}

/**
 * The trials of the bench whose id is `benchIdSql` that its spend cap kept from starting in its
 * launched run: what makes a finished bench partial (issue #16). Raw SQL over alias `t`: inside a
 * query on `benches`, drizzle would write a bare "id" that the subquery's own table shadows.
 */
const launchedBudgetSkips = (benchIdSql: ReturnType<typeof sql>) =>
  sql`SELECT 1 FROM trials t WHERE t.bench_id = ${benchIdSql} AND t.status = 'skipped' AND t.rerun IS NULL AND (t.error = ${BUDGET_SKIP} OR t.error LIKE ${`${BUDGET_SKIP}:%`})`;

/** No trial of the bench's launched run was kept from starting by its spend cap (a condition on `benches`, by its table name). */
export const NOT_CUT_BY_BUDGET = sql`NOT EXISTS (${launchedBudgetSkips(sql.raw("benches.id"))})`;

/** How many trials of bench `benchId`'s launched run its spend cap kept from starting (skipped as budget); reruns are not counted. */
export async function budgetSkippedInResults(db: Db, benchId: number): Promise<number> {
  const r = await first(
    db
      .select({ n: count() })
      .from(trials)
      .where(
        and(
          eq(trials.benchId, benchId),
          eq(trials.status, "skipped"),
          sql`${trials.rerun} IS NULL`,
          or(eq(trials.error, BUDGET_SKIP), sql`${trials.error} LIKE ${`${BUDGET_SKIP}:%`} ESCAPE '\\'`),
        ),
      ),
  );
  return r?.n ?? 0;
}
