/**
 * Human review end to end through the real bench path (recorded candidates, a scripted judge over
 * HTTP): a human verdict rescoring a trial and its bench, and the advisory rule gating by the
 * calibration pinned at launch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { addCriterion } from "@/db/queries/criteria";
import { createModelConfig } from "@/db/queries/models";
import { getBench } from "@/db/queries/benches";
import { setCalibrationPolicy, trialHumanVerdicts } from "@/db/queries/human-verdicts";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";
import { recordedRequest, recordedSuite, runBench } from "../bench/test-support/recorded-bench";
import { recordHumanVerdict } from "./verdicts";
import { promptCalibrations } from "./calibration";
import { correctExpectedFromTrial } from "./correct-expected";
import { REVIEWED_COLUMNS, reviewedSetRows } from "./export";
import { reviewQueueRows } from "@/db/queries/review-queue";
import { toCsv, toJsonl } from "@/lib/import/export";

let server: ScriptedModelServer;
const judgeSays = (verdict: string) => ({ text: JSON.stringify({ reason: `judged ${verdict}`, verdict }) });
beforeAll(async () => {
  server = await startScriptedModelServer({
    models: ["judge-1"],
    script: [
      // Rule alpha fails a rude answer; rule beta passes only a short one; everything else passes.
      { name: "alpha-rude", when: { userTextMatches: "Rule alpha[\\s\\S]*<final_output>\\s*rude" }, reply: judgeSays("fail") },
      { name: "beta-long", when: { userTextMatches: "Rule beta[\\s\\S]*<final_output>\\s*polite" }, reply: judgeSays("fail") },
      { name: "judge", when: { systemIncludes: "You are an impartial evaluator" }, reply: judgeSays("pass") },
    ],
  });
});
afterAll(async () => server.close());

type Db = ReturnType<typeof openMemoryDatabase>;
const keys = ["q1", "q2", "q3", "q4", "q5"];

/** Prompt with cases q1..q5 (expected "rude short", so `bad` passes the exact check) and criteria alpha and beta. */
async function suite(db: Db) {
  const promptId = await recordedSuite(
    db,
    keys.map((key) => ({ key, expected: "rude short", answers: { good: "polite long", bad: "rude short" } })),
  );
  const alpha = await addCriterion(db, {
    systemId: "rec",
    promptId,
    fields: { rule: "Rule alpha: polite", passes: "polite", fails: "rude", priority: "primary" },
  });
  const beta = await addCriterion(db, {
    systemId: "rec",
    promptId,
    fields: { rule: "Rule beta: short", passes: "short", fails: "long", priority: "secondary" },
  });
  const judge = await createModelConfig(db, { name: "judge", provider: "openai-compatible", modelId: "judge-1", baseUrl: server.url });
  return { promptId, alpha, beta, judge };
}

const trialsOf = (db: Db, benchId: number) =>
  db.$client
    .prepare(
      "SELECT t.id, bc.case_key AS caseKey, c.label, t.checks, t.passed_checks AS passed, t.failed_checks AS failed FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id JOIN bench_candidates c ON c.id = t.candidate_id WHERE t.bench_id = ? ORDER BY t.id",
    )
    .all(benchId) as { id: number; caseKey: string; label: string; checks: string; passed: number; failed: number }[];

