/**
 * Reruns inside a bench through the real path (issue #16 §3): a temp SQLite file, the bench
 * worker, and a scripted OpenAI-compatible server whose answers to a case are scripted by request
 * count (deterministic flakes). Launch → finish → plan and start a rerun → the worker runs only the
 * added trials → the bench is finalized again with the new statuses and recommendation.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import type { Db } from "@/db/client";
import { addCases } from "@/db/queries/cases";
import { addCriterion } from "@/db/queries/criteria";
import { createModelConfig } from "@/db/queries/models";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { getBench, getBenchProgress, requestCancel } from "@/db/queries/benches";
import { emptyCaseContent } from "@/lib/library/case-content";
import { startScriptedModelServer, type ScriptedModelServer, type ScriptRule } from "@/e2e/fixtures/scripted-model-server";
import { launchFromRequest } from "./prepare";
import { benchEvidence } from "./comparisons";
import { planConfirm, planErrorRerun, rerunOffers, startRerun } from "./reruns";
import { openTempBenchDb, runWorkerToEnd } from "./test-support/worker-run";
import type { BenchRequest } from "@/lib/bench/request";
import { progressCounts } from "@/lib/bench/progress-counts";
import { benchErrorBreakdown } from "@/db/queries/bench-errors";
import { matrixRows, repeatTrials } from "@/db/queries/bench-matrix";
import { trialRepeatLabel } from "@/lib/bench/rerun/repeat-label";

const RIGHT = { text: "right" };
const WRONG = { text: "wrong" };

let server: ScriptedModelServer;
let dir: string;
let db: Db;

beforeAll(async () => {
  server = await startScriptedModelServer({ defaultReply: RIGHT });
});
afterAll(async () => server.close());
afterEach(() => {
  db?.$client.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp database with prompt `agent` (cases `flaky`, `broken`, `steady`, `down`; an exact check each) and two model candidates. */
async function setup(script: ScriptRule[], keys: string[]) {
  server.setScript(script);
  ({ db, dir } = openTempBenchDb("benchwork-reruns-"));
  await createSystem(db, { id: "shop", name: "Shop" });
  const promptId = await createPrompt(db, { systemId: "shop", name: "agent", systemPrompt: "Answer with one word." });
  await addCases(
    db,
    keys.map((k) => ({
      systemId: "shop",
      promptId,
      caseKey: k,
      source: "custom" as const,
      content: { ...emptyCaseContent(), input: `${k} question`, expected: "right", evaluators: [{ kind: "exact" }] },
    })),
  );
  const base = await createModelConfig(db, { name: "base", provider: "openai-compatible", modelId: "base-model", baseUrl: server.url });
  const cand = await createModelConfig(db, { name: "cand", provider: "openai-compatible", modelId: "cand-model", baseUrl: server.url });
  return { promptId, base, cand };
}

/** Runs the worker until bench `id` has ended, then stops it. */
const runToEnd = (id: number) => runWorkerToEnd(db, id);

/** Launches the two candidates over every case with `repeats` repeats (no judge, no cap; `extra` overrides). */
async function launch(s: Awaited<ReturnType<typeof setup>>, repeats: number, extra: Partial<BenchRequest> = {}) {
  const { id } = await launchFromRequest(db, {
    systemId: "shop",
    promptId: s.promptId,
    candidates: [
      { kind: "model", modelConfigId: s.base },
      { kind: "model", modelConfigId: s.cand },
    ],
    baseline: { kind: "candidate", index: 0 },
    selection: { kind: "all" },
    budget: null,
    repeats,
    concurrency: 2,
    timeoutSeconds: 60,
    maxSteps: 1,
    judgeModelConfigId: null,
    launchKey: `k-${Math.random()}`,
    ...extra,
  });
  return id;
}

/** Two priced model configs ($10 per million input and output tokens) for the scripted base and cand models. */
async function pricedPair(): Promise<{ base: number; cand: number }> {
  const priced = { provider: "openai-compatible" as const, baseUrl: server.url, inputPricePerMTok: 10, outputPricePerMTok: 10 };
  return {
    base: await createModelConfig(db, { name: "pbase", modelId: "base-model", ...priced }),
    cand: await createModelConfig(db, { name: "pcand", modelId: "cand-model", ...priced }),
  };
}

