/**
 * The statistics stored at finalize stay the same when the code computing them is made faster
 * (issue #16, speed): a seeded synthetic bench — 3 model candidates × 30 cases × 3 repeats, with
 * errored trials and unscored checks, after an earlier bench of the same prompt, then a confirm
 * round, an error rerun and a human verdict — stores exactly the evidence, trade-offs and
 * recommendation recorded in `__snapshots__/evidence-golden.txt`, which the code before the
 * speed work (commit e3bd44a) computed — except the pass-rate intervals with repeats (`trialPassRate.ci95`),
 * re-recorded on purpose when they became Wilson's on the effective number of cases (a Wald interval
 * had zero width when every trial failed).
 */
import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { getBench } from "@/db/queries/benches";
import { recordHumanVerdict } from "../review/verdicts";
import { startRerun } from "./reruns";
import { createSyntheticSuite, launchSyntheticBench, lcg, runSyntheticTrials, type SyntheticBench } from "./test-support/synthetic-bench";

const shape: SyntheticBench = {
  systemId: "golden",
  cases: 30,
  repeats: 3,
  candidates: [
    { name: "base", fails: 0.12, latencyMs: 800, outputTokens: 200 },
    { name: "cand", fails: 0.2, latencyMs: 900, outputTokens: 240 },
    { name: "other", fails: 0.08, latencyMs: 700, outputTokens: 180 },
  ],
  errorRate: 0.04,
  unscoredRate: 0.03,
};

describe("the stored statistics of a seeded bench", () => {
  it("equal the figures recorded before the speed work, after a confirm round, an error rerun and a human verdict", async () => {
    const db = openMemoryDatabase();
    const rnd = lcg(7);
    const suite = await createSyntheticSuite(db, shape);
    const first = await launchSyntheticBench(db, shape, suite, "golden-1");
    await runSyntheticTrials(db, first, shape, rnd);
    const id = await launchSyntheticBench(db, shape, suite, "golden-2", { maxLatencyIncreasePct: 20, maxCostIncreasePct: 30 });
    await runSyntheticTrials(db, id, shape, rnd);
    const snap = async () => {
      const b = (await getBench(db, id))!;
      const { evidence, tradeoffs, regressions, baselineCandidateId, referenceBenchId, referenceCandidateId } = b.summary!;
      return { evidence, tradeoffs, regressions, refs: { baselineCandidateId, referenceBenchId, referenceCandidateId }, recommendation: b.recommendation };
    };
    const finalized = await snap();
    expect(finalized.refs.referenceBenchId).toBe(first);
    expect(Object.values(finalized.regressions).flat().length).toBeGreaterThan(0);

    await startRerun(db, id, "confirm");
    await runSyntheticTrials(db, id, shape, rnd);
    const confirmed = await snap();
    expect(Object.values(confirmed.evidence!).some((e) => e.statuses.some(([s]) => s === "cleared" || s === "confirmed"))).toBe(true);

    await startRerun(db, id, "errors");
    await runSyntheticTrials(db, id, shape, rnd);
    const rerun = await snap();

    // A reviewer fails the judged check of the candidate's first passing trial of the first case.
    const t = db.$client
      .prepare(
        `SELECT t.id FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id
         WHERE t.bench_id = ? AND t.candidate_id = ? AND t.status = 'done' AND t.failed_checks = 0 ORDER BY bc.position, t.repeat LIMIT 1`,
      )
      .get(id, (await getBench(db, id))!.candidates[1].id) as { id: number };
    await recordHumanVerdict(db, id, { trialId: t.id, checkKey: "c:1", verdict: "fail", note: "" }, { reviewer: "r@example.com", now: 1 });
    const reviewed = await snap();

    // One line per stage and part (the regressions themselves are found as before: only their count is kept).
    const lines = Object.entries({ finalized, confirmed, rerun, reviewed }).flatMap(([stage, { regressions, ...parts }]) => [
      `${stage}.regressions ${JSON.stringify(Object.fromEntries(Object.entries(regressions).map(([k, v]) => [k, v.length])))}`,
      ...Object.entries(parts).flatMap(([part, v]) =>
        part === "evidence"
          ? Object.entries(v ?? {}).map(([cand, e]) => `${stage}.evidence.${cand} ${JSON.stringify(e)}`)
          : [`${stage}.${part} ${JSON.stringify(v)}`],
      ),
    ]);
    await expect(lines.join("\n") + "\n").toMatchFileSnapshot("./__snapshots__/evidence-golden.txt");
  });
});
