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
 * The spend cap with a candidate whose trial cost varies by case (issue #16 §4, found by a tester: a
 * $2.00 cap spent $2.21 at concurrency 8). The baseline costs $0.011 a trial; the candidate $0.017 on
 * most cases and $0.225 on every third (a long answer), and its plan figure ($0.04) is between the
 * two. Counted at its mean cost per finished trial, the cheap answers pull its estimate under the
 * dear ones' cost, so dear trials kept starting past the cap.
 */
export const VARIED = { baselineUsd: 0.011, cheapUsd: 0.017, dearUsd: 0.225, planUsd: [0.011, 0.04], capUsd: 2, concurrency: 8, cases: 40 } as const;

/** The varied scenario's settings as a launch stores them (plan's mean, each candidate's figure). */
export function variedCapSettings(): string {
  const mean = (VARIED.planUsd[0] + VARIED.planUsd[1]) / 2;
  return JSON.stringify({ concurrency: VARIED.concurrency, spendCap: { usd: VARIED.capUsd, trialEstimateUsd: mean, candidateTrialUsd: [...VARIED.planUsd] } });
}

/** What the trial of candidate `position` on case `caseIndex` costs in the varied scenario (USD). */
export function variedCost(position: number, caseIndex: number): number {
  if (position === 0) return VARIED.baselineUsd;
  return caseIndex % 3 === 0 ? VARIED.dearUsd : VARIED.cheapUsd;
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
  const trials = new Map([...positions].map(([id, position]) => [id, { position, costUsd: MIXED.costs[position] }]));
  const run = await runPriced(queue, trials, estimates, { ...o, capUsd: MIXED.capUsd, slow: (c) => c === Math.max(...MIXED.costs) });
  return { started: run.started, startedOf: run.startedOf, boundUsd: run.boundUsd };
}

/**
 * Runs the bench to its end with one claimer: each round claims what the queue allows and stores
 * each trial's result (of its own cost) at once, or `slowRounds` rounds after its claim when
 * `slow(cost)` (a dear answer is also a long one).
 * @param trials each trial's candidate position and real cost (USD), by trial id
 * @param estimates each candidate's plan figure as stored at launch (USD)
 * @returns what started (in all, per candidate, in USD) and the bound the bench's spend may not
 *   pass: the cap plus what the trials running after the last claim that started any cost above
 *   what that claim could know of them — their candidate's plan figure, or its dearest finished
 *   trial when higher. That claim kept spent + those trials' estimates within the cap; what they
 *   really cost above their estimates is all the bench can end above it.
 */
export async function runPriced<Tx>(
  queue: TrialJobQueue<Tx>,
  trials: Map<number, { position: number; costUsd: number }>,
  estimates: readonly number[],
  o: { now: number; capUsd: number; slow: (costUsd: number) => boolean; slowRounds?: number },
): Promise<{ started: number; startedOf: number[]; startedUsd: number; boundUsd: number }> {
  const slowRounds = o.slowRounds ?? 3;
  const running: { claim: TrialClaim; due: number; position: number; costUsd: number }[] = [];
  const dearestOf = estimates.map(() => 0);
  const finishedOf = estimates.map(() => 0);
  const startedOf = estimates.map(() => 0);
  let startedUsd = 0;
  let unknowable = 0;
  for (let round = 0; round < 1_000; round++) {
    const claims = await queue.claim("w", 100, o.now + round);
    // Nothing running and nothing started: the cap is exhausted (its queued trials skipped) or all ran.
    if (claims.length === 0 && running.length === 0) break;
    for (const claim of claims) {
      const { position, costUsd } = trials.get(claim.trialId)!;
      startedOf[position]++;
      startedUsd += costUsd;
      running.push({ claim, due: round + (o.slow(costUsd) ? slowRounds : 0), position, costUsd });
    }
    if (claims.length) {
      const known = (p: number) => (finishedOf[p] > 0 ? Math.max(estimates[p], dearestOf[p]) : estimates[p]);
      unknowable = running.reduce((a, r) => a + Math.max(0, r.costUsd - known(r.position)), 0);
    }
    const due = running.filter((r) => r.due <= round);
    if (due.length) {
      const stored = await queue.completeMany(due.map((r) => ({ claim: r.claim, result: paid(r.costUsd, o.now + round) })));
      if (stored.length !== due.length) throw new Error(`round ${round}: ${due.length - stored.length} results were not stored`);
      for (const r of due) {
        finishedOf[r.position]++;
        dearestOf[r.position] = Math.max(dearestOf[r.position], r.costUsd);
        running.splice(running.indexOf(r), 1);
      }
    }
  }
  return { started: startedOf.reduce((a, n) => a + n, 0), startedOf, startedUsd, boundUsd: o.capUsd + unknowable };
}
