/**
 * The results page's reads, the review's reads and retention on both stores (issue 20 A): a small
 * bench seeded row by row (every state the reads tell apart: passed, failed, an errored trial and
 * its rerun, a confirm trial, a budget skip, a judge error, a human verdict) and the figures each
 * read must give, on SQLite and on PostgreSQL.
 */
import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Db } from "../client";
import { first } from "../rows";
import { benchCandidates, benchCases, benches, caseRevisions, cases, humanVerdicts, prompts, systems, trials } from "../schema";
import { describeStores } from "../test-support/stores";
import { exportTrialRows, getTrial, matrixPage, matrixRows, referenceTrials, repeatTrials, selectMatrix } from "./bench-matrix";
import { benchCaseFigures, benchCaseTallies, benchCheckTalliesOf } from "./bench-tallies";
import { liveCandidateStats, trialFacts } from "./bench-results";
import { benchErrorBreakdown } from "./bench-errors";
import { benchCaseCosts } from "./bench-costs";
import { benchSpend } from "./bench-budget";
import { addRerunTrials, benchCaseIdsByRevision, benchErroredTrials, benchSideTrials, trialRerunLinks } from "./bench-reruns";
import { reviewQueueRows } from "./review-queue";
import { reviewedJudgedChecks, trialHumanVerdicts } from "./human-verdicts";
import { retainFailingCasesIn } from "./retention";
import type { Recommendation } from "@/lib/bench/recommend";

type Check = {
  key: string;
  kind: string;
  label: string;
  verdict: "passed" | "failed" | "unscored" | "error";
  score: number;
  message: string;
  criterionId?: number;
};
const judge = (verdict: Check["verdict"], message = ""): Check => ({ key: "j1", kind: "judge", label: "Polite", verdict, score: 0, message, criterionId: 7 });
const exact = (verdict: Check["verdict"]): Check => ({ key: "s1", kind: "exact", label: "Exact answer", verdict, score: 0, message: "" });

/**
 * Bench #1 of prompt "Support Bot": candidates A (baseline) and B, cases c1–c3 included, c4 excluded.
 * A passes every case. B: c1 fails the judge (and a confirm trial fails it again; a reviewer says
 * pass on the first), c2 errored ("timeout …") and its rerun had a judge error, c3 was skipped by the
 * spend cap.
 */
