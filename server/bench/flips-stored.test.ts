/**
 * The flip table is stored with the summary at finalize (issue #16, speed: the results page read
 * every matrix row to build it on each render), equal to the table built from the matrix, and a
 * rescore (a human verdict) or a rerun round stores it again.
 */
import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { getBench } from "@/db/queries/benches";
import { matrixRows } from "@/db/queries/bench-matrix";
import { flipTable, storedFlips } from "@/lib/bench/evidence/flips";
import { recordHumanVerdict } from "../review/verdicts";
import { startRerun } from "./reruns";
import { createSyntheticSuite, launchSyntheticBench, lcg, runSyntheticTrials, type SyntheticBench } from "./test-support/synthetic-bench";

const shape: SyntheticBench = {
  systemId: "flips",
  cases: 60,
  repeats: 1,
  candidates: [
    { name: "base", fails: 0.1, latencyMs: 500, outputTokens: 100 },
    { name: "cand", fails: 0.25, latencyMs: 600, outputTokens: 120 },
  ],
  errorRate: 0.05,
};

describe("the stored flip table", () => {
  it("equals the table from the matrix at finalize, after an error rerun, and after a human verdict", async () => {
    const db = openMemoryDatabase();
    const suite = await createSyntheticSuite(db, shape);
    const id = await launchSyntheticBench(db, shape, suite, "flips-1");
    const rnd = lcg(11);
    await runSyntheticTrials(db, id, shape, rnd);
    const fromMatrix = async () => {
      const b = (await getBench(db, id))!;
      return storedFlips(
        flipTable(
          await matrixRows(db, id),
          b.summary!.baselineCandidateId!,
          b.candidates.map((c) => c.id),
        ),
      );
    };
    const stored = async () => (await getBench(db, id))!.summary!.flips;
    const first = await stored();
    expect(first).toEqual(await fromMatrix());
    expect(first![0].counts.regressed).toBeGreaterThan(0);

    await startRerun(db, id, "errors");
    await runSyntheticTrials(db, id, shape, rnd);
    expect(await stored()).toEqual(await fromMatrix());

    // A reviewer fails the judged check of the candidate's first fully passing trial: that case now regresses (or stops being fixed).
    const b = (await getBench(db, id))!;
    const t = db.$client
      .prepare(
        `SELECT t.id, bc.case_key AS caseKey FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id
         WHERE t.bench_id = ? AND t.candidate_id = ? AND t.status = 'done' AND t.failed_checks = 0 ORDER BY bc.position LIMIT 1`,
      )
      .get(id, b.candidates[1].id) as { id: number; caseKey: string };
    const before = (await stored())!;
    await recordHumanVerdict(db, id, { trialId: t.id, checkKey: "c:1", verdict: "fail", note: "" }, { reviewer: "r@example.com", now: 1 });
    const after = (await stored())!;
    expect(after).toEqual(await fromMatrix());
    expect(after).not.toEqual(before);
  });
});