/** The candidate's regression statuses by case key. */
async function statuses(id: number) {
  const ev = (await benchEvidence(db, id))!;
  return Object.fromEntries(ev.flatMap((e) => e.regressions.map((r) => [r.caseKey, r.regressionStatus])));
}

const trialsOf = (id: number) =>
  db.$client
    .prepare(
      "SELECT bc.case_key AS k, c.label AS cand, t.repeat, t.status, t.rerun, t.rerun_of AS rerunOf, t.error, t.output FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id JOIN bench_candidates c ON c.id = t.candidate_id WHERE t.bench_id = ? ORDER BY t.id",
    )
    .all(id) as {
    k: string;
    cand: string;
    repeat: number;
    status: string;
    rerun: string | null;
    rerunOf: number | null;
    error: string | null;
    output: string;
  }[];

const flakyFor = (replies: (typeof RIGHT)[]): ScriptRule => ({ name: "flaky", when: { userText: "flaky question", model: "cand-model" }, replies });

describe("confirm suspected regressions", () => {
  it("a flake that does not reproduce is cleared and no longer blocks; only its case's trials run", async () => {
    // The candidate's answer to `flaky`: right, wrong, then right (by request count of that case): 2/3 against 3/3.
    const s = await setup([flakyFor([RIGHT, WRONG, RIGHT, RIGHT, RIGHT, RIGHT])], ["flaky", "steady"]);
    const id = await launch(s, 3);
    let bench = await runToEnd(id);
    expect(bench.status).toBe("finished");
    expect(await statuses(id)).toEqual({ flaky: "suspected" });
    const cand = bench.recommendation!.candidates.find((c) => c.label.startsWith("cand"))!;
    expect(cand.blockers.map((b) => b.caseKey)).toEqual(["flaky"]);

    // The page offers the confirm round with its count (the plan comes with its dialog).
    expect(await rerunOffers(db, bench, await benchEvidence(db, id))).toMatchObject({ confirm: { targets: 1 }, errors: null, cleared: [] });
    const ratesBefore = bench.summary!.candidates.map((c) => [c.stats.trials.total, c.stats.passRate.rate]);
    const comparisonBefore = (await benchEvidence(db, id))![1].comparisons[0];
    const plan = await planConfirm(db, id);
    // 3 repeats: 3 more for the candidate and 3 for the baseline, on `flaky` only; one call each, no judge.
    expect(plan.caseKeys).toEqual(["flaky"]);
    expect(plan.perCandidate.map((p) => [p.label.split(" ")[0], p.trials])).toEqual([
      ["base", 3],
      ["cand", 3],
    ]);
    expect([plan.modelCalls, plan.judgeCalls, plan.targets]).toEqual([6, 0, 1]);
    expect(plan.estimate.inputTokens).toBeGreaterThan(0);
    expect(plan.estimate.costUsd).toBeNull(); // the scripted models have no prices

    const before = server.requests.count;
    const launchedRun = (await getBenchProgress(db, id))!;
    const reopenedAt = Date.now();
    await startRerun(db, id, "confirm");
    expect((await getBench(db, id))!.status).toBe("queued");
    // The progress times the rerun from its own start, over its own trials: the 12 of the first run ended before it.
    const reopened = (await getBenchProgress(db, id))!;
    expect(reopened.startedAt).toBeGreaterThanOrEqual(reopenedAt);
    expect(reopened.startedAt).toBeGreaterThan(launchedRun.startedAt!);
    expect([reopened.total, reopened.done, reopened.finishedBefore]).toEqual([18, 12, 12]);
    bench = await runToEnd(id);
    const rerunDone = (await getBenchProgress(db, id))!;
    expect(rerunDone).toMatchObject({ startedAt: reopened.startedAt, done: 18, finishedBefore: 12 });
    // The bench keeps its own run's times beside the rerun's (the page said only "rerun: elapsed 0s"):
    // from its launch trials, within the launch's first claim and its end.
    expect(rerunDone.launchRun).toBeDefined();
    expect(rerunDone.launchRun!.startedAt).toBeGreaterThanOrEqual(launchedRun.startedAt!);
    expect(rerunDone.launchRun!.finishedAt).toBeLessThanOrEqual(launchedRun.finishedAt!);
    expect(rerunDone.launchRun!.finishedAt).toBeGreaterThanOrEqual(rerunDone.launchRun!.startedAt!);
    expect(rerunDone.launchRun!.finishedAt).toBeLessThan(reopened.startedAt!);
    expect(launchedRun.launchRun).toBeUndefined(); // before any rerun the bench's own times are its startedAt/finishedAt
    expect(server.requests.count - before).toBe(6);
    expect(bench.status).toBe("finished");
    const added = trialsOf(id).filter((t) => t.rerun === "confirm");
    expect(added.map((t) => [t.k, t.cand.split(" ")[0], t.repeat, t.status])).toEqual([
      ["flaky", "cand", 4, "done"],
      ["flaky", "cand", 5, "done"],
      ["flaky", "cand", 6, "done"],
      ["flaky", "base", 4, "done"],
      ["flaky", "base", 5, "done"],
      ["flaky", "base", 6, "done"],
    ]);
    expect(bench.trialCount).toBe(12 + 6);
    expect(await statuses(id)).toEqual({ flaky: "cleared" });
    // The re-finalize stored the new status with the summary (the page reads it from there).
    expect(bench.summary!.evidence![String(cand.candidateId)].statuses.map(([s]) => s)).toEqual(["cleared"]);
    // The gate no longer counts it; the summary still lists it (the page shows it as cleared).
    expect(bench.recommendation!.candidates.find((c) => c.label.startsWith("cand"))!.blockers).toEqual([]);
    expect(bench.summary!.regressions[String(cand.candidateId)].map((r) => r.caseKey)).toEqual(["flaky"]);
    // The flip table lists it as cleared, not regressed (it said "Regressed" while the matrix said "flaky — cleared").
    const flips = bench.summary!.flips!.find((f) => f.candidateId === cand.candidateId)!;
    expect([flips.regressed.map((f) => f.caseKey), flips.cleared!.map((f) => f.caseKey)]).toEqual([[], ["flaky"]]);
    // The confirm trials are evidence for the status only: the rates and the comparison stay those of the planned trials
    // (the rerun cases were picked because they failed; counting them would weigh them more).
    expect(bench.summary!.candidates.map((c) => [c.stats.trials.total, c.stats.passRate.rate])).toEqual(ratesBefore);
    expect(ratesBefore).toEqual([
      [6, 1],
      [6, 5 / 6],
    ]);
    expect((await benchEvidence(db, id))![1].comparisons[0]).toEqual(comparisonBefore);
    expect(await rerunOffers(db, bench, await benchEvidence(db, id))).toMatchObject({
      confirm: null,
      errors: null,
      cleared: [{ caseKey: "flaky", status: "cleared" }],
    });
    // Nothing is suspected any more: a second confirm is refused.
    await expect(planConfirm(db, id)).rejects.toThrow(`Bench #${id} has no suspected regression to confirm`);
  });

  it("a failure that reproduces is confirmed (Fisher p ≤ 0.05) and still blocks; only its case is rerun", async () => {
    // `broken`: the candidate is always wrong; `flaky` answers right the one time it is asked (one repeat): no regression.
    const s = await setup(
      [flakyFor([RIGHT, WRONG]), { name: "broken", when: { userText: "broken question", model: "cand-model" }, reply: WRONG }],
      ["flaky", "broken", "steady"],
    );
    const id = await launch(s, 1);
    await runToEnd(id);
    // One trial per case: 1/1 → 0/1 has p = 0.5, so both are only suspected.
    expect(await statuses(id)).toEqual({ broken: "suspected" });
    const plan = await planConfirm(db, id);
    // One repeat: 2 more per side make 3 in all.
    expect(plan.trials.length).toBe(4);
    // A double click: both plan while the bench is finished; the second's write finds it reopened and adds nothing.
    const [first, second] = await Promise.allSettled([startRerun(db, id, "confirm"), startRerun(db, id, "confirm")]);
    expect(first.status).toBe("fulfilled");
    expect(second).toMatchObject({ status: "rejected", reason: { code: "not_allowed" } });
    expect(trialsOf(id).filter((t) => t.rerun === "confirm")).toHaveLength(4);
    const bench = await runToEnd(id);
    expect(
      trialsOf(id)
        .filter((t) => t.rerun === "confirm")
        .every((t) => t.k === "broken"),
    ).toBe(true);
    // 3/3 → 0/3: p = 1/20 = 0.05 exactly (hypergeometric), confirmed.
    expect(await statuses(id)).toEqual({ broken: "confirmed" });
    expect(bench.recommendation!.candidates.find((c) => c.label.startsWith("cand"))!.blockers.map((b) => b.caseKey)).toEqual(["broken"]);
  });

  it("a strict right/wrong alternation is not cleared: the rerun fails too, and 3/6 against 6/6 (p = 0.0909) is not confirmed", async () => {
    const s = await setup([flakyFor([WRONG, RIGHT])], ["flaky"]);
    const id = await launch(s, 3);
    await runToEnd(id);
    expect(await statuses(id)).toEqual({ flaky: "suspected" }); // W R W: 1/3
    await startRerun(db, id, "confirm");
    await runToEnd(id);
    expect(await statuses(id)).toEqual({ flaky: "suspected" }); // R W R in the rerun: 3/6 in all
  });

  it("a reference that fails a rerun trial itself is flaky on the baseline: no longer a blocking regression", async () => {
    // The baseline answers `flaky` right 3 times, then wrong once in the rerun; the candidate fails it once, then in every rerun trial.
    const s = await setup(
      [
        { name: "base-flaky", when: { userText: "flaky question", model: "base-model" }, replies: [RIGHT, RIGHT, RIGHT, WRONG, RIGHT, RIGHT] },
        flakyFor([RIGHT, WRONG, RIGHT, WRONG, WRONG, WRONG]),
      ],
      ["flaky"],
    );
    const id = await launch(s, 3);
    await runToEnd(id);
    expect(await statuses(id)).toEqual({ flaky: "suspected" });
    await startRerun(db, id, "confirm");
    const bench = await runToEnd(id);
    expect(await statuses(id)).toEqual({ flaky: "flaky on baseline" });
    expect(bench.recommendation!.candidates.find((c) => c.label.startsWith("cand"))!.blockers).toEqual([]);
  });

  it("counts apart the suspected regressions on advisory criteria, which do not block (the page must not say they do)", async () => {
    // One judged criterion, no evaluator: with nobody's review its judge is not calibrated, so the
    // criterion is advisory at launch and the candidate's wrong answer is a suspected, non-blocking regression.
    const s = await setup(
      [
        {
          name: "judge-wrong",
          when: { systemIncludes: "impartial evaluator", userTextIncludes: "made-up answer" },
          reply: { text: '{"reason": "Made up.", "verdict": "fail"}' },
        },
        { name: "judge", when: { systemIncludes: "impartial evaluator" }, reply: { text: '{"reason": "Right.", "verdict": "pass"}' } },
        { name: "cand-made-up", when: { userText: "judged question", model: "cand-model" }, reply: { text: "made-up answer" } },
      ],
      [],
    );
    await addCases(db, [
      {
        systemId: "shop",
        promptId: s.promptId,
        caseKey: "judged",
        source: "custom" as const,
        content: { ...emptyCaseContent(), input: "judged question", expected: "right" },
      },
    ]);
    await addCriterion(db, {
      systemId: "shop",
      promptId: s.promptId,
      fields: { rule: "Answers from the policy", passes: "From the policy", fails: "Invented", priority: "primary" },
    });
    const judge = await createModelConfig(db, { name: "judge", provider: "openai-compatible", modelId: "judge-model", baseUrl: server.url });
    const id = await launch(s, 1, { judgeModelConfigId: judge });
    const bench = await runToEnd(id);
    expect(bench.recommendation!.candidates.find((c) => c.label.startsWith("cand"))!.blockers).toEqual([]);
    const plan = await planConfirm(db, id);
    expect(plan.targets).toBe(1);
    expect(plan.blockingTargets).toBe(0);
  });

  it("refuses a bench that is still queued, and a bench with nothing suspected, with a clear error", async () => {
    const s = await setup([], ["steady"]);
    const id = await launch(s, 1);
    await expect(planConfirm(db, id)).rejects.toThrow(`Bench #${id} is still queued: wait until it has finished before confirming its suspected regressions.`);
    await expect(startRerun(db, id, "errors")).rejects.toMatchObject({ code: "not_allowed" });
    await runToEnd(id);
    await expect(startRerun(db, id, "confirm")).rejects.toThrow(`Bench #${id} has no suspected regression to confirm`);
    await expect(planConfirm(db, 9999)).rejects.toMatchObject({ code: "not_found" });
    // Nothing was added by the refusals.
    expect(trialsOf(id).length).toBe(2);
  });
});

