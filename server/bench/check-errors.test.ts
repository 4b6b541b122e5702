import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { addCriterion } from "@/db/queries/criteria";
import { createModelConfig } from "@/db/queries/models";
import { benchErrorBreakdown } from "@/db/queries/bench-errors";
import { matrixRows, selectMatrix } from "@/db/queries/bench-matrix";
import { liveCandidateStats } from "@/db/queries/bench-results";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";
import { recordedRequest, recordedSuite, runBench } from "./test-support/recorded-bench";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer({
    models: ["judge-1"],
    script: [
      // q2: the judge is refused every time; q3: refused 3 times, then it answers.
      {
        name: "refused-q2",
        when: { systemIncludes: "You are an impartial evaluator", userTextIncludes: "question q2" },
        fault: { status: 401, message: "judge key revoked" },
      },
      {
        name: "refused-q4",
        when: { systemIncludes: "You are an impartial evaluator", userTextIncludes: "question q4" },
        fault: { status: 401, message: "judge key revoked" },
      },
      {
        name: "refused-q3",
        when: { systemIncludes: "You are an impartial evaluator", userTextIncludes: "question q3" },
        fault: { status: 401, message: "judge key revoked" },
        times: 3,
      },
      { name: "judge", when: { systemIncludes: "You are an impartial evaluator" }, reply: { text: '{"reason": "Fine.", "verdict": "pass"}' } },
    ],
  });
});
afterAll(async () => server.close());

describe("check errors are visible wherever verdicts are", () => {
  it("a trial whose judge check errored is not 'passed': the cell, the case count, the errors filter and the breakdown say so", async () => {
    const db = openMemoryDatabase();
    const promptId = await recordedSuite(
      db,
      ["q1", "q2", "q3", "q4"].map((key) => ({ key, expected: "ok", answers: { col: key === "q4" ? "wrong" : "ok" } })),
    );
    await addCriterion(db, { systemId: "rec", promptId, fields: { rule: "Answers politely", passes: "polite", fails: "rude", priority: "primary" } });
    const judge = await createModelConfig(db, { name: "judge", provider: "openai-compatible", modelId: "judge-1", baseUrl: server.url });
    const bench = await runBench(db, recordedRequest(promptId, ["col"], { judgeModelConfigId: judge, repeats: 5 }));
    expect(bench.status).toBe("finished");
    const cand = bench.candidates[0].id;

    const cells = Object.fromEntries((await matrixRows(db, bench.id)).map((r) => [r.caseKey, r.cells[cand]]));
    expect(cells.q1).toMatchObject({ verdict: "passed", passedTrials: 5, scoredTrials: 5, errorTrials: 0 });
    // Every trial's exact check passed but its judge check errored: not a pass.
    expect(cells.q2).toMatchObject({ verdict: "error", passedTrials: 0, scoredTrials: 0, errorTrials: 5 });
    // It read "passed 2/2" for 2 passes and 3 errors over 5 repeats.
    expect(cells.q3).toMatchObject({ verdict: "passed", passedTrials: 2, scoredTrials: 2, errorTrials: 3 });
    // A failed trial stays failed; its judge's errors are counted beside it, not hidden.
    expect(cells.q4).toMatchObject({ verdict: "failed", passedTrials: 0, scoredTrials: 5, errorTrials: 5 });

    const stats = bench.summary!.candidates[0].stats;
    expect(stats.trialPassRate).toEqual({ passed: 7, scored: 12, rate: 7 / 12 });
    expect(stats.trialsWithErrors).toBe(13);
    const [live] = await liveCandidateStats(db, bench.id, [cand]);
    expect(live.trialPassRate).toEqual(stats.trialPassRate);
    expect(live.trialsWithErrors).toBe(13);

    const errorsOnly = selectMatrix(await matrixRows(db, bench.id), { filter: "errors", sort: "position", page: 1, pageSize: 50, regressionCases: new Set() });
    expect(errorsOnly.rows.map((r) => r.caseKey)).toEqual(["q2", "q3", "q4"]);

    const breakdown = await benchErrorBreakdown(db, bench.id);
    expect(breakdown).toEqual([
      { source: "check", kind: "judge", count: 13, examples: [{ message: expect.stringMatching(/^judge call failed: .*judge key revoked/), count: 13 }] },
    ]);
  }, 30_000);
});

describe("trialErrorKind", () => {
  it("reads the kind word of a stored trial error", async () => {
    const { trialErrorKind } = await import("@/db/queries/bench-errors");
    expect(trialErrorKind("server (HTTP 503): upstream unavailable")).toBe("server");
    expect(trialErrorKind("timeout: trial timed out after 1000 ms")).toBe("timeout");
    expect(trialErrorKind("worker: the trial thread stopped")).toBe("worker");
    expect(trialErrorKind(null)).toBe("other");
    expect(trialErrorKind("Something odd")).toBe("other");
  });
});