async function seed(db: Db) {
  await db.insert(systems).values({ id: "s", name: "S", createdAt: 1 });
  const p = (await first(db.insert(prompts).values({ systemId: "s", name: "Support Bot", createdAt: 1 }).returning()))!;
  const revs: { caseId: number; revId: number; key: string }[] = [];
  for (const key of ["c1", "c2", "c3", "c4"]) {
    const c = (await first(
      db.insert(cases).values({ caseKey: key, systemId: "s", promptId: p.id, source: "custom", createdAt: 1, updatedAt: 1 }).returning({ id: cases.id }),
    ))!;
    const r = (await first(
      db
        .insert(caseRevisions)
        .values({ caseId: c.id, number: 1, input: `question ${key}`, expected: `answer ${key}`, createdAt: 1 })
        .returning({ id: caseRevisions.id }),
    ))!;
    await db.update(cases).set({ currentRevisionId: r.id }).where(eq(cases.id, c.id));
    revs.push({ caseId: c.id, revId: r.id, key });
  }
  const b = (await first(
    db
      .insert(benches)
      .values({
        systemId: "s",
        promptId: p.id,
        title: "bench",
        status: "finished",
        launchKey: "k1",
        settings: "{}",
        rubric: "[]",
        rubricHash: "h",
        baseline: JSON.stringify({ kind: "candidate", position: 0 }),
        judge: JSON.stringify({ provider: "openai", modelId: "gpt-judge" }),
        trialCount: 7,
        createdAt: 1,
        spentUsd: 0.5,
        launchedByEmail: "lead@example.com",
      })
      .returning({ id: benches.id }),
  ))!;
  const [a, bb] = await db
    .insert(benchCandidates)
    .values([
      { benchId: b.id, position: 0, kind: "model", label: "A" },
      { benchId: b.id, position: 1, kind: "model", label: "B" },
    ])
    .returning({ id: benchCandidates.id });
  const bcs = await db
    .insert(benchCases)
    .values(
      revs.map((r, i) => ({
        benchId: b.id,
        position: i + 1,
        caseId: r.caseId,
        caseRevisionId: r.revId,
        caseKey: r.key,
        source: "custom",
        group: "explicit" as const,
        included: r.key !== "c4",
      })),
    )
    .returning({ id: benchCases.id });
  const trial = async (
    v: Partial<typeof trials.$inferInsert> & { candidateId: number; benchCaseId: number; status: "done" | "error" | "skipped" },
    checks?: Check[],
  ) => {
    const n = (x: Check["verdict"]) => (checks ?? []).filter((c) => c.verdict === x).length;
    return (await first(
      db
        .insert(trials)
        .values({
          benchId: b.id,
          repeat: 1,
          ...v,
          ...(checks
            ? { checks: JSON.stringify(checks), passedChecks: n("passed"), failedChecks: n("failed"), unscoredChecks: n("unscored"), errorChecks: n("error") }
            : {}),
        })
        .returning({ id: trials.id }),
    ))!.id;
  };
  const t = {
    a1: await trial({ candidateId: a.id, benchCaseId: bcs[0].id, status: "done", latencyMs: 100, costUsd: 0.01, inputTokens: 10, outputTokens: 5 }, [
      judge("passed"),
      exact("passed"),
    ]),
    a2: await trial({ candidateId: a.id, benchCaseId: bcs[1].id, status: "done", latencyMs: 300, costUsd: 0.03, inputTokens: 10, outputTokens: 5 }, [
      judge("passed"),
      exact("passed"),
    ]),
    a3: await trial({ candidateId: a.id, benchCaseId: bcs[2].id, status: "done", latencyMs: 200, costUsd: 0.02, inputTokens: 10, outputTokens: 5 }, [
      judge("passed"),
      exact("passed"),
    ]),
    b1: await trial(
      {
        candidateId: bb.id,
        benchCaseId: bcs[0].id,
        status: "done",
        latencyMs: 150,
        costUsd: 0.02,
        inputTokens: 20,
        outputTokens: 7,
        output: "no.",
        record: JSON.stringify({ toolCalls: [{ toolName: "lookup", input: { q: "x" } }] }),
      },
      [judge("failed", "Too curt."), exact("passed")],
    ),
    b2: await trial({ candidateId: bb.id, benchCaseId: bcs[1].id, status: "error", error: "timeout (HTTP 408): slow" }),
    b3: await trial({ candidateId: bb.id, benchCaseId: bcs[2].id, status: "skipped", error: "budget: the spend cap was reached" }),
    b1Confirm: 0,
    b2Rerun: 0,
  };
  t.b1Confirm = await trial({ candidateId: bb.id, benchCaseId: bcs[0].id, repeat: 2, status: "done", rerun: "confirm", latencyMs: 500, costUsd: 0.5 }, [
    judge("failed"),
    exact("passed"),
  ]);
  t.b2Rerun = await trial(
    { candidateId: bb.id, benchCaseId: bcs[1].id, repeat: 2, status: "done", rerun: "error", rerunOf: t.b2, latencyMs: 250, costUsd: 0.04 },
    [judge("error", "judge down"), exact("passed")],
  );
  await db.insert(humanVerdicts).values({ trialId: t.b1, checkKey: "j1", verdict: "pass", note: "Fine.", reviewer: "r@example.com", createdAt: 1000 });
  return { promptId: p.id, benchId: b.id, a: a.id, b: bb.id, bc: bcs.map((x) => x.id), rev: revs.map((r) => r.revId), caseIds: revs.map((r) => r.caseId), t };
}