describe("rerun errored trials", () => {
  it("adds one trial per errored trial, linked to it; the errored record stays; the rerun stands in for it in the results", async () => {
    // The candidate's `down` case: the provider is down for its 4 attempts (one trial), then answers.
    const s = await setup(
      [{ name: "outage", when: { userText: "down question", model: "cand-model" }, fault: { status: 503, message: "upstream unavailable" }, times: 4 }],
      ["down", "steady"],
    );
    const id = await launch(s, 1);
    let bench = await runToEnd(id);
    const errored = trialsOf(id).filter((t) => t.status === "error");
    expect(errored.map((t) => [t.k, t.cand.split(" ")[0]])).toEqual([["down", "cand"]]);
    expect(bench.summary!.candidates[1].stats.trials.error).toBe(1);

    const plan = await planErrorRerun(db, id);
    expect([plan.trials.length, plan.modelCalls, plan.caseKeys]).toEqual([1, 1, ["down"]]);
    await startRerun(db, id, "errors", { userId: "u-ed", email: "ed@example.com" });
    // Who started it is in the activity trail (issue 19), with the number of trials it added.
    expect(
      db.$client
        .prepare(
          "SELECT actor_id AS actorId, actor_email AS actorEmail, action, subject_type AS subjectType, subject_id AS subjectId, system_id AS systemId, detail FROM activity WHERE action = 'bench.rerun'",
        )
        .all(),
    ).toEqual([
      {
        actorId: "u-ed",
        actorEmail: "ed@example.com",
        action: "bench.rerun",
        subjectType: "bench",
        subjectId: String(id),
        systemId: "shop",
        detail: "rerun errored trials: 1 trial",
      },
    ]);
    bench = await runToEnd(id);
    const rows = trialsOf(id);
    const erroredId = (db.$client.prepare("SELECT id FROM trials WHERE bench_id = ? AND status = 'error'").get(id) as { id: number }).id;
    // The errored record is kept as it was; the new trial links to it and passed.
    expect(rows.find((t) => t.status === "error")).toMatchObject({ k: "down", repeat: 1, rerun: null });
    expect(rows.find((t) => t.status === "error")!.error).toMatch(/upstream unavailable/);
    expect(rows.filter((t) => t.rerun === "error").map((t) => [t.k, t.repeat, t.status, t.rerunOf, t.output])).toEqual([
      ["down", 2, "done", erroredId, "right"],
    ]);
    // In the results the rerun stands in for the errored attempt: 2 trials, none errored.
    expect(bench.summary!.candidates[1].stats.trials).toMatchObject({ total: 2, done: 2, error: 0 });
    await expect(planErrorRerun(db, id)).rejects.toThrow(`Bench #${id} has no errored trial left to rerun.`);
    // The progress counts the errored attempt as rerun, not as an error still standing (the bar said "1 errors").
    expect(await getBenchProgress(db, id)).toMatchObject({ total: 5, done: 4, error: 1, errorsRerun: 1 });
    expect(progressCounts((await getBenchProgress(db, id))!)).toBe("4 done · 0 errors (1 rerun) · 0 skipped");
    // The matrix cell says an error was rerun there (it gave no hint); the other cells do not.
    const matrix = await matrixRows(db, id);
    const candId = bench.candidates.find((c) => c.label.startsWith("cand"))!.id;
    expect(matrix.map((r) => [r.caseKey, r.cells[candId].errorsRerun ?? 0, r.cells[candId].trials])).toEqual([
      ["down", 1, 1],
      ["steady", 0, 1],
    ]);
    // The rerun's trial is the rerun of its errored repeat, not "repeat 2"; the errored one links to it.
    const rerunId = (db.$client.prepare("SELECT id FROM trials WHERE bench_id = ? AND rerun = 'error'").get(id) as { id: number }).id;
    const siblings = await repeatTrials(db, id, candId, matrix[0].benchCaseId);
    expect(siblings.map((t) => [t.id, trialRepeatLabel(t, siblings)])).toEqual([
      [erroredId, "repeat 1 (errored, rerun)"],
      [rerunId, "repeat 1 (error rerun)"],
    ]);
  });
});

