import { describe, expect, it } from "vitest";
import { emptyCaseContent, type CaseContent } from "../library/case-content";
import { planBench, selects } from "./plan";
import type { CandidateSpec, SuppliedCase } from "./types";

let nextId = 1;
function supplied(o: Partial<Omit<SuppliedCase, "content">> & { content?: Partial<CaseContent> } = {}): SuppliedCase {
  const id = o.caseId ?? nextId++;
  return {
    caseId: id,
    caseKey: o.caseKey ?? `case-${id}`,
    caseRevisionId: o.caseRevisionId ?? id * 10,
    source: o.source ?? "custom",
    status: o.status ?? "active",
    retainedFromCaseId: o.retainedFromCaseId ?? null,
    userCorrected: o.userCorrected ?? false,
    content: { ...emptyCaseContent(), input: "question", expected: "answer", ...o.content },
  };
}

const recorded = (name: string): CandidateSpec => ({ kind: "recorded", label: name, recordedName: name });
const model = (systemPrompt = "You help."): CandidateSpec => ({
  kind: "model",
  label: "gpt",
  model: { name: "gpt", provider: "openai", modelId: "gpt-x", maxOutputTokens: 100, inputPricePerMTok: 1, outputPricePerMTok: 2 },
  promptRevision: { id: 1, number: 1, systemPrompt, tools: [] },
});
const settings = { budget: null, repeats: 1, criteriaCount: 0, judge: null };

