/** What a stored batch adds to the spend rows, and the statements that add it (db/pg/result-spend.ts). */
import { describe, expect, it } from "vitest";
import type { TrialClaim, TrialResult } from "@/lib/bench/trial-jobs";
import { spendSql, spendOf } from "./result-spend";

const claim = (trialId: number, token = `t${trialId}`): TrialClaim => ({ trialId, benchId: 1, providerKey: "p", token, delivery: 1, expiresAt: 0 });
const result = (status: TrialResult["status"], costUsd: number | null): TrialResult =>
  ({
    status,
    startedAt: 0,
    finishedAt: 1,
    latencyMs: 1,
    inputTokens: 1,
    outputTokens: 1,
    costUsd,
    finishReason: "stop",
    output: "o",
    record: null,
    checks: null,
    error: null,
  }) as TrialResult;

describe("spendOf", () => {
  it("sums each candidate's and bench's stored results only, in ascending id order, leaving out rows nothing was spent on or answered", () => {
    const batch = [
      { claim: claim(1), result: result("done", 0.25) },
      { claim: claim(2), result: result("done", 0.5) },
      { claim: claim(3), result: result("error", null) },
      { claim: claim(4), result: result("done", 4) },
      { claim: claim(5), result: result("done", 1) },
    ];
    const stored = [
      { trialId: 2, token: "t2", benchId: 9, candidateId: 30 },
      { trialId: 1, token: "t1", benchId: 9, candidateId: 30 },
      { trialId: 3, token: "t3", benchId: 9, candidateId: 20 },
      { trialId: 5, token: "t5", benchId: 7, candidateId: 10 },
    ]; // trial 4's claim was no longer current: not stored, not counted
    expect(spendOf(batch, stored)).toEqual({
      candidates: [
        { id: 10, usd: 1, answered: 1, maxUsd: 1 },
        { id: 30, usd: 0.75, answered: 2, maxUsd: 0.5 },
      ],
      benches: [
        { id: 7, usd: 1, answered: 1, maxUsd: 1 },
        { id: 9, usd: 0.75, answered: 2, maxUsd: 0.5 },
      ],
    });
  });

  it("refuses a stored claim the batch does not hold", () => {
    expect(() => spendOf([{ claim: claim(1), result: result("done", 1) }], [{ trialId: 1, token: "other", benchId: 1, candidateId: 1 }])).toThrow(
      "trial 1: stored a claim the batch does not hold",
    );
  });
});

describe("spendSql", () => {
  it("adds to candidates' rows, then benches'", () => {
    const sql = spendSql({
      candidates: [{ id: 3, usd: 1e-7, answered: 2, maxUsd: 5e-8 }],
      benches: [{ id: 1, usd: 1e-7, answered: 2, maxUsd: 5e-8 }],
    });
    expect(sql).toEqual([
      "UPDATE bench_candidates SET spent_usd = spent_usd + '1e-7'::float8, spent_trials = spent_trials + 2, max_trial_usd = greatest(max_trial_usd, '5e-8'::float8) WHERE id = 3",
      "UPDATE benches SET spent_usd = spent_usd + '1e-7'::float8, spent_trials = spent_trials + 2 WHERE id = 1",
    ]);
    expect(spendSql({ candidates: [], benches: [] })).toEqual([]);
  });

  it("refuses a number that is not finite or an id that is not whole, naming it", () => {
    expect(() => spendSql({ candidates: [], benches: [{ id: 1, usd: NaN, answered: 1, maxUsd: 0 }] })).toThrow("expected a finite number of USD, got NaN");
    expect(() => spendSql({ candidates: [{ id: 1.5, usd: 1, answered: 1, maxUsd: 1 }], benches: [] })).toThrow("expected a whole number, got 1.5");
  });
});
