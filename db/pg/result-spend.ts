/**
 * What a batch of stored results adds to the spend counters their bench's cap reads
 * (`bench_candidates.spent_usd/spent_trials/max_trial_usd`, `benches.spent_usd/spent_trials`), and
 * the statements that add it, for db/pg/trial-job-queue.ts `completeMany`.
 */
import type { TrialClaim, TrialResult } from "@/lib/bench/trial-jobs";
import { outcomeSpend } from "@/lib/bench/budget";

/** What one row's stored results spent: USD, how many answered, and (candidates) the dearest one. */
export interface SpendDelta {
  id: number;
  usd: number;
  answered: number;
  maxUsd: number;
}

/**
 * Sums what the stored results spent, by candidate and by bench. As SQLite's complete: a finished
 * answer counts even at $0 (the mean cost per trial); a row nothing was spent on or answered is left out.
 * @param batch the results given to `completeMany`
 * @param stored the claims it stored (trial, token, bench, candidate): only these count
 * @returns each in ascending id order (the order their rows are locked in)
 */
export function spendOf(
  batch: { claim: TrialClaim; result: TrialResult }[],
  stored: { trialId: number; token: string; benchId: number; candidateId: number }[],
): { candidates: SpendDelta[]; benches: SpendDelta[] } {
  const byClaim = new Map(batch.map((e) => [`${e.claim.trialId}:${e.claim.token}`, e.result]));
  const candidates = new Map<number, SpendDelta>();
  const benches = new Map<number, SpendDelta>();
  const add = (into: Map<number, SpendDelta>, id: number, usd: number, answered: number) => {
    const d = into.get(id) ?? { id, usd: 0, answered: 0, maxUsd: 0 };
    d.usd += usd;
    d.answered += answered;
    d.maxUsd = Math.max(d.maxUsd, usd);
    into.set(id, d);
  };
  for (const s of stored) {
    const result = byClaim.get(`${s.trialId}:${s.token}`);
    if (!result) throw new Error(`trial ${s.trialId}: stored a claim the batch does not hold`);
    const usd = outcomeSpend(result);
    const answered = result.status === "done" ? 1 : 0;
    add(candidates, s.candidateId, usd, answered);
    add(benches, s.benchId, usd, answered);
  }
  const rows = (m: Map<number, SpendDelta>) => [...m.values()].filter((d) => d.usd > 0 || d.answered > 0).sort((a, b) => a.id - b.id);
  return { candidates: rows(candidates), benches: rows(benches) };
}

/** A float8 literal of a finite number (its shortest exact form). @throws naming the value otherwise */
function float8(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`spend: expected a finite number of USD, got ${n}`);
  return `'${String(n)}'::float8`;
}

/** An id or count as a literal. @throws naming the value when it is not a safe whole number */
function whole(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`spend: expected a whole number, got ${n}`);
  return String(n);
}

/**
 * The statements that add `spend` to its rows, for the COMMIT's round trip (db/pg/client.ts
 * `withPgTransactionCommittingWith`): candidates' rows first, then benches', each in ascending id
 * order, so two batches lock shared rows in the same order and cannot deadlock. Numbers only,
 * written as checked literals.
 */
export function spendSql(spend: { candidates: SpendDelta[]; benches: SpendDelta[] }): string[] {
  return [
    ...spend.candidates.map(
      (c) =>
        `UPDATE bench_candidates SET spent_usd = spent_usd + ${float8(c.usd)}, spent_trials = spent_trials + ${whole(c.answered)}, ` +
        `max_trial_usd = greatest(max_trial_usd, ${float8(c.maxUsd)}) WHERE id = ${whole(c.id)}`,
    ),
    ...spend.benches.map(
      (b) => `UPDATE benches SET spent_usd = spent_usd + ${float8(b.usd)}, spent_trials = spent_trials + ${whole(b.answered)} WHERE id = ${whole(b.id)}`,
    ),
  ];
}