describe("cancelling a rerun", () => {
  it("cancels only the rerun's trials: the bench stays finished with its results, and Confirm is offered again", async () => {
    const s = await setup([flakyFor([RIGHT, WRONG, RIGHT, RIGHT, RIGHT, RIGHT])], ["flaky", "steady"]);
    const id = await launch(s, 3);
    const before = await runToEnd(id);
    expect(await statuses(id)).toEqual({ flaky: "suspected" });
    await startRerun(db, id, "confirm");
    // Cancelled before the worker picks up any of the rerun's trials.
    await requestCancel(db, id, { userId: "u-ed", email: "ed@example.com" });
    const bench = await runToEnd(id);
    expect(bench.status).toBe("finished");
    // The first run's results and recommendation stand; no "Partial bench" note.
    expect(bench.recommendation!.headline).toBe(before.recommendation!.headline);
    expect(bench.recommendation!.headline).not.toMatch(/Partial bench/);
    expect(bench.summary!.candidates.map((c) => c.stats.trials)).toEqual(before.summary!.candidates.map((c) => c.stats.trials));
    // Only the rerun's 6 trials were cancelled, and they say so.
    const added = trialsOf(id).filter((t) => t.rerun === "confirm");
    expect(added.map((t) => [t.status, t.error])).toEqual(Array.from({ length: 6 }, () => ["skipped", "cancelled before it ran"]));
    expect(trialsOf(id).filter((t) => t.rerun === null && t.status !== "done")).toEqual([]);
    // Still suspected, and the confirm round is offered again (with new trials).
    expect(await statuses(id)).toEqual({ flaky: "suspected" });
    expect(await rerunOffers(db, bench, await benchEvidence(db, id))).toMatchObject({ confirm: { targets: 1 } });
    expect((await planConfirm(db, id)).trials.length).toBe(6);
  });
});