describe("a human verdict takes precedence in the trial's score and the bench's figures", () => {
  it("a human fail on a judged pass: the trial and the bench recompute; the judge's record is unchanged", async () => {
    const db = openMemoryDatabase();
    const { promptId, alpha, judge } = await suite(db);
    const bench = await runBench(db, recordedRequest(promptId, ["good"], { judgeModelConfigId: judge }));
    const stats = () => bench.summary!.candidates[0].stats;
    // good: exact fails, alpha passes, beta fails on every case → 5 of 15 checks passed.
    expect(stats().passRate).toEqual({ passed: 5, scored: 15, rate: 5 / 15 });
    const t = trialsOf(db, bench.id)[0];
    const recorded = t.checks;

    const counts = await recordHumanVerdict(db, bench.id, { trialId: t.id, checkKey: `c${alpha}`, verdict: "fail", note: "Too curt." }, { now: 1000 });
    expect(counts).toEqual({ passed: 0, failed: 3, unscored: 0, error: 0 });
    const after = trialsOf(db, bench.id)[0];
    expect([after.passed, after.failed]).toEqual([0, 3]);
    expect(after.checks).toBe(recorded); // the judge's record stays as it was
    const b = (await getBench(db, bench.id))!;
    const s = b.summary!.candidates[0].stats;
    expect(s.passRate).toEqual({ passed: 4, scored: 15, rate: 4 / 15 });
    expect(s.byCheck[`c${alpha}`]).toMatchObject({ passed: 4, failed: 1 });
    expect(await trialHumanVerdicts(db, t.id)).toMatchObject([
      { checkKey: `c${alpha}`, verdict: "fail", note: "Too curt.", reviewer: "local", createdAt: 1000 },
    ]);

    // Changing one's mind replaces one's own verdict; can't tell leaves the judge's verdict standing.
    await recordHumanVerdict(db, bench.id, { trialId: t.id, checkKey: `c${alpha}`, verdict: "cant_tell", note: "" }, { now: 2000 });
    expect(await trialHumanVerdicts(db, t.id)).toHaveLength(1);
    expect((await getBench(db, bench.id))!.summary!.candidates[0].stats.passRate.passed).toBe(5);
  });

  it("refuses an unknown trial, a trial of another bench and a check the trial does not have", async () => {
    const db = openMemoryDatabase();
    const { promptId, judge } = await suite(db);
    const a = await runBench(db, recordedRequest(promptId, ["good"], { judgeModelConfigId: judge }));
    const b = await runBench(db, recordedRequest(promptId, ["good"], { judgeModelConfigId: judge }));
    const tb = trialsOf(db, b.id)[0];
    await expect(recordHumanVerdict(db, a.id, { trialId: 999_999, checkKey: "c1", verdict: "pass", note: "" })).rejects.toMatchObject({ code: "not_found" });
    await expect(recordHumanVerdict(db, a.id, { trialId: tb.id, checkKey: "e0:exact", verdict: "pass", note: "" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(recordHumanVerdict(db, b.id, { trialId: tb.id, checkKey: "c999", verdict: "pass", note: "" })).rejects.toMatchObject({
      code: "validation",
      fieldErrors: { checkKey: "Unknown criterion of this trial." },
    });
    // A static check is not a criterion: a reviewer does not overrule it here.
    await expect(recordHumanVerdict(db, b.id, { trialId: tb.id, checkKey: "e0:exact", verdict: "pass", note: "" })).rejects.toMatchObject({
      code: "validation",
    });
    expect(await trialHumanVerdicts(db, tb.id)).toEqual([]);
  });
});

describe("judged criteria gate only once calibrated", () => {
  it("an uncalibrated criterion's regressions are advisory; once calibrated they block; human verdicts then clear them", async () => {
    const db = openMemoryDatabase();
    const { promptId, alpha, beta, judge } = await suite(db);
    // good: exact ✗, alpha ✓, beta ✗ (5/15); bad: exact ✓, alpha ✗, beta ✓ (10/15): bad breaks alpha on every case.
    const first = await runBench(db, recordedRequest(promptId, ["good", "bad"], { judgeModelConfigId: judge }));
    const bad = first.candidates[1].id;
    expect(first.rubric.map((c) => c.calibration?.state)).toEqual(["advisory", "advisory"]);
    expect(first.rubric[0].calibration!.reason).toBe("judge not calibrated: 0 of 20 reviewed trials needed");
    expect(first.summary!.regressions[String(bad)].map((r) => [r.caseKey, r.key, r.advisory])).toEqual(keys.map((k) => [k, `c${alpha}`, true]));
    expect(first.recommendation!.recommendedCandidateId).toBe(bad);
    expect(first.recommendation!.headline).toMatch(/It breaks 5 checks of advisory criteria \(their judge is not calibrated\), which do not block\.$/);
    expect(first.recommendation!.candidates.find((c) => c.candidateId === bad)!.blockers).toEqual([]);

    // Two reviews that agree with the judge on alpha (one pass, one fail): κ = 1 over 2 trials.
    await setCalibrationPolicy(db, promptId, { kappaThreshold: 0.6, minReviewed: 2 }, 0);
    const [goodQ1, badQ1] = trialsOf(db, first.id).filter((t) => t.caseKey === "q1");
    await recordHumanVerdict(db, first.id, { trialId: goodQ1.id, checkKey: `c${alpha}`, verdict: "pass", note: "" });
    await recordHumanVerdict(db, first.id, { trialId: badQ1.id, checkKey: `c${alpha}`, verdict: "fail", note: "" });
    const cal = await promptCalibrations(db, promptId);
    expect(cal.map((c) => [c.criterionId, c.judgeModel, c.reviewed, c.kappa?.value])).toEqual([[alpha, "openai-compatible:judge-1", 2, 1]]);

    const second = await runBench(db, recordedRequest(promptId, ["good", "bad"], { judgeModelConfigId: judge }));
    expect(second.rubric.map((c) => [c.criterionId, c.calibration?.state])).toEqual([
      [alpha, "calibrated"],
      [beta, "advisory"],
    ]);
    const bad2 = second.candidates[1].id;
    // `bad` now breaks alpha (calibrated) on every case; `good` breaks the exact check that passed for
    // `bad` in the first bench (its reference): neither is recommended.
    expect(second.recommendation!.recommendedCandidateId).toBeNull();
    expect(second.recommendation!.candidates.find((c) => c.candidateId === bad2)!.blockers.map((r) => [r.caseKey, r.key])).toEqual(
      keys.map((k) => [k, `c${alpha}`]),
    );
    // The first bench still shows what gated then.
    expect((await getBench(db, first.id))!.rubric[0].calibration!.state).toBe("advisory");

    // A reviewer overrules the judge on alpha for `bad` in every case: the regressions go, `bad` is recommended.
    for (const t of trialsOf(db, second.id).filter((t) => t.label === "bad"))
      await recordHumanVerdict(db, second.id, { trialId: t.id, checkKey: `c${alpha}`, verdict: "pass", note: "fine" });
    const rescored = (await getBench(db, second.id))!;
    expect(rescored.summary!.regressions[String(bad2)]).toEqual([]);
    expect(rescored.recommendation!.recommendedCandidateId).toBe(bad2);
  });
});

describe("correcting the expected result from a reviewed trial", () => {
  it("makes a new case revision for future benches; the bench that ran keeps its own", async () => {
    const db = openMemoryDatabase();
    const { promptId, judge } = await suite(db);
    const first = await runBench(db, recordedRequest(promptId, ["good"], { judgeModelConfigId: judge }));
    const t = trialsOf(db, first.id)[0];
    await expect(correctExpectedFromTrial(db, first.id, 999_999, "polite long", 1)).rejects.toMatchObject({ code: "not_found" });
    expect(await correctExpectedFromTrial(db, first.id, t.id, "polite long", 1)).toEqual({ caseKey: "q1", revisionNumber: 2 });
    // The reviewer saw revision 1: a second save from it is a conflict, nothing is saved.
    await expect(correctExpectedFromTrial(db, first.id, t.id, "other", 1)).rejects.toMatchObject({ code: "conflict" });
    const pinned = (id: number) =>
      db.$client
        .prepare(
          "SELECT r.number, r.expected FROM bench_cases bc JOIN case_revisions r ON r.id = bc.case_revision_id WHERE bc.bench_id = ? AND bc.case_key = 'q1'",
        )
        .get(id);
    expect(pinned(first.id)).toEqual({ number: 1, expected: "rude short" });
    const next = await runBench(db, recordedRequest(promptId, ["good"], { judgeModelConfigId: judge }));
    expect(pinned(next.id)).toEqual({ number: 2, expected: "polite long" });
    // `good` answers "polite long": its exact check now passes on q1.
    expect(trialsOf(db, next.id).find((x) => x.caseKey === "q1")!.checks).toMatch(/"key":"e0:exact","kind":"exact".*?"verdict":"passed"/);
  });
});

describe("the reviewed set as a calibration dataset", () => {
  it("caseRevision is the case's revision number as the library and the review page show it, not an internal row id", async () => {
    const db = openMemoryDatabase();
    const { promptId, alpha, judge } = await suite(db);
    const first = await runBench(db, recordedRequest(promptId, ["good"], { judgeModelConfigId: judge }));
    const q2 = trialsOf(db, first.id).find((x) => x.caseKey === "q2")!;
    // q2's revision 2: its row id is past every case's revision 1, so id and number differ.
    await correctExpectedFromTrial(db, first.id, q2.id, "polite long", 1);
    const second = await runBench(db, recordedRequest(promptId, ["good"], { judgeModelConfigId: judge }));
    const t = trialsOf(db, second.id).find((x) => x.caseKey === "q2")!;
    await recordHumanVerdict(db, second.id, { trialId: t.id, checkKey: `c${alpha}`, verdict: "pass", note: "" });
    const rows = await reviewedSetRows(db, promptId);
    expect(rows.map((r) => [r.caseId, r.caseRevision, r.expected])).toEqual([["q2", 2, "polite long"]]);
  });

  it("one row per human verdict with the judge's verdict and model; CSV escapes a formula in a note", async () => {
    const db = openMemoryDatabase();
    const { promptId, alpha, judge } = await suite(db);
    const bench = await runBench(db, recordedRequest(promptId, ["good"], { judgeModelConfigId: judge }));
    const t = trialsOf(db, bench.id)[0];
    await recordHumanVerdict(db, bench.id, { trialId: t.id, checkKey: `c${alpha}`, verdict: "fail", note: "=HYPERLINK(1)" }, { now: Date.UTC(2026, 0, 2) });
    const rows = await reviewedSetRows(db, promptId);
    expect(rows).toEqual([
      {
        bench: bench.id,
        trial: t.id,
        caseId: "q1",
        caseRevision: expect.any(Number),
        candidate: "good",
        criterionId: alpha,
        criterion: "Rule alpha: polite",
        judgeModel: "openai-compatible:judge-1",
        judgeVerdict: "passed",
        judgeReason: "Judge: pass — judged pass",
        humanVerdict: "fail",
        note: "=HYPERLINK(1)",
        reviewer: "local",
        reviewedAt: "2026-01-02T00:00:00.000Z",
        input: "question q1",
        expected: "rude short",
        output: "polite long",
      },
    ]);
    const csv = toCsv(rows, { columns: REVIEWED_COLUMNS });
    expect(csv.split("\r\n")[0]).toBe(REVIEWED_COLUMNS.join(","));
    expect(csv).toContain(`,"'=HYPERLINK(1)",local,`);
    expect(JSON.parse(toJsonl(rows, REVIEWED_COLUMNS).trim())).toMatchObject({ humanVerdict: "fail", judgeVerdict: "passed", criterionId: String(alpha) });
  });
});

describe("the review queue's flags", () => {
  it("a trial is unreviewed until each criterion has a verdict, and disagrees when a human pass/fail contradicts its judge", async () => {
    const db = openMemoryDatabase();
    const { promptId, alpha, beta, judge } = await suite(db);
    const bench = await runBench(db, recordedRequest(promptId, ["good"], { judgeModelConfigId: judge }));
    const [t1, t2] = trialsOf(db, bench.id);
    // good: alpha passed, beta failed (judge). Trial 1: agree on alpha only; trial 2: overrule beta.
    await recordHumanVerdict(db, bench.id, { trialId: t1.id, checkKey: `c${alpha}`, verdict: "pass", note: "" });
    await recordHumanVerdict(db, bench.id, { trialId: t2.id, checkKey: `c${alpha}`, verdict: "pass", note: "" });
    await recordHumanVerdict(db, bench.id, { trialId: t2.id, checkKey: `c${beta}`, verdict: "pass", note: "" });
    const rows = await reviewQueueRows(db, bench.id);
    expect(rows.map((r) => [r.trialId, r.failed, r.disagrees, r.unreviewed, r.judged])).toEqual([
      [t1.id, true, false, true, 2],
      [t2.id, true, true, false, 2], // the exact check still fails
      ...rows.slice(2).map((r) => [r.trialId, true, false, true, 2]),
    ]);
  });
});
