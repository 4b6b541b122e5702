/**
 * Deterministic replays (issue #16, found by the new-user pass): a regression of a recorded
 * candidate against a recorded baseline on a code check is confirmed as a "deterministic replay"
 * at once (no Confirm round: a rerun replays the same answers), while one an LLM judge scored
 * stays suspected and the Confirm round re-asks only the judge (no model call: the answers are
 * recorded). Through the real path: a temp SQLite file, the worker, a scripted judge over HTTP.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import type { Db } from "@/db/client";
import { addCases } from "@/db/queries/cases";
import { addCriterion } from "@/db/queries/criteria";
import { createModelConfig } from "@/db/queries/models";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { emptyCaseContent, type CaseContent } from "@/lib/library/case-content";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";
import { launchFromRequest } from "./prepare";
import { benchEvidence } from "./comparisons";
import { planConfirm, rerunOffers, startRerun } from "./reruns";
import { openTempBenchDb, runWorkerToEnd } from "./test-support/worker-run";

let server: ScriptedModelServer;
let dir: string;
let db: Db;

beforeAll(async () => {
  server = await startScriptedModelServer({ defaultReply: { text: "unused" } });
  server.setScript([
    // The judge fails the made-up answer and passes every other.
    {
      name: "judge-fail",
      when: { systemIncludes: "impartial evaluator", userTextIncludes: "made-up answer" },
      reply: { text: '{"reason": "Made up.", "verdict": "fail"}' },
    },
    { name: "judge-pass", when: { systemIncludes: "impartial evaluator" }, reply: { text: '{"reason": "Fine.", "verdict": "pass"}' } },
    // A live model that answers every question right.
    { name: "live", when: { model: "live-model" }, reply: { text: "right" } },
  ]);
});
afterAll(async () => server.close());
afterEach(() => {
  db?.$client.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const runToEnd = (id: number) => runWorkerToEnd(db, id);

/**
 * A fresh temp database with system `rec` and prompt `answerer`: case `coded` (an exact check,
 * expected "right"; recorded `base` answers "right", `cand` "wrong") and the `more` cases after it.
 * @returns the prompt's id
 */
async function openAnswerer(more: { caseKey: string; content: CaseContent }[] = []): Promise<number> {
  ({ db, dir } = openTempBenchDb("benchwork-replay-"));
  await createSystem(db, { id: "rec", name: "Recorded" });
  const promptId = await createPrompt(db, { systemId: "rec", name: "answerer", systemPrompt: "Answer briefly." });
  const coded = {
    caseKey: "coded",
    content: {
      ...emptyCaseContent(),
      input: "coded question",
      expected: "right",
      recordedOutputs: { base: "right", cand: "wrong" },
      evaluators: [{ kind: "exact" as const }],
    },
  };
  await addCases(
    db,
    [coded, ...more].map((c) => ({ systemId: "rec", promptId, source: "custom" as const, ...c })),
  );
  return promptId;
}

/**
 * Prompt `answerer` with recorded columns `base` and `cand`: case `coded` (an exact check; the
 * candidate's answer is wrong) and case `judged` (no evaluator; the candidate made its answer up,
 * which the rubric's one criterion fails); with or without a judge model.
 */
async function launchRecorded(withJudge: boolean) {
  const promptId = await openAnswerer([
    {
      caseKey: "judged",
      content: { ...emptyCaseContent(), input: "judged question", expected: "right", recordedOutputs: { base: "right", cand: "made-up answer" } },
    },
  ]);
  await addCriterion(db, {
    systemId: "rec",
    promptId,
    fields: { rule: "Answers from the policy", passes: "From the policy", fails: "Invented", priority: "primary" },
  });
  const judge = withJudge ? await createModelConfig(db, { name: "judge", provider: "openai-compatible", modelId: "judge-model", baseUrl: server.url }) : null;
  const { id } = await launchFromRequest(db, {
    systemId: "rec",
    promptId,
    candidates: [
      { kind: "recorded", recordedName: "base" },
      { kind: "recorded", recordedName: "cand" },
    ],
    baseline: { kind: "candidate", index: 0 },
    selection: { kind: "all" },
    budget: null,
    repeats: 1,
    concurrency: 2,
    timeoutSeconds: 60,
    maxSteps: 1,
    judgeModelConfigId: judge,
    launchKey: `k-${Math.random()}`,
  });
  return { id, bench: await runToEnd(id) };
}

/** The candidate's regressions as `[case, status, reason, p]`. */
async function regressionsOf(id: number) {
  const ev = (await benchEvidence(db, id))!;
  return ev[1].regressions.map((r) => [r.caseKey, r.regressionStatus, r.regressionReason, r.regressionPValue]);
}