describe("cancelling an error rerun", () => {
  it("before it ran: the errored trial counts as before, is listed by kind and offered for a rerun again", async () => {
    const s = await setup(
      [{ name: "outage", when: { userText: "down question", model: "cand-model" }, fault: { status: 503, message: "upstream unavailable" }, times: 4 }],
      ["down", "steady"],
    );
    const id = await launch(s, 1);
    const before = await runToEnd(id);
    expect(before.summary!.candidates[1].stats.trials).toMatchObject({ total: 2, done: 1, error: 1, skipped: 0 });
    await startRerun(db, id, "errors");
    await requestCancel(db, id);
    const after = await runToEnd(id);
    expect(after.status).toBe("finished");
    // It read 1 skipped and 0 errors, and "no errored trial left to rerun": the cancelled rerun had replaced it.
    expect(after.summary!.candidates[1].stats.trials).toEqual(before.summary!.candidates[1].stats.trials);
    expect((await benchErrorBreakdown(db, id)).map((e) => [e.source, e.kind, e.count])).toEqual([["trial", "server", 1]]);
    expect(await getBenchProgress(db, id)).toMatchObject({ error: 1, errorsRerun: 0 });
    expect((await planErrorRerun(db, id)).trials.map((t) => t.rerun)).toEqual(["error"]);
  });
});

