/**
 * The paired statistics are computed when a bench is finalized and stored in its summary (issue
 * #16, speed: the results page parsed the checks of every regression on every render). Every
 * re-finalize (confirm round, error rerun: see reruns.test.ts) and every rescore (a human verdict
 * from the Review page) computes them again; a summary stored before has none and is computed.
 */
import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { getBench } from "@/db/queries/benches";
import type { CheckRecord } from "@/lib/bench/types";
import { rescoreBench } from "../review/verdicts";
import { benchEvidence } from "./comparisons";
import { recordedRequest, recordedSuite, runBench } from "./test-support/recorded-bench";

describe("the stored evidence of a bench", () => {
  it("is stored at finalize, equals the figures computed from the trials, is read back as stored, and a rescore recomputes it", async () => {
    const db = openMemoryDatabase();
    // `cand` answers q1 wrong: one regression against the baseline, 3 of 4 cases passed.
    const promptId = await recordedSuite(
      db,
      ["q1", "q2", "q3", "q4"].map((key) => ({ key, expected: "right", answers: { base: "right", cand: key === "q1" ? "wrong" : "right" } })),
    );
    const bench = await runBench(db, recordedRequest(promptId, ["base", "cand"]));
    expect(bench.status).toBe("finished");
    const candId = bench.candidates[1].id;
    expect(Object.keys(bench.summary!.evidence ?? {})).toEqual(bench.candidates.map((c) => String(c.id)));

    const stored = (await benchEvidence(db, bench.id, bench))!;
    // A summary stored before has no evidence: computed from the trials, the same figures.
    const { evidence: _, ...before } = bench.summary!;
    expect(await benchEvidence(db, bench.id, { ...bench, summary: before })).toEqual(stored);
    expect(stored[1].candidateId).toBe(candId);
    expect(stored[1].rates.trialPassRate).toMatchObject({ passed: 3, scored: 4 });
    expect(stored[1].comparisons).toMatchObject([{ against: "baseline", againstCandidate: bench.candidates[0].label, n: 4, regressions: 1, fixes: 0 }]);
    // Recorded answers against a recorded baseline on the exact check: a deterministic replay.
    expect(stored[1].regressions.map((r) => [r.caseKey, r.regressionStatus, r.regressionReason])).toEqual([["q1", "confirmed", "deterministic replay"]]);

    // The q1 trial of `cand` now passes (as a human pass overrides a verdict): the page keeps the stored figures until the bench is recomputed…
    const t = db.$client
      .prepare(
        "SELECT t.id, t.checks FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id WHERE t.bench_id = ? AND t.candidate_id = ? AND bc.case_key = 'q1'",
      )
      .get(bench.id, candId) as { id: number; checks: string };
    const passed = (JSON.parse(t.checks) as CheckRecord[]).map((c) => ({ ...c, verdict: "passed" as const, score: 1 }));
    db.$client.prepare("UPDATE trials SET checks = ?, passed_checks = 1, failed_checks = 0 WHERE id = ?").run(JSON.stringify(passed), t.id);
    expect(await benchEvidence(db, bench.id)).toEqual(stored);
    // …which a human verdict does (rescoreBench): no regression, 4 of 4.
    await rescoreBench(db, bench.id);
    const after = (await benchEvidence(db, bench.id))!;
    expect(after[1].rates.trialPassRate).toMatchObject({ passed: 4, scored: 4 });
    expect(after[1].comparisons).toMatchObject([{ n: 4, regressions: 0, fixes: 0 }]);
    expect(after[1].regressions).toEqual([]);
    expect((await getBench(db, bench.id))!.summary!.evidence![String(candId)].statuses).toEqual([]);
  });
});
