/**
 * The paired statistics over the demo's GSM8K recorded candidates, through the real bench path
 * (plan → queue → worker → results). Verdicts are the dataset's own is_correct flags, so the
 * figures are known independently: 6b-finetuning solves 45 of 200, 6b-verification 75; 8
 * problems only the first solves (b), 38 only the second (c) — the reference. Then
 * Δ = 30/200 = +15.0 points, exact McNemar p = 2·P(X ≤ 8 | 46, ½) = 9.24769992138863e-6 (scipy
 * binomtest(8, 46)), SE = √(46 − 900/200)/200 → CI 0.15 ± 1.959964·0.032210 = (0.08687, 0.21313).
 */
import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { getBench } from "@/db/queries/benches";
import { listPrompts } from "@/db/queries/systems";
import { seedDemoWorkspace } from "@/db/seed/demo";
import { startBenchWorker } from "../worker";
import { benchEvidence } from "./comparisons";
import { launchFromRequest } from "./prepare";
import { trialFacts } from "@/db/queries/bench-results";
import { benchCaseTallies } from "@/db/queries/bench-tallies";
import { benchTallies } from "@/lib/bench/stats/tallies";

type Db = ReturnType<typeof openMemoryDatabase>;

async function runToEnd(db: Db, id: number) {
  const worker = startBenchWorker(db, { env: {}, pollMs: 20 });
  try {
    for (const end = Date.now() + 60_000; ;) {
      const b = await getBench(db, id);
      if (b && (b.status === "finished" || b.status === "cancelled")) return b;
      if (Date.now() > end) throw new Error(`bench ${id} did not finish`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await worker.stop(1000);
  }
}

async function launch(db: Db, repeats: number, key: string) {
  const solver = (await listPrompts(db, "grade-school-math"))[0];
  const { id } = await launchFromRequest(db, {
    systemId: "grade-school-math",
    promptId: solver.id,
    candidates: ["model-6b-finetuning", "model-6b-verification"].map((n) => ({ kind: "recorded" as const, recordedName: n })),
    baseline: { kind: "candidate", index: 0 },
    selection: { kind: "all" },
    budget: null,
    repeats,
    concurrency: 16,
    timeoutSeconds: 30,
    maxSteps: 5,
    judgeModelConfigId: null,
    launchKey: key,
  });
  await runToEnd(db, id);
  return id;
}

describe("paired statistics of the GSM8K recorded candidates", () => {
  it("6b-verification vs 6b-finetuning: b = 8, c = 38, Δ = +15.0 points, exact McNemar p ≈ 9.2e-6; its regressions are deterministic replays (confirmed, no p)", async () => {
    const db = openMemoryDatabase();
    await seedDemoWorkspace(db);
    const first = await launch(db, 1, "stats-gsm-1");
    const [base, cand] = (await benchEvidence(db, first))!;
    expect(base.comparisons).toEqual([]); // the baseline is not compared with itself, and there is no earlier bench
    expect(base.rates).toMatchObject({ cases: 200, trialPassRate: { passed: 45, scored: 200 }, passAt: null });
    expect(cand.comparisons).toHaveLength(1);
    const c = cand.comparisons[0];
    expect(c).toMatchObject({
      against: "baseline",
      againstCandidate: "model-6b-finetuning",
      againstBenchId: first,
      n: 200,
      regressions: 8,
      fixes: 38,
      test: "exact McNemar",
      verdict: "better",
      unpaired: { candidate: 0, against: 0 },
    });
    expect(c.delta! * 100).toBeCloseTo(15.0, 10);
    expect(c.pValue).toBeCloseTo(9.24769992138863e-6, 15);
    expect(c.ci95![0]).toBeCloseTo(0.08686907630590096, 9);
    expect(c.ci95![1]).toBeCloseTo(0.21313092369409903, 9);
    // Wilson 95 % of 75/200 (scipy binomtest(75, 200).proportion_ci(method="wilson")): (0.3108543685840982, 0.4438569630102185).
    expect(cand.rates.trialPassRate.ci95![0]).toBeCloseTo(0.3108543685840982, 9);
    expect(cand.rates.trialPassRate.ci95![1]).toBeCloseTo(0.4438569630102185, 9);
    // Both candidates are recorded and the broken check is code (gsm8k): a rerun replays the same
    // answers, so each broken check is confirmed as a deterministic replay, without a p value
    // (Fisher over one trial each, 1/1 → 0/1, would only say p = 0.5: "suspected").
    expect(cand.regressions).toHaveLength(8);
    expect(cand.regressions.map((r) => [r.regressionStatus, r.regressionReason, r.regressionPValue])).toEqual(
      Array(8).fill(["confirmed", "deterministic replay", null]),
    );
    // The SQL counts the evidence reads agree with the tallies of the parsed checks.
    const pure = benchTallies(await trialFacts(db, first));
    const sql = await benchCaseTallies(db, first);
    expect([...sql.keys()].sort()).toEqual([...pure.keys()].sort());
    for (const [id, side] of pure) expect(sql.get(id)).toEqual(side.cases);

    // The same candidates with 3 repeats: recorded answers do not change, so the 8 broken checks
    // pass 3/3 on the baseline and 0/3 on the candidate; Fisher would say p = 1/20 = 0.05 from three
    // copies of one answer: the p is dropped, the reason given. Against the last bench (whose
    // reference, 6b-finetuning, is recorded too) the same.
    const second = await launch(db, 3, "stats-gsm-2");
    const [base2, cand2] = (await benchEvidence(db, second))!;
    expect(cand2.regressions.filter((r) => r.against === "baseline")).toHaveLength(8);
    expect(
      cand2.regressions.every((r) => r.regressionStatus === "confirmed" && r.regressionReason === "deterministic replay" && r.regressionPValue === null),
    ).toBe(true);
    expect(base2.rates.passAt).toMatchObject({ "1": 45 / 200, "3": 45 / 200 });
    const [vsBase, vsLast] = cand2.comparisons;
    expect(vsBase).toMatchObject({ against: "baseline", n: 200, regressions: 8, fixes: 38, test: "paired t", verdict: "better", signTestPValue: null });
    expect(vsBase.delta).toBeCloseTo(0.15, 12);
    // The last bench's reference is its recommended candidate, the 6b-finetuning baseline (every other is blocked).
    expect(vsLast).toMatchObject({ against: "last", againstCandidate: "model-6b-finetuning", againstBenchId: first, n: 200, regressions: 8, fixes: 38 });
    expect(base2.comparisons).toMatchObject([{ against: "last", n: 200, regressions: 0, fixes: 0, delta: 0, pValue: 1, verdict: "inconclusive" }]);
  }, 120_000);

  it("is null for a bench that does not exist", async () => {
    const db = openMemoryDatabase();
    expect(await benchEvidence(db, 12345)).toBeNull();
  });
});
