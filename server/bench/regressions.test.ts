import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { recordedRequest, recordedSuite, runBench } from "./test-support/recorded-bench";

// Five questions: column `good` answers all of them, `bad` none, `fixer` only the last two.
const cases = ["q1", "q2", "q3", "q4", "q5"].map((key, i) => ({ key, expected: `a${i}`, answers: { good: `a${i}`, bad: "wrong", fixer: i >= 3 ? `a${i}` : "wrong" } }));

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
    expect(second.recommendation!.headline).toMatch(/breaks a previously passing check \(bad: 5\)/);
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