describe("regressions of recorded candidates", () => {
  it("recorded + code check: confirmed as a deterministic replay (blocks); recorded + judge: suspected, and Confirm re-asks only the judge", async () => {
    const { id, bench } = await launchRecorded(true);
    expect(await regressionsOf(id)).toEqual([
      ["coded", "confirmed", "deterministic replay", null],
      ["judged", "suspected", null, expect.closeTo(0.5, 12)],
    ]);
    // The deterministic one blocks (the judged criterion is advisory until its judge is calibrated).
    expect(bench.recommendation!.candidates.find((c) => c.label === "cand")!.blockers.map((b) => b.caseKey)).toEqual(["coded"]);

    // The Confirm round reruns only the judged case, and says why it leaves the other out.
    const plan = await planConfirm(db, id);
    expect(plan).toMatchObject({ targets: 1, deterministic: 1, caseKeys: ["judged"], modelCalls: 0 });
    expect(plan.judgeCalls).toBe(plan.trials.length); // one criterion per trial: only the judge is asked again
    const offers = await rerunOffers(db, bench, await benchEvidence(db, id));
    expect(offers.confirm).toMatchObject({ targets: 1 });
    expect(offers.deterministic).toBe(1);

    await startRerun(db, id, "confirm");
    await runToEnd(id);
    // The judge failed the made-up answer again in every rerun: 3/3 → 0/3, Fisher p = 0.05, confirmed by repeats (no reason).
    expect(await regressionsOf(id)).toEqual([
      ["coded", "confirmed", "deterministic replay", null],
      ["judged", "confirmed", null, expect.closeTo(0.05, 12)],
    ]);
  }, 60_000);

  it("a bench whose only regressions are deterministic replays has nothing to confirm, and says why", async () => {
    // Without a judge model the criterion is unscored: only the exact check can break.
    const { id, bench } = await launchRecorded(false);
    expect(await regressionsOf(id)).toEqual([["coded", "confirmed", "deterministic replay", null]]);
    await expect(planConfirm(db, id)).rejects.toThrow("1 regression is a deterministic replay: a rerun cannot change it.");
    await expect(startRerun(db, id, "confirm")).rejects.toMatchObject({ code: "not_allowed" });
    const offers = await rerunOffers(db, bench, await benchEvidence(db, id));
    expect(offers.confirm).toBeNull();
    expect(offers.deterministic).toBe(1);
    // Nothing was added: 2 cases × 2 candidates.
    expect(db.$client.prepare("SELECT count(*) AS n FROM trials WHERE bench_id = ?").get(id)).toEqual({ n: 4 });
  }, 60_000);
});

describe("regressions of a recorded candidate against the last bench", () => {
  /** Prompt `answerer` with case `coded` (exact check, expected "right"; recorded `cand` answers "wrong"); first bench: `first` alone. */
  async function twoBenches(first: { kind: "recorded"; recordedName: string } | { kind: "model"; modelConfigId: number } | "live") {
    const promptId = await openAnswerer();
    const firstCandidate =
      first === "live"
        ? {
            kind: "model" as const,
            modelConfigId: await createModelConfig(db, { name: "live", provider: "openai-compatible", modelId: "live-model", baseUrl: server.url }),
          }
        : first;
    const request = (candidate: typeof firstCandidate, key: string) => ({
      systemId: "rec",
      promptId,
      candidates: [candidate],
      baseline: { kind: "none" as const },
      selection: { kind: "all" as const },
      budget: null,
      repeats: 1,
      concurrency: 2,
      timeoutSeconds: 60,
      maxSteps: 1,
      judgeModelConfigId: null,
      launchKey: key,
    });
    const a = await launchFromRequest(db, request(firstCandidate, `a-${Math.random()}`));
    expect((await runToEnd(a.id)).status).toBe("finished");
    const b = await launchFromRequest(db, request({ kind: "recorded", recordedName: "cand" }, `b-${Math.random()}`));
    await runToEnd(b.id);
    const ev = (await benchEvidence(db, b.id))!;
    return ev[0].regressions.map((r) => [r.caseKey, r.against, r.regressionStatus, r.regressionReason]);
  }

  it("is a deterministic replay when the last bench's reference is recorded too", async () => {
    expect(await twoBenches({ kind: "recorded", recordedName: "base" })).toEqual([["coded", "last bench", "confirmed", "deterministic replay"]]);
  }, 60_000);

  it("stays suspected when the last bench's reference was a live model (its pass may have been luck)", async () => {
    expect(await twoBenches("live")).toEqual([["coded", "last bench", "suspected", null]]);
  }, 60_000);
});
