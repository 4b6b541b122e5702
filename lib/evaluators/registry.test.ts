import { textModel } from "@/lib/runtime/test-support/mock-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileStaticCheck, runChecks, runStaticCheck, validateEvaluatorSpecsDeep } from "./registry";
import { createSandbox, type CustomEvaluatorSandbox } from "./sandbox";
import type { EvaluationTrial } from "./types";
import * as api from "./index";

const trial: EvaluationTrial = {
  output: "Unopened items can be returned within 30 days.",
  toolCalls: [{ toolCallId: "t1", toolName: "lookup_policy", input: '{"topic":"returns"}' }],
  finishReason: "stop",
  usage: { inputTokens: 50, outputTokens: 12 },
  context: { input: "What is the return window?", expected: "30 days", tools: ["lookup_policy"] },
};

const judgeModel = textModel('{"reason":"Mentions 30 days.","verdict":"pass"}', { modelId: "judge-x" });

describe("runChecks", () => {
  let sandbox: CustomEvaluatorSandbox;
  beforeAll(async () => {
    // A deadline no healthy call reaches on a loaded machine; the overrun test sets its own.
    sandbox = await createSandbox({ timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await sandbox.dispose();
  });

  it("runs static, custom and judge checks and keeps the order", async () => {
    const specs = [
      { kind: "non_empty" },
      { kind: "contains" },
      { kind: "exact" },
      {
        kind: "tool_call_syntax",
        version: 1,
        alternatives: [{ calls: [{ toolName: "lookup_policy", arguments: { topic: { required: true, acceptedValues: ["returns"] } } }] }],
      },
      { kind: "custom", code: "function evaluate({ normalizedToolCalls }) { return normalizedToolCalls[0].input.topic === 'returns' }" },
      { kind: "judge", criterion: { rule: "States the return window" } },
      { kind: "gsm8k", expected: "30", mode: "flexible" },
    ];
    const results = await runChecks(specs, trial, { sandbox, judge: { model: judgeModel } });
    expect(results.map((r) => [r.kind, r.verdict])).toEqual([
      ["non_empty", "passed"],
      ["contains", "passed"],
      ["exact", "failed"],
      ["tool_call_syntax", "passed"],
      ["custom", "passed"],
      ["judge", "passed"],
      ["gsm8k", "passed"],
    ]);
    expect(results[5].details?.judge).toMatchObject({ modelId: "judge-x", mode: "binary" });
  });

  it("without a judge model, judge checks are unscored", async () => {
    const [r] = await runChecks([{ kind: "judge", criterion: { rule: "x" } }], trial);
    expect(r).toMatchObject({ verdict: "unscored", message: "no judge model configured" });
  });

  it("configuration mistakes become errors, never failures", async () => {
    const results = await runChecks(
      [
        { kind: "answer_bank", answers: [] },
        { kind: "nope" },
        { kind: "custom", code: "" },
        { kind: "judge", criterion: { rule: "x" }, mode: "numeric", threshold: 0 },
        "not a spec",
      ],
      trial,
      { sandbox },
    );
    expect(results.map((r) => r.verdict)).toEqual(["error", "error", "error", "error", "error"]);
    expect(results.map((r) => r.message)).toEqual([
      "evaluator configuration error: answers: the answer bank is empty: add at least one accepted answer",
      expect.stringContaining('evaluator configuration error: unknown evaluator kind "nope"'),
      expect.stringContaining("evaluator configuration error: code: code is empty"),
      "evaluator configuration error: threshold: threshold must be between 1 and 10 (got 0)",
      'evaluator configuration error: an evaluator must be an object with a "kind" (got string)',
    ]);
  });

  it("a custom crash is an infrastructure error", async () => {
    const [r] = await runChecks([{ kind: "custom", code: "function evaluate() { null.x }" }], trial, { sandbox });
    expect(r.verdict).toBe("error");
    expect(r.message).toMatch(/^evaluator infrastructure failure: evaluate threw TypeError/);
  });

  it("uses the shared sandbox by default", async () => {
    const [r] = await runChecks([{ kind: "custom", code: "function evaluate() { return true }" }], trial);
    expect(r).toMatchObject({ verdict: "passed", details: { isolation: "worker" } });
  });

  it("a sandbox given as a function is started only when a custom check runs, and its failure is an infrastructure error", async () => {
    let started = 0;
    const start = async () => (started++, sandbox);
    await runChecks([{ kind: "contains" }], { ...trial, output: "x" }, { sandbox: start });
    expect(started).toBe(0);
    const [r] = await runChecks([{ kind: "custom", code: "function evaluate({ output }) { return output.length > 0 }" }], trial, { sandbox: start });
    expect(r.verdict).toBe("passed");
    expect(started).toBe(1);
    const failing = async (): Promise<CustomEvaluatorSandbox> => {
      throw new Error("no threads left");
    };
    const rs = await runChecks(
      [
        { kind: "custom", code: "function evaluate() { return true }" },
        { kind: "custom", code: "function evaluate() { return false }" },
      ],
      trial,
      { sandbox: failing },
    );
    expect(rs.map((x) => [x.verdict, x.message])).toEqual([
      ["error", "evaluator infrastructure failure: the sandbox could not start: no threads left"],
      ["error", "evaluator infrastructure failure: the sandbox could not start: no threads left"],
    ]);
  });

  it("customTimeoutMs applies", async () => {
    const [r] = await runChecks([{ kind: "custom", code: "function evaluate() { for (;;) {} }" }], trial, { sandbox, customTimeoutMs: 30 });
    expect(r.message).toBe("evaluator infrastructure failure: timed out after 30 ms");
  });

  it("while one trial's custom check hangs until its deadline, another trial's custom check on the same sandbox completes without waiting", async () => {
    // One sandbox, as a trial thread shares one across its trials.
    const shared = await createSandbox({ isolation: "worker" });
    const events: string[] = [];
    const hanging = runChecks([{ kind: "custom", code: "function evaluate() { for (;;) {} }" }], trial, { sandbox: shared, customTimeoutMs: 30_000 }).then(
      (r) => (events.push("hanging trial scored"), r),
    );
    const [other] = await runChecks([{ kind: "custom", code: "function evaluate({ output }) { return output.includes('30 days') }" }], trial, {
      sandbox: shared,
    });
    events.push("other trial scored");
    expect(other).toMatchObject({ verdict: "passed", message: "The custom evaluator returned true." });
    expect(events).toEqual(["other trial scored"]);
    await shared.dispose();
    const [hung] = await hanging;
    expect(hung).toMatchObject({ verdict: "error", message: "evaluator infrastructure failure: the sandbox was disposed" });
    expect(events).toEqual(["other trial scored", "hanging trial scored"]);
  }, 60_000);
});

describe("runStaticCheck", () => {
  it("compiles once per spec object and stays correct across trials", () => {
    const spec = { kind: "exact", expected: "a" };
    expect(runStaticCheck(spec, { output: "a" }).verdict).toBe("passed");
    expect(runStaticCheck(spec, { output: "b" }).verdict).toBe("failed");
    expect(compileStaticCheck(spec)({ output: "a" }).verdict).toBe("passed");
  });

  it("refuses custom and judge specs with an error", () => {
    expect(runStaticCheck({ kind: "custom", code: "function evaluate(){}" }, { output: "" })).toMatchObject({
      verdict: "error",
      message: '"custom" is not a static evaluator: run it with runChecks',
    });
  });
});

describe("validateEvaluatorSpecsDeep", () => {
  it("adds sandbox problems for custom code", async () => {
    const sandbox = await createSandbox({ isolation: "in-process" });
    const problems = await validateEvaluatorSpecsDeep(
      [
        { kind: "custom", code: "function evaluate( {" },
        { kind: "custom", code: "const x = 1; // evaluate later" },
        { kind: "custom", code: "function evaluate() { return true }" },
        { kind: "exact", expected: "" },
      ],
      undefined,
      sandbox,
    );
    expect(problems).toEqual([
      { index: 3, field: "expected", message: "expected is empty: give the text the output must match" },
      { index: 0, field: "code", message: expect.stringMatching(/^the code has a syntax error: SyntaxError/) },
      { index: 1, field: "code", message: "the code does not define a function named evaluate (evaluate is not defined)" },
    ]);
    await sandbox.dispose();
  });
});

describe("public API", () => {
  it("exports the entry points", () => {
    for (const name of [
      "runChecks",
      "runStaticCheck",
      "validateEvaluatorSpecs",
      "describeEvaluator",
      "normalizeToolCalls",
      "bfclGroundTruthToSpec",
      "codeHash",
      "createSandbox",
      "runJudgeCheck",
      "buildJudgePrompt",
      "extractJsonObject",
    ])
      expect(typeof (api as Record<string, unknown>)[name]).toBe("function");
    expect(api.evaluatorSpecSchema.safeParse({ kind: "non_empty" }).success).toBe(true);
  });
});