describe("planBench", () => {
  it("orders explicit cases first, then retained, then generated, and applies the budget in that order", () => {
    const cases = [
      supplied({ caseId: 5, source: "generated" }),
      supplied({ caseId: 4, source: "retained" }),
      supplied({ caseId: 3, source: "dataset" }),
      supplied({ caseId: 1, source: "custom" }),
      supplied({ caseId: 2, source: "code" }),
    ];
    const plan = planBench(cases, [recorded("a")], { ...settings, budget: 4 });
    expect(plan.manifest.map((m) => [m.caseId, m.group, m.included, m.reason])).toEqual([
      [1, "explicit", true, null],
      [2, "explicit", true, null],
      [3, "explicit", true, null],
      [4, "retained", true, null],
      [5, "generated", false, "over budget (4 cases)"],
    ]);
    expect(plan.excludedBy).toEqual({ "over budget": 1 });
  });

  it("excludes paused cases and cases missing input, expected result or a variable — and says which", () => {
    const cases = [
      supplied({ caseId: 1, status: "paused" }),
      supplied({ caseId: 2, content: { input: "  " } }),
      supplied({ caseId: 3, content: { expected: "" } }),
      supplied({ caseId: 4, content: { expected: "", evaluators: [{ kind: "non_empty" }] } }),
      supplied({ caseId: 5, content: { variables: [{ name: "shop", value: "N" }] } }),
      supplied({ caseId: 6 }),
    ];
    const plan = planBench(cases, [model("You help customers of {{shop}} in {{ city }}.")], settings);
    expect(plan.manifest.map((m) => m.reason)).toEqual([
      "paused",
      "missing input",
      "missing expected result",
      "missing variable `shop`, `city`",
      "missing variable `city`",
      "missing variable `shop`, `city`",
    ]);
    expect(plan.includedCount).toBe(0);
    expect(plan.warnings[0]).toMatch(/No case is included/);
    expect(plan.excludedBy).toEqual({ paused: 1, "missing input": 1, "missing expected result": 1, "missing variable": 3 });
  });

  it("never drops a case whose history cannot be replayed: included with a note", () => {
    const plan = planBench(
      [
        supplied({
          content: {
            history: [
              { role: "user", content: "hi" },
              { role: "tool", content: "{}" },
            ],
          },
        }),
      ],
      [model()],
      settings,
    );
    expect(plan.manifest[0].included).toBe(true);
    expect(plan.manifest[0].note).toMatch(/1 turn the runtime cannot replay/);
  });

  it("skips a retained copy when its original case is included", () => {
    const plan = planBench(
      [
        supplied({ caseId: 1 }),
        supplied({ caseId: 2, source: "retained", retainedFromCaseId: 1 }),
        supplied({ caseId: 3, source: "retained", retainedFromCaseId: 99 }),
      ],
      [recorded("a")],
      settings,
    );
    expect(plan.manifest.map((m) => [m.caseId, m.included, m.reason])).toEqual([
      [1, true, null],
      [2, false, "duplicate (its original case is already included)"],
      [3, true, null],
    ]);
  });

  it("a user's correction of a retained case runs instead of its original, never both (the original ran and the correction was a 'duplicate')", () => {
    const plan = planBench(
      [
        supplied({ caseId: 1, caseKey: "refund" }),
        supplied({ caseId: 2, caseKey: "late" }),
        supplied({ caseId: 3, caseKey: "refund~retained", source: "retained", retainedFromCaseId: 1, userCorrected: true }),
        supplied({ caseId: 4, caseKey: "late~retained", source: "retained", retainedFromCaseId: 2 }),
      ],
      [recorded("a")],
      { ...settings, budget: 2 },
    );
    expect(plan.manifest.map((m) => [m.caseKey, m.group, m.included, m.reason])).toEqual([
      ["refund", "explicit", false, "replaced by its correction `refund~retained`"],
      // The correction takes its original's place in the order, so the budget cannot cut it instead.
      ["refund~retained", "retained", true, null],
      ["late", "explicit", true, null],
      ["late~retained", "retained", false, "duplicate (its original case is already included)"],
    ]);
    expect(plan.excludedBy).toEqual({ "replaced by its correction": 1, duplicate: 1 });
    // A paused correction replaces nothing: the original runs.
    const paused = planBench(
      [supplied({ caseId: 1 }), supplied({ caseId: 3, source: "retained", retainedFromCaseId: 1, userCorrected: true, status: "paused" })],
      [recorded("a")],
      settings,
    );
    expect(paused.manifest.map((m) => [m.caseId, m.included, m.reason])).toEqual([
      [1, true, null],
      [3, false, "paused"],
    ]);
  });

  it("counts the retained cases that joined the selection, and warns when they outnumber it", () => {
    const cases = [
      supplied({ caseId: 1 }),
      supplied({ caseId: 2, source: "retained", retainedFromCaseId: 50 }),
      supplied({ caseId: 3, source: "retained", retainedFromCaseId: 51 }),
    ];
    const plan = planBench(cases, [recorded("a")], settings);
    expect(plan.retainedJoined).toBe(2);
    expect(plan.warnings).toContain(
      "2 of the 3 included cases are retained regression cases from earlier benches, not from your selection: they can decide the recommendation on their own. Turn off “include retained regression cases” to run only the selection.",
    );
    const fewer = planBench([...cases, supplied({ caseId: 4 }), supplied({ caseId: 5 })], [recorded("a")], settings);
    expect(fewer.retainedJoined).toBe(2);
    expect(fewer.warnings.some((w) => /retained/.test(w))).toBe(false);
  });

  it("counts trials, model and judge calls, missing recordings and estimates tokens and cost", () => {
    const cases = [supplied({ content: { input: "x".repeat(400), recordedOutputs: { a: "1" } } }), supplied({ content: { input: "y".repeat(40) } })];
    const judge = { name: "judge", provider: "openai" as const, modelId: "j" };
    const plan = planBench(cases, [recorded("a"), model("z".repeat(40))], { budget: null, repeats: 3, criteriaCount: 2, judge });
    expect(plan.trialCount).toBe(12);
    expect(plan.modelCalls).toBe(6);
    expect(plan.missingRecordings).toEqual([{ candidate: "a", count: 3 }]);
    expect(plan.judgeCalls).toBe((12 - 3) * 2);
    // model input: (10 system + 1 tools "[]" + 100 or 10 input) per trial, 3 repeats
    expect(plan.estimate.outputTokens).toBeGreaterThanOrEqual(6 * 100);
    expect(plan.estimate.costUsd).toBeNull(); // the judge has no prices
    const noJudge = planBench(cases, [model("z".repeat(40))], { budget: null, repeats: 1, criteriaCount: 0, judge: null });
    expect(noJudge.estimate.inputTokens).toBe(10 + 1 + 100 + (10 + 1 + 10));
    expect(noJudge.estimate.outputTokens).toBe(200);
    expect(noJudge.estimate.costUsd).toBeCloseTo((132 * 1 + 200 * 2) / 1e6, 12);
  });

  it("estimates each candidate's cost per trial (its calls, plus the judge's share), what the spend cap counts its running trials for", () => {
    const cases = [
      supplied({ content: { input: "x".repeat(400), recordedOutputs: { a: "1" } } }),
      supplied({ content: { input: "y".repeat(40), recordedOutputs: { a: "2" } } }),
    ];
    const dear: CandidateSpec = { ...model("z".repeat(40)), label: "dear" } as CandidateSpec;
    if (dear.kind === "model") dear.model = { ...dear.model, name: "dear", inputPricePerMTok: 10, outputPricePerMTok: 20 };
    const judge = { name: "judge", provider: "openai" as const, modelId: "j", inputPricePerMTok: 1, outputPricePerMTok: 1 };
    const p = planBench(cases, [recorded("a"), model("z".repeat(40)), dear], { budget: null, repeats: 2, criteriaCount: 1, judge });
    // Model calls: 132 input and 200 output tokens over 2 cases (as above), × 2 repeats, over 4 trials.
    const cheapPerTrial = ((132 * 1 + 200 * 2) * 2) / 1e6 / 4;
    const judgePerTrial = (p.estimate.costUsd! - cheapPerTrial * 4 - cheapPerTrial * 10 * 4) / p.trialCount;
    expect(judgePerTrial).toBeGreaterThan(0);
    expect(p.candidateTrialCostUsd).toHaveLength(3);
    expect(p.candidateTrialCostUsd![0]).toBeCloseTo(judgePerTrial, 12);
    expect(p.candidateTrialCostUsd![1]).toBeCloseTo(cheapPerTrial + judgePerTrial, 12);
    expect(p.candidateTrialCostUsd![2]).toBeCloseTo(cheapPerTrial * 10 + judgePerTrial, 12);
    // The candidates' figures add up to the plan's estimate.
    expect(p.candidateTrialCostUsd!.reduce((a, c) => a! + c! * 4, 0)).toBeCloseTo(p.estimate.costUsd!, 12);
    // Without the judge's prices no candidate can be priced.
    const unpriced = planBench(cases, [model()], { budget: null, repeats: 1, criteriaCount: 1, judge: { ...judge, inputPricePerMTok: undefined } });
    expect(unpriced.candidateTrialCostUsd).toEqual([null]);
  });

  it("with tools a trial makes up to the step limit of model calls: the estimate is that upper bound, and says so (it counted one call per trial)", () => {
    const tool = { name: "get_order", description: "Look up an order", inputSchema: { type: "object" } };
    const agent: CandidateSpec = {
      ...(model("z".repeat(40)) as Extract<CandidateSpec, { kind: "model" }>),
      promptRevision: { id: 1, number: 1, systemPrompt: "z".repeat(40), tools: [tool] },
    };
    // One case may call the tool; the other exposes no tool, so it answers in one call.
    const cases = [supplied({ content: { input: "y".repeat(40) } }), supplied({ content: { input: "y".repeat(40), tools: [] } })];
    const plan = planBench(cases, [agent], { ...settings, repeats: 2, maxSteps: 5 });
    expect(plan.modelCalls).toBe(2 * 5 + 2 * 1);
    expect(plan.modelCallsUpperBound).toBe(true);
    expect(plan.estimate.outputTokens).toBe(12 * 100);
    expect(plan.warnings).toContain(
      "Model calls, tokens and cost are upper bounds: a trial with tools makes up to 5 model calls (the step limit), one per tool round.",
    );
    const plain = planBench(cases, [model("z".repeat(40))], { ...settings, repeats: 2, maxSteps: 5 });
    expect(plain.modelCalls).toBe(4);
    expect(plain.modelCallsUpperBound).toBe(false);
  });

  it("selects by tag, source or dataset but always keeps retained and generated cases", () => {
    const tagged = supplied({ content: { tags: ["refunds"] } });
    const other = supplied({ source: "dataset" });
    const retained = supplied({ source: "retained" });
    const ds = () => "golden";
    expect(selects({ kind: "tag", tag: "refunds" }, tagged, ds)).toBe(true);
    expect(selects({ kind: "tag", tag: "refunds" }, other, ds)).toBe(false);
    expect(selects({ kind: "tag", tag: "refunds" }, retained, ds)).toBe(true);
    expect(selects({ kind: "source", source: "dataset" }, other, ds)).toBe(true);
    expect(selects({ kind: "dataset", dataset: "golden" }, other, ds)).toBe(true);
    expect(selects({ kind: "dataset", dataset: "other" }, other, ds)).toBe(false);
    // …unless retained cases are left out.
    expect(selects({ kind: "all" }, retained, ds, { includeRetained: false })).toBe(false);
    expect(selects({ kind: "tag", tag: "refunds" }, retained, ds, { includeRetained: false })).toBe(false);
    expect(selects({ kind: "all" }, other, ds, { includeRetained: false })).toBe(true);
  });
});