describe("a rerun under the bench's spend cap", () => {
  it("a bench that reached its cap: the plan names the cap and what is left; the rerun is refused unless the cap is raised", async () => {
    const s = await setup([flakyFor([RIGHT, WRONG, RIGHT, RIGHT, RIGHT, RIGHT])], ["flaky", "steady"]);
    // Priced models (the cap needs prices): $10 per million input and output tokens.
    const id = await launch({ ...s, ...(await pricedPair()) }, 3, { spendCapUsd: 100 });
    await runToEnd(id);
    expect(await statuses(id)).toEqual({ flaky: "suspected" });
    // The first run spent the cap exactly (as if it had been set to what it spent).
    const { spent } = db.$client.prepare("SELECT spent_usd AS spent FROM benches WHERE id = ?").get(id) as { spent: number };
    expect(spent).toBeGreaterThan(0);
    db.$client.prepare("UPDATE benches SET settings = json_set(settings, '$.spendCap.usd', spent_usd) WHERE id = ?").run(id);

    const plan = await planConfirm(db, id);
    expect(plan.trials.length).toBe(6);
    expect(plan.spendCap).toMatchObject({ capUsd: spent, spentUsd: spent, leftUsd: 0, startable: 0, trials: 6, stops: true });
    expect(plan.spendCap!.neededUsd).toBeGreaterThan(spent);
    // Not started: no trial is added only to be skipped as "budget" (the loop the tester found).
    await expect(startRerun(db, id, "confirm")).rejects.toMatchObject({
      code: "not_allowed",
      message: expect.stringContaining(`0 of its 6 trials could start. Raise the cap to at least`),
    });
    await expect(startRerun(db, id, "confirm", undefined, {}, { spendCapUsd: spent })).rejects.toMatchObject({ code: "not_allowed" });
    expect(trialsOf(id).filter((t) => t.rerun === "confirm")).toEqual([]);
    expect((await getBench(db, id))!.status).toBe("finished");

    // Raised for the rerun: its trials run (none skipped as budget) and the flake is cleared.
    await startRerun(db, id, "confirm", undefined, {}, { spendCapUsd: plan.spendCap!.neededUsd + 0.01 });
    expect((await getBench(db, id))!.settings.spendCap!.usd).toBe(plan.spendCap!.neededUsd + 0.01);
    await runToEnd(id);
    expect(
      trialsOf(id)
        .filter((t) => t.rerun === "confirm")
        .map((t) => t.status),
    ).toEqual(Array.from({ length: 6 }, () => "done"));
    expect(await statuses(id)).toEqual({ flaky: "cleared" });
    // The rerun spent under the raised cap: it stays raised, and keeps the cap the launched run's budget skips were made under.
    expect((await getBench(db, id))!.settings.spendCap).toEqual({
      usd: plan.spendCap!.neededUsd + 0.01,
      trialEstimateUsd: expect.any(Number) as number,
      candidateTrialUsd: expect.any(Array) as number[],
      raisedFromUsd: expect.closeTo(spent, 10) as number,
    });
  });

  it("a cap raised for a Confirm goes back to what it was when the rerun is cancelled before it spent anything", async () => {
    const s = await setup([flakyFor([RIGHT, WRONG, RIGHT, RIGHT, RIGHT, RIGHT])], ["flaky", "steady"]);
    const id = await launch({ ...s, ...(await pricedPair()) }, 3, { spendCapUsd: 100 });
    await runToEnd(id);
    db.$client.prepare("UPDATE benches SET settings = json_set(settings, '$.spendCap.usd', spent_usd) WHERE id = ?").run(id);
    const { spent } = db.$client.prepare("SELECT spent_usd AS spent FROM benches WHERE id = ?").get(id) as { spent: number };
    const plan = await planConfirm(db, id);
    await startRerun(db, id, "confirm", undefined, {}, { spendCapUsd: plan.spendCap!.neededUsd });
    expect((await getBench(db, id))!.settings.spendCap!.usd).toBe(plan.spendCap!.neededUsd);
    // Cancelled before the worker picks up any of its trials: nothing of it was spent.
    await requestCancel(db, id);
    const bench = await runToEnd(id);
    expect(bench.status).toBe("finished");
    expect(bench.settings.spendCap).toEqual({ usd: spent, trialEstimateUsd: expect.any(Number) as number, candidateTrialUsd: expect.any(Array) as number[] });
    // So the Confirm plan says again that the cap stops it.
    expect((await planConfirm(db, id)).spendCap).toMatchObject({ capUsd: spent, stops: true });
  });
});