describeStores("bench reads", (store) => {
  it("matrixRows: one row per included case, the cells counted from the trial columns (a rerun stands in for its errored trial, budget skips apart)", async () => {
    const db = store.db();
    const s = await seed(db);
    const rows = await matrixRows(db, s.benchId);
    expect(rows.map((r) => [r.caseKey, r.position, r.caseRevisionId])).toEqual([
      ["c1", 1, s.rev[0]],
      ["c2", 2, s.rev[1]],
      ["c3", 3, s.rev[2]],
    ]);
    expect(rows.map((r) => r.cells[s.a].verdict)).toEqual(["passed", "passed", "passed"]);
    expect(rows[0].cells[s.b]).toEqual({
      verdict: "failed",
      passedTrials: 0,
      scoredTrials: 2,
      errorTrials: 0,
      trials: 2,
      failedChecks: 2,
      firstTrialId: s.t.b1,
    });
    // Its errored trial was rerun (the rerun errored too): the cell says so (the results page hints it).
    expect(rows[1].cells[s.b]).toEqual({
      errorsRerun: 1,
      verdict: "error",
      passedTrials: 0,
      scoredTrials: 0,
      errorTrials: 1,
      trials: 1,
      failedChecks: 0,
      firstTrialId: s.t.b2Rerun,
    });
    expect(rows[2].cells[s.b]).toEqual({
      budgetSkipped: 1,
      verdict: "skipped",
      passedTrials: 0,
      scoredTrials: 0,
      errorTrials: 0,
      trials: 1,
      failedChecks: 0,
      firstTrialId: s.t.b3,
    });
  });

  it("case and check tallies: confirm trials and rerun errored trials left out of the case tallies; human verdicts applied to the check tallies", async () => {
    const db = store.db();
    const s = await seed(db);
    const cases = await benchCaseTallies(db, s.benchId);
    expect([...cases.get(s.a)!]).toEqual(s.rev.slice(0, 3).map((r) => [r, { passed: 1, scored: 1 }]));
    expect(cases.get(s.b)!.get(s.rev[0])).toEqual({ passed: 0, scored: 1 });
    expect(cases.get(s.b)!.get(s.rev[1])).toEqual({ passed: 1, scored: 1 });
    expect(cases.get(s.b)!.get(s.rev[2])).toEqual({ passed: 0, scored: 0 });
    expect([...(await benchCaseTallies(db, s.benchId, s.a)).keys()]).toEqual([s.a]);
    const tallies = await benchCheckTalliesOf(
      db,
      s.benchId,
      new Map([
        [s.b, new Set([s.rev[0]])],
        [s.a, new Set([s.rev[0], s.rev[1]])],
      ]),
    );
    const checks = tallies.get(s.b)!.all;
    // The reviewer's pass on the first trial counts; the confirm trial's judge failure too.
    expect(checks.get(s.rev[0])!.get("j1")).toEqual({ passed: 1, scored: 2 });
    expect(checks.get(s.rev[0])!.get("s1")).toEqual({ passed: 2, scored: 2 });
    expect(checks.has(s.rev[1])).toBe(false);
    const confirm = tallies.get(s.b)!.confirm;
    expect(confirm.get(s.rev[0])!.get("j1")).toEqual({ passed: 0, scored: 1 });
    expect(confirm.get(s.rev[0])!.get("s1")).toEqual({ passed: 1, scored: 1 });
    expect([...confirm.keys()]).toEqual([s.rev[0]]);
    // Several candidates in the one pass, each over its own case revisions only.
    const a = tallies.get(s.a)!;
    expect([...a.all.keys()].sort((x, y) => x - y)).toEqual([s.rev[0], s.rev[1]]);
    expect(a.all.get(s.rev[1])!.get("j1")).toEqual({ passed: 1, scored: 1 });
    expect(a.confirm.size).toBe(0);
    expect([...(await benchCheckTalliesOf(db, s.benchId, new Map([[s.a, new Set<number>()]]))).keys()]).toEqual([]);
  });

  it("benchCaseFigures: case tallies with the done trials' mean cost and latency in one grouped read, by case revision ascending", async () => {
    const db = store.db();
    const s = await seed(db);
    const figures = await benchCaseFigures(db, s.benchId);
    expect([...figures.get(s.a)!]).toEqual([
      [s.rev[0], { passed: 1, scored: 1, done: 1, costUsd: expect.closeTo(0.01, 10) as number, latencyMs: 100 }],
      [s.rev[1], { passed: 1, scored: 1, done: 1, costUsd: expect.closeTo(0.03, 10) as number, latencyMs: 300 }],
      [s.rev[2], { passed: 1, scored: 1, done: 1, costUsd: expect.closeTo(0.02, 10) as number, latencyMs: 200 }],
    ]);
    // B: the confirm trial and the errored trial its rerun replaced are left out; the skipped case has no figures.
    expect([...figures.get(s.b)!]).toEqual([
      [s.rev[0], { passed: 0, scored: 1, done: 1, costUsd: expect.closeTo(0.02, 10) as number, latencyMs: 150 }],
      [s.rev[1], { passed: 1, scored: 1, done: 1, costUsd: expect.closeTo(0.04, 10) as number, latencyMs: 250 }],
      [s.rev[2], { passed: 0, scored: 0, done: 0, costUsd: null, latencyMs: null }],
    ]);
    // The same tallies as benchCaseTallies.
    const tallies = await benchCaseTallies(db, s.benchId);
    for (const c of [s.a, s.b]) expect([...figures.get(c)!].map(([r, f]) => [r, { passed: f.passed, scored: f.scored }])).toEqual([...tallies.get(c)!]);
    // neverRerun (the caller knows no rerun added trials): every trial counts, here the confirm trial too.
    const all = await benchCaseFigures(db, s.benchId, { neverRerun: true });
    expect(all.get(s.b)!.get(s.rev[0])).toEqual({ passed: 0, scored: 2, done: 2, costUsd: expect.closeTo(0.26, 10) as number, latencyMs: 325 });
  });

  it("matrixPage: one page of the matrix as selectMatrix gives it over every row, page numbers clamped", async () => {
    const db = store.db();
    const s = await seed(db);
    const all = await matrixRows(db, s.benchId);
    const p1 = await matrixPage(db, s.benchId, 1, 2);
    expect(p1).toMatchObject({ total: 3, page: 1, pageCount: 2 });
    expect(p1.rows.map((r) => r.caseKey)).toEqual(["c1", "c2"]);
    expect(p1.rows[1].cells[s.b]).toMatchObject({ verdict: "error", trials: 1, firstTrialId: s.t.b2Rerun });
    const p2 = await matrixPage(db, s.benchId, 9, 2);
    expect(p2).toMatchObject({ total: 3, page: 2, pageCount: 2 });
    expect(p2.rows.map((r) => r.caseKey)).toEqual(["c3"]);
    expect(p2.rows[0].cells[s.b]).toMatchObject({ budgetSkipped: 1, verdict: "skipped" });
    for (const page of [0, 1, 2, 9])
      expect(await matrixPage(db, s.benchId, page, 2)).toEqual(
        selectMatrix(all, { filter: "all", sort: "position", page, pageSize: 2, regressionCases: new Set() }),
      );
  });

  it("trialFacts reads the trials in the results with the human verdicts applied", async () => {
    const db = store.db();
    const s = await seed(db);
    const facts = [...(await trialFacts(db, s.benchId, s.b))].sort((x, y) => x.caseKey.localeCompare(y.caseKey));
    expect(facts.map((f) => [f.caseKey, f.status, f.checks?.map((c) => `${c.key}:${c.verdict}`) ?? null])).toEqual([
      ["c1", "done", ["j1:passed", "s1:passed"]],
      ["c2", "done", ["j1:error", "s1:passed"]],
      ["c3", "skipped", null],
    ]);
  });

  it("live figures, costs, spend and errors: sums and means as numbers, errors grouped by kind from the checks' JSON", async () => {
    const db = store.db();
    const s = await seed(db);
    const [a, b] = await liveCandidateStats(db, s.benchId, [s.a, s.b]);
    expect(a).toMatchObject({ trials: { total: 3, done: 3, error: 0, skipped: 0, pending: 0 }, tokens: { input: 30, output: 15 }, latencyMs: { p50: 200 } });
    expect(a.costUsd).toBeCloseTo(0.06, 10);
    expect(a.trialPassRate).toEqual({ passed: 3, scored: 3, rate: 1 });
    expect(b).toMatchObject({
      trials: { total: 3, done: 2, error: 0, skipped: 1, pending: 0 },
      trialsWithErrors: 1,
      checks: { passed: 2, failed: 1, error: 1 },
    });
    const costs = await benchCaseCosts(db, s.benchId);
    expect(costs.get(s.a)!.get(s.rev[1])).toEqual({ costUsd: expect.closeTo(0.03, 10) as number, latencyMs: 300 });
    expect(costs.get(s.b)!.get(s.rev[0])).toEqual({ costUsd: expect.closeTo(0.02, 10) as number, latencyMs: 150 });
    expect(await benchSpend(db, s.benchId)).toEqual({
      spentUsd: 0.5,
      spentTrials: 0,
      // Per candidate, by position (what the cap counts each one's running trials against).
      candidates: [
        { id: s.a, position: 0, spentUsd: 0, spentTrials: 0, maxTrialUsd: 0 },
        { id: s.b, position: 1, spentUsd: 0, spentTrials: 0, maxTrialUsd: 0 },
      ],
      budgetSkipped: new Map([[s.b, 1]]),
      budgetSkippedTotal: 1,
    });
    // c2's timeout was rerun ("Rerun errored trials"): it is attempt history (the trial view links the two), not an
    // error left, so the panel lists only the rerun's judge error (issue #16: it listed the replaced timeout).
    expect(await benchErrorBreakdown(db, s.benchId)).toEqual([{ source: "check", kind: "judge", count: 1, examples: [{ message: "judge down", count: 1 }] }]);
  });

  it("the trial view: the trial under its column names, its repeats, the baseline's trial beside it, and the export's tool calls", async () => {
    const db = store.db();
    const s = await seed(db);
    const t = (await getTrial(db, s.t.b1))!;
    expect(t).toMatchObject({
      id: s.t.b1,
      bench_id: s.benchId,
      candidate_id: s.b,
      bench_case_id: s.bc[0],
      status: "done",
      caseKey: "c1",
      candidateLabel: "B",
      input: "question c1",
      caseRevisionNumber: 1,
      launchedByEmail: "lead@example.com",
    });
    expect(JSON.parse(String(t.checks))).toMatchObject([{ key: "j1", verdict: "failed" }, { key: "s1" }]);
    expect(await getTrial(db, 999_999)).toBeNull();
    expect(await repeatTrials(db, s.benchId, s.b, s.bc[0])).toEqual([
      { id: s.t.b1, repeat: 1, rerun: null, rerunOf: null },
      { id: s.t.b1Confirm, repeat: 2, rerun: "confirm", rerunOf: null },
    ]);
    const refs = await referenceTrials(
      db,
      { id: s.benchId, summary: { baselineCandidateId: s.a, referenceBenchId: null, referenceCandidateId: null } },
      s.t.b1Confirm,
    );
    expect(refs).toMatchObject([{ role: "baseline", trialId: s.t.a1, label: "A", verdicts: { passed: 2, failed: 0 } }]);
    const rows = await exportTrialRows(db, s.benchId);
    expect(rows.map((r) => [r.caseId, r.candidate, r.repeat])).toEqual([
      ["c1", "A", 1],
      ["c1", "B", 1],
      ["c1", "B", 2],
      ["c2", "A", 1],
      ["c2", "B", 1],
      ["c2", "B", 2],
      ["c3", "A", 1],
      ["c3", "B", 1],
    ]);
    expect(JSON.parse(String(rows[1].toolCalls))).toEqual([{ toolName: "lookup", input: { q: "x" } }]);
    expect(rows[0].toolCalls).toBeNull();
  });

  it("reruns: side counts, errored trials, links, and adding rerun trials reopens the bench in one transaction", async () => {
    const db = store.db();
    const s = await seed(db);
    const side = await benchSideTrials(db, s.benchId);
    expect(side.get(`${s.b}|${s.bc[1]}`)).toEqual({ count: 1, maxRepeat: 2 });
    expect(side.get(`${s.b}|${s.bc[0]}`)).toEqual({ count: 2, maxRepeat: 2 });
    expect(await benchErroredTrials(db, s.benchId)).toEqual({
      errored: [{ id: s.t.b2, candidateId: s.b, benchCaseId: s.bc[1] }],
      rerunAlready: new Set([s.t.b2]),
    });
    expect([...(await benchCaseIdsByRevision(db, s.benchId)).keys()]).toEqual(s.rev.slice(0, 3));
    expect(await trialRerunLinks(db, s.t.b2Rerun)).toEqual({ rerunOf: { id: s.t.b2, error: "timeout (HTTP 408): slow" }, rerunAs: [] });
    expect(await trialRerunLinks(db, s.t.b2)).toEqual({ rerunOf: null, rerunAs: [{ id: s.t.b2Rerun, status: "done" }] });
    const added = await addRerunTrials(db, s.benchId, [{ candidateId: s.b, benchCaseId: s.bc[2], repeat: 2, rerun: "confirm", rerunOf: null }]);
    expect(added).toBe(1);
    expect(
      await first(
        db.select({ status: benches.status, rerunBase: benches.rerunBase, trialCount: benches.trialCount, finishedAt: benches.finishedAt }).from(benches),
      ),
    ).toEqual({
      status: "queued",
      rerunBase: 7,
      trialCount: 8,
      finishedAt: null,
    });
    // Not finished any more: a second rerun is refused and adds nothing.
    await expect(addRerunTrials(db, s.benchId, [{ candidateId: s.b, benchCaseId: s.bc[2], repeat: 3, rerun: "confirm", rerunOf: null }])).rejects.toThrow(
      /not finished/,
    );
    expect((await repeatTrials(db, s.benchId, s.b, s.bc[2])).map((r) => r.repeat)).toEqual([1, 2]);
  });

  it("matrixRows during a rerun: a cell whose case is being rerun keeps its finished trials' verdict and says how many of the rerun's trials are left", async () => {
    const db = store.db();
    const s = await seed(db);
    // A confirm round on B's c1 (2 trials) and an error rerun of A's c3 (its only trial): the bench reopens.
    const [a3] = await db.select({ id: trials.id }).from(trials).where(eq(trials.id, s.t.a3));
    await db.update(trials).set({ status: "error", error: "server (HTTP 503): down", checks: null, passedChecks: 0 }).where(eq(trials.id, a3.id));
    await addRerunTrials(db, s.benchId, [
      { candidateId: s.b, benchCaseId: s.bc[0], repeat: 3, rerun: "confirm", rerunOf: null },
      { candidateId: s.b, benchCaseId: s.bc[0], repeat: 4, rerun: "confirm", rerunOf: null },
      { candidateId: s.a, benchCaseId: s.bc[2], repeat: 2, rerun: "error", rerunOf: a3.id },
    ]);
    let rows = await matrixRows(db, s.benchId);
    // Not "pending 0/2": B's two finished trials of c1 failed, and both rerun trials are left.
    expect(rows[0].cells[s.b]).toMatchObject({ verdict: "failed", passedTrials: 0, scoredTrials: 2, trials: 4, rerunning: { left: 2, trials: 2 } });
    // The errored trial's rerun is its only trial: nothing finished to show, only that it is being rerun.
    expect(rows[2].cells[s.a]).toMatchObject({ verdict: "pending", scoredTrials: 0, trials: 1, rerunning: { left: 1, trials: 1 } });
    // A cell outside the rerun says nothing of it.
    expect(rows[1].cells[s.b].rerunning).toBeUndefined();
    // One confirm trial finishes (passed): 1 of 2 left, its result counted with the finished ones.
    const [first3] = await db
      .select({ id: trials.id })
      .from(trials)
      .where(and(eq(trials.benchCaseId, s.bc[0]), eq(trials.repeat, 3)));
    await db
      .update(trials)
      .set({ status: "done", checks: JSON.stringify([judge("passed"), exact("passed")]), passedChecks: 2 })
      .where(eq(trials.id, first3.id));
    rows = await matrixRows(db, s.benchId);
    expect(rows[0].cells[s.b]).toMatchObject({ verdict: "mixed", passedTrials: 1, scoredTrials: 3, rerunning: { left: 1, trials: 2 } });
    // The round ends: the cell is an ordinary one again.
    await db.update(trials).set({ status: "done", passedChecks: 2 }).where(eq(trials.benchId, s.benchId));
    await db.update(benches).set({ status: "finished" }).where(eq(benches.id, s.benchId));
    rows = await matrixRows(db, s.benchId);
    expect(rows[0].cells[s.b].rerunning).toBeUndefined();
    expect(rows[0].cells[s.b].verdict).not.toBe("pending");
  });

  it("a skipped error rerun (its rerun was cancelled) stands in for nothing: the errored trial is an error left, in the matrix, by kind and for a rerun", async () => {
    const db = store.db();
    const s = await seed(db);
    await db.update(trials).set({ status: "skipped", error: "cancelled before it ran", checks: null }).where(eq(trials.id, s.t.b2Rerun));
    expect(await benchErrorBreakdown(db, s.benchId)).toEqual([
      { source: "trial", kind: "timeout", count: 1, examples: [{ message: "timeout (HTTP 408): slow", count: 1 }] },
    ]);
    expect(await benchErroredTrials(db, s.benchId)).toEqual({ errored: [{ id: s.t.b2, candidateId: s.b, benchCaseId: s.bc[1] }], rerunAlready: new Set() });
    const rows = await matrixRows(db, s.benchId);
    expect(rows[1].cells[s.b]).toMatchObject({ verdict: "error", errorTrials: 1, trials: 1, firstTrialId: s.t.b2 });
  });

  it("review reads: the queue's disagreement and unreviewed flags, and the reviewed judged checks with the judge model", async () => {
    const db = store.db();
    const s = await seed(db);
    const q = await reviewQueueRows(db, s.benchId);
    expect(q.find((r) => r.trialId === s.t.b1)).toEqual({
      trialId: s.t.b1,
      candidateId: s.b,
      caseRevisionId: s.rev[0],
      failed: true,
      disagrees: true,
      unreviewed: false,
      judged: 1,
    });
    expect(q.find((r) => r.trialId === s.t.a1)).toMatchObject({ failed: false, disagrees: false, unreviewed: true, judged: 1 });
    expect(q.map((r) => r.trialId)).not.toContain(s.t.b2); // no checks
    const reviewed = await reviewedJudgedChecks(db, s.promptId);
    expect(reviewed).toEqual([
      {
        benchId: s.benchId,
        trialId: s.t.b1,
        caseKey: "c1",
        caseId: s.caseIds[0],
        caseRevisionId: s.rev[0],
        caseRevisionNumber: 1,
        candidate: "B",
        checkKey: "j1",
        criterionId: 7,
        label: "Polite",
        judgeVerdict: "failed",
        judgeReason: "Too curt.",
        judgeModel: "openai:gpt-judge",
        human: "pass",
        note: "Fine.",
        reviewer: "r@example.com",
        reviewedAt: 1000,
        input: "question c1",
        expected: "answer c1",
        output: "no.",
      },
    ]);
    expect(await reviewedJudgedChecks(db, s.promptId, 7)).toHaveLength(1);
    expect(await reviewedJudgedChecks(db, s.promptId, 8)).toEqual([]);
    expect(await trialHumanVerdicts(db, s.t.b1)).toMatchObject([{ checkKey: "j1", verdict: "pass" }]);
  });

  it("retention: a retained copy of each case the recommended candidate failed, refreshed (not duplicated) on the next bench", async () => {
    const db = store.db();
    const s = await seed(db);
    const rec = { recommendedCandidateId: s.b, candidates: [] } as unknown as Recommendation;
    expect(await retainFailingCasesIn(db, s.benchId, rec, s.a)).toBe(1);
    const copies = await db.select().from(cases).where(eq(cases.source, "retained"));
    expect(copies.map((c) => [c.caseKey, JSON.parse(c.origin!).fromCaseId])).toEqual([["c1~retained", s.caseIds[0]]]);
    // The same failure again: found by its origin (JSON), unchanged content, nothing written.
    expect(await retainFailingCasesIn(db, s.benchId, rec, s.a)).toBe(0);
    expect(await db.select().from(cases).where(eq(cases.source, "retained"))).toHaveLength(1);
  });
});