describe("planBench: cases without a check (issue 15)", () => {
  it("says so when included cases have no check, no prompt default check and the rubric has no criterion", () => {
    const cases = [
      supplied({ caseKey: "cap-01" }),
      supplied({ caseKey: "cap-02", content: { evaluators: [{ kind: "exact" }] } }),
      supplied({ caseKey: "cap-03" }),
    ];
    const plan = planBench(cases, [recorded("a")], settings);
    expect(plan.unchecked).toEqual({ count: 2, caseKeys: ["cap-01", "cap-03"], criteriaUnjudged: false });
    expect(plan.warnings).toContain("2 included cases have no check and the prompt has no criterion: their trials would end “no check was scored”.");
  });

  it("does not warn when the prompt has default checks, or a criterion with a judge model to score it", () => {
    const cases = [supplied({ caseKey: "cap-01" })];
    const judge = { name: "judge", provider: "openai" as const, modelId: "j" };
    expect(planBench(cases, [recorded("a")], { ...settings, defaultCheckCount: 1 }).unchecked).toBeUndefined();
    expect(planBench(cases, [recorded("a")], { ...settings, criteriaCount: 1, judge }).unchecked).toBeUndefined();
  });

  it("warns when the prompt's criteria have no judge model: they would be unscored, so nothing would be scored", () => {
    // The demo's prompts all have criteria: a recorded dataset benched without a judge scored nothing, unwarned.
    const cases = [supplied({ caseKey: "nc-01" }), supplied({ caseKey: "nc-02" })];
    const plan = planBench(cases, [recorded("a")], { ...settings, criteriaCount: 1, judge: null });
    expect(plan.unchecked).toEqual({ count: 2, caseKeys: ["nc-01", "nc-02"], criteriaUnjudged: true });
    expect(plan.warnings).toContain(
      "2 included cases have no check and no judge model is chosen for the prompt's criteria: their trials would end “no check was scored”.",
    );
    expect(planBench(cases, [recorded("a")], settings).unchecked).toEqual({ count: 2, caseKeys: ["nc-01", "nc-02"], criteriaUnjudged: false });
  });
});

