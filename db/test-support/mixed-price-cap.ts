/**
 * The spend cap with candidates of different price (issue #16 §4, found by two testers: a $2.00 cap
 * spent $2.20), the same scenario on either store's queue: a cheap and a 10× dearer candidate, high
 * concurrency, the cheap trials answering at once and the dear ones some claims later (a dear model
 * is also the slow one). The queue counted every running trial at the bench's mean cost per
 * finished trial — the cheap ones' — so up to `concurrency` dear trials started past the cap.
 */
import type { TrialClaim, TrialJobQueue, TrialResult } from "@/lib/bench/trial-jobs";

/** The scenario's prices: candidate 0 at $0.02 a trial, candidate 1 at $0.20, under a $2.00 cap. */
export const MIXED = { costs: [0.02, 0.2], capUsd: 2, concurrency: 10, cases: 30 } as const;

/** The bench's settings as a launch stores them: the plan's mean per trial and each candidate's own figure. */
export function mixedCapSettings(): string {
  const mean = (MIXED.costs[0] + MIXED.costs[1]) / 2;
  return JSON.stringify({ concurrency: MIXED.concurrency, spendCap: { usd: MIXED.capUsd, trialEstimateUsd: mean, candidateTrialUsd: [...MIXED.costs] } });
}

function paid(costUsd: number, now: number): TrialResult {
  return {
    status: "done",
    startedAt: now,
    finishedAt: now + 1,
    latencyMs: 1,
    inputTokens: 1,
    outputTokens: 1,
    costUsd,
    finishReason: "stop",
    output: "ok",
    record: null,
    checks: [],
    error: null,
  };
}

/**
 * Runs the bench to its end with one claimer: each round claims what the queue allows, stores the
 * cheap candidate's results at once and the dear one's `slowRounds` rounds after their claim.
 * @param positions each trial's candidate position, by trial id
 * @param estimates each candidate's estimate as stored at launch (USD)
 * @returns what started, and the bound the bench's spend may not pass: the cap, plus what trials
 *   that started before any trial of their candidate finished cost above their candidate's estimate
 *   (what no claim could have known); 0 extra when the estimates are the real costs
 */
export async function runMixedPrices<Tx>(
  queue: TrialJobQueue<Tx>,
  positions: Map<number, number>,
  estimates: readonly number[],
  o: { now: number; slowRounds?: number },
): Promise<{ started: number; startedOf: number[]; boundUsd: number }> {
  const slow = o.slowRounds ?? 3;
  const running: { claim: TrialClaim; due: number; position: number }[] = [];
  const finishedOf = MIXED.costs.map(() => 0);
  const startedOf = MIXED.costs.map(() => 0);
  let unknowable = 0;
  for (let round = 0; round < 1_000; round++) {
    const claims = await queue.claim("w", 100, o.now + round);
    // Nothing running and nothing started: the cap is exhausted (its queued trials skipped) or all ran.
    if (claims.length === 0 && running.length === 0) break;
    for (const claim of claims) {
      const position = positions.get(claim.trialId)!;
      startedOf[position]++;
      if (finishedOf[position] === 0) unknowable += Math.max(0, MIXED.costs[position] - estimates[position]);
      running.push({ claim, due: round + (MIXED.costs[position] === Math.max(...MIXED.costs) ? slow : 0), position });
    }
    const due = running.filter((r) => r.due <= round);
    if (due.length) {
      const stored = await queue.completeMany(due.map((r) => ({ claim: r.claim, result: paid(MIXED.costs[r.position], o.now + round) })));
      if (stored.length !== due.length) throw new Error(`round ${round}: ${due.length - stored.length} results were not stored`);
      for (const r of due) {
        finishedOf[r.position]++;
        running.splice(running.indexOf(r), 1);
      }
    }
  }
  return { started: startedOf[0] + startedOf[1], startedOf, boundUsd: MIXED.capUsd + unknowable };
}