describe("a rerun's cost, from what the bench measured (issue #16 §3)", () => {
  it("plans each trial at what its candidate's trials of that case cost, not the launch plan's token estimate; the rerun then costs that", async () => {
    // The candidate's `steady` answers are long (dear), its `flaky` ones short: its mean cost per trial says little about `flaky`.
    const long = { name: "long", when: { userText: "steady question", model: "cand-model" }, replies: [{ text: "right", usage: { completionTokens: 5000 } }] };
    const s = await setup([flakyFor([RIGHT, WRONG, RIGHT, RIGHT, RIGHT, RIGHT]), long], ["flaky", "steady"]);
    // Two candidates priced 10× apart.
    const base = await createModelConfig(db, {
      name: "cheap",
      provider: "openai-compatible",
      modelId: "base-model",
      baseUrl: server.url,
      inputPricePerMTok: 10,
      outputPricePerMTok: 10,
    });
    const cand = await createModelConfig(db, {
      name: "dear",
      provider: "openai-compatible",
      modelId: "cand-model",
      baseUrl: server.url,
      inputPricePerMTok: 100,
      outputPricePerMTok: 100,
    });
    const id = await launch({ ...s, base, cand }, 3);
    await runToEnd(id);
    expect(await statuses(id)).toEqual({ flaky: "suspected" });
    const spentOf = () =>
      db.$client.prepare("SELECT position, spent_usd AS usd, spent_trials AS n FROM bench_candidates WHERE bench_id = ? ORDER BY position").all(id) as {
        position: number;
        usd: number;
        n: number;
      }[];
    const [b, c] = spentOf();
    expect(b.n).toBe(6);
    expect(c.usd / c.n).toBeGreaterThan(10 * (b.usd / b.n));

    const flakyCost = db.$client
      .prepare(
        "SELECT c.position, sum(t.cost_usd) AS usd, count(*) AS n FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id JOIN bench_candidates c ON c.id = t.candidate_id WHERE t.bench_id = ? AND bc.case_key = 'flaky' GROUP BY c.position ORDER BY c.position",
      )
      .all(id) as { usd: number; n: number }[];
    // No judge: what a trial spent is its model's cost.
    const measured = 3 * (flakyCost[0].usd / flakyCost[0].n) + 3 * (flakyCost[1].usd / flakyCost[1].n);
    expect(measured).toBeLessThan((3 * (c.usd / c.n)) / 10);

    const plan = await planConfirm(db, id);
    expect(plan.perCandidate.map((p) => p.trials)).toEqual([3, 3]);
    expect(plan.estimate.costUsd).toBeCloseTo(measured, 12);
    expect(plan.estimate.costFrom).toEqual({ caseTrials: 6, candidateTrials: 0, plannedTrials: 0 });

    const before = b.usd + c.usd;
    await startRerun(db, id, "confirm");
    await runToEnd(id);
    const [b2, c2] = spentOf();
    // The scripted server answers with the same usage every time: the rerun cost what the plan said.
    expect(b2.usd + c2.usd - before).toBeCloseTo(measured, 12);
  });

  it("a candidate none of whose trials finished is planned at the plan's figure", async () => {
    const s = await setup([{ name: "outage", when: { model: "cand-model" }, fault: { status: 503, message: "upstream unavailable" } }], ["down"]);
    const priced = { provider: "openai-compatible" as const, baseUrl: server.url, inputPricePerMTok: 10, outputPricePerMTok: 10 };
    const base = await createModelConfig(db, { name: "pb", modelId: "base-model", ...priced });
    const cand = await createModelConfig(db, { name: "pc", modelId: "cand-model", ...priced });
    const id = await launch({ ...s, base, cand }, 1);
    await runToEnd(id);
    const plan = await planErrorRerun(db, id);
    expect(plan.perCandidate.map((p) => p.trials)).toEqual([1]);
    expect(plan.estimate.costFrom).toEqual({ caseTrials: 0, candidateTrials: 0, plannedTrials: 1 });
    expect(plan.estimate.costUsd).toBeGreaterThan(0);
  });
});