describe("planBench with generation (issue 17)", () => {
  const generator = { name: "gen", inputPricePerMTok: 1, outputPricePerMTok: 2 };
  const cases = () => [
    supplied({ caseId: 301, source: "generated" }),
    supplied({ caseId: 302, source: "retained" }),
    supplied({ caseId: 303 }),
    supplied({ caseId: 304 }),
  ];

  it("generated scenarios take only the budget left after explicit, retained and earlier generated cases", () => {
    const plan = planBench(cases(), [recorded("a"), recorded("b")], {
      ...settings,
      budget: 5,
      generation: { criteria: 2, scenarios: 3, model: generator, promptTokens: 100 },
    });
    // explicit, then retained, then the prompt's earlier generated case: 4 cases, so 1 of 3 new ones fits.
    expect(plan.manifest.map((m) => m.caseId)).toEqual([303, 304, 302, 301]);
    expect(plan.generation).toMatchObject({ model: "gen", criteria: 2, scenarios: 3, scenariosIncluded: 1, trials: 2, judgeCalls: 0 });
    expect(plan.warnings).toContain(
      "Only 1 of the 3 scenarios to generate fit the case budget (5 cases): generated cases join after the explicit and retained ones, and the rest will be excluded “over budget”.",
    );
    expect(plan.warnings).toContain("No judge model: the 2 generated criteria will be unscored.");
  });

  it("counts the generator's calls (criteria, concepts, one per persona up to 5), tokens and cost", () => {
    const plan = planBench(cases(), [recorded("a")], { ...settings, generation: { criteria: 4, scenarios: 8, model: generator, promptTokens: 100 } });
    const g = plan.generation!;
    expect(g.calls).toBe(1 + 1 + 5);
    expect(g.scenariosIncluded).toBe(8);
    expect(g.estimate.inputTokens).toBe(7 * 700);
    expect(g.estimate.outputTokens).toBe(4 * 100 + 250 + 8 * 120);
    expect(g.estimate.costUsd).toBeCloseTo((7 * 700 * 1 + (400 + 250 + 960) * 2) / 1e6, 10);
    // Only scenarios: no criteria call; unknown prices: unknown cost.
    const s = planBench(cases(), [recorded("a")], {
      ...settings,
      generation: { criteria: 0, scenarios: 2, model: { name: "free" }, promptTokens: 0 },
    }).generation!;
    expect([s.calls, s.estimate.costUsd]).toEqual([3, null]);
  });

  it("with a judge, the generated criteria score every trial and the rubric scores the new trials", () => {
    const judge = { name: "j", provider: "openai" as const, modelId: "j" };
    const g = planBench(cases(), [recorded("a")], {
      ...settings,
      criteriaCount: 1,
      judge,
      budget: 6,
      generation: { criteria: 2, scenarios: 5, model: generator, promptTokens: 0 },
    }).generation!;
    expect(g.scenariosIncluded).toBe(2);
    // 4 old trials + 2 new: 2 new criteria × 6 trials, the 1 existing criterion × 2 new trials.
    expect(g.judgeCalls).toBe(2 * 6 + 1 * 2);
  });

  it("a plan without generation has none", () => {
    expect(planBench(cases(), [recorded("a")], settings).generation).toBeUndefined();
  });
});
