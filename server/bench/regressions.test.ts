import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { referenceTrials } from "@/db/queries/bench-matrix";
import { recordedRequest, recordedSuite, runBench } from "./test-support/recorded-bench";

// Five questions: column `good` answers all of them, `bad` none, `fixer` only the last two.
const cases = ["q1", "q2", "q3", "q4", "q5"].map((key, i) => ({
  key,
  expected: `a${i}`,
  answers: { good: `a${i}`, bad: "wrong", fixer: i >= 3 ? `a${i}` : "wrong" },
}));

describe("regressions against the last bench of the suite", () => {
  it("a bench with baseline none is compared with the last bench: breaking its passing checks blocks the recommendation", async () => {
    const db = openMemoryDatabase();
    const promptId = await recordedSuite(db, cases);
    const first = await runBench(db, recordedRequest(promptId, ["good"]));
    expect(first.status).toBe("finished");
    const second = await runBench(db, recordedRequest(promptId, ["bad"], { baseline: { kind: "none" } }));
    expect(second.summary!.referenceBenchId).toBe(first.id);
    const regressions = second.summary!.regressions[String(second.candidates[0].id)];
    expect(regressions.map((r) => [r.caseKey, r.against])).toEqual(["q1", "q2", "q3", "q4", "q5"].map((k) => [k, "last bench"]));
    expect(second.recommendation!.recommendedCandidateId).toBeNull();
    expect(second.recommendation!.headline).not.toMatch(/with no regression/);
    expect(second.recommendation!.headline).toMatch(/breaks 5 previously passing checks \(bad: 5\)/);
  });

  it("with no baseline and no earlier bench, the headline says plainly that no regression check was possible", async () => {
    const db = openMemoryDatabase();
    const promptId = await recordedSuite(db, cases);
    const bench = await runBench(db, recordedRequest(promptId, ["fixer", "bad"], { baseline: { kind: "none" } }));
    expect(bench.summary!.referenceBenchId).toBeNull();
    expect(bench.recommendation!.recommendedCandidateId).toBe(bench.candidates[0].id);
    expect(bench.recommendation!.headline).toBe(
      "Recommended: fixer (40.0% of 5 scored checks), on pass rate alone: no regression check was possible (no baseline candidate and no earlier finished bench of this prompt to compare with).",
    );
  });
});

describe("which candidate regressed, against what, and what it fixed", () => {
  it("lists the fixes beside the regressions, naming the last bench's candidate", async () => {
    const db = openMemoryDatabase();
    const promptId = await recordedSuite(db, cases);
    const first = await runBench(db, recordedRequest(promptId, ["bad"]));
    const second = await runBench(db, recordedRequest(promptId, ["fixer"], { baseline: { kind: "none" } }));
    const cand = String(second.candidates[0].id);
    expect(second.summary!.fixes![cand].map((f) => [f.caseKey, f.against])).toEqual([
      ["q4", "last bench"],
      ["q5", "last bench"],
    ]);
    expect(second.recommendation!.candidates[0].fixes!.map((f) => f.caseKey)).toEqual(["q4", "q5"]);
    expect(second.recommendation!.lastBench).toEqual({ benchId: first.id, candidateLabel: "bad" });
  });

  it("a trial is shown with the baseline's trial of the same case and the last bench's", async () => {
    const db = openMemoryDatabase();
    const promptId = await recordedSuite(db, cases);
    const first = await runBench(db, recordedRequest(promptId, ["good"]));
    const bench = await runBench(db, recordedRequest(promptId, ["good", "bad"]));
    const [good, bad] = bench.candidates;
    // The regression is marked on the candidate that regressed, not only on the row.
    expect(bench.summary!.regressions[String(good.id)]).toEqual([]);
    expect(bench.summary!.regressions[String(bad.id)].map((r) => r.caseKey)).toEqual(["q1", "q2", "q3", "q4", "q5"]);
    const t = db.$client
      .prepare("SELECT t.id FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id WHERE t.bench_id = ? AND t.candidate_id = ? AND bc.case_key = 'q2'")
      .get(bench.id, bad.id) as { id: number };
    const refs = await referenceTrials(db, bench, t.id);
    expect(refs.map((r) => [r.role, r.benchId, r.label, r.output, r.verdicts])).toEqual([
      ["baseline", bench.id, "good", "a1", { passed: 1, failed: 0, unscored: 0, error: 0 }],
      ["last bench", first.id, "good", "a1", { passed: 1, failed: 0, unscored: 0, error: 0 }],
    ]);
    // The baseline's own trial has no baseline to show, only the last bench.
    const own = db.$client.prepare("SELECT min(id) AS id FROM trials WHERE bench_id = ? AND candidate_id = ?").get(bench.id, good.id) as { id: number };
    expect((await referenceTrials(db, bench, own.id)).map((r) => r.role)).toEqual(["last bench"]);
  });
});
