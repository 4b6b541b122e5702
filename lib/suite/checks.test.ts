import { describe, expect, it } from "vitest";
import { textModel } from "@/lib/runtime/test-support/mock-model";
import { normalizeTrialToolCalls, type TrialRecord } from "@/lib/runtime/trial-record";
import { createChecker, judgeSpecOf, reliabilitySpecOf, type FunctionEvaluatorRunner } from "./checks";
import { releaseCase } from "./testing";
import type { ReleaseCase } from "./types";

const judgeModel = (answer: unknown) => textModel(JSON.stringify(answer));

function rc(more: Partial<ReleaseCase> = {}): ReleaseCase {
  return releaseCase({ prompt: "Check order order_123", tools: ["get_order", "lookup_policy"], data: { expectedOrderId: "order_123" }, ...more });
}

const trial: TrialRecord = {
  output: '{"orderId":"order_123","eligible":true}',
  toolCalls: [{ toolCallId: "1", toolName: "get_order", input: { orderId: "order_123" } }],
  normalizedToolCalls: [{ toolName: "get_order", input: { orderId: "order_123" }, toolCallId: "1" }],
  toolResults: [],
  steps: [],
  finishReason: "stop",
  usage: { inputTokens: 5, outputTokens: 7 },
  latencyMs: 1,
  renderedMessages: [],
};

const fnRef = { module: "evals/e.ts", exportPath: "evaluate", source: "evaluate() {}", sha256: "ab".repeat(32), files: ["evals/e.ts"] };

describe("createChecker", () => {
  it("maps declarative evaluators to evaluatorPassed / score / message (the failed ones' messages)", async () => {
    const check = createChecker();
    const pass = await check(rc({ evaluators: [{ kind: "contains", expected: "order_123" }, { kind: "json" }] }), trial);
    expect(pass).toMatchObject({ evaluatorPassed: true, evaluatorScore: 1, judgePassed: null, reliabilityPassed: null, errors: [] });
    const fail = await check(
      rc({
        evaluators: [
          { kind: "contains", expected: "order_123" },
          { kind: "exact", expected: "no" },
        ],
      }),
      trial,
    );
    expect(fail.evaluatorPassed).toBe(false);
    expect(fail.evaluatorScore).toBe(0.5);
    expect(fail.evaluatorMessage).toMatch(/^The output does not match/);
    expect(fail.checks.map((c) => c.verdict)).toEqual(["passed", "failed"]);
  });

  it("uses the case's expected result for specs without their own", async () => {
    const v = await createChecker()(rc({ expected: '"eligible":true', evaluators: [{ kind: "contains" }] }), trial);
    expect(v.evaluatorPassed).toBe(true);
  });

  it("turns an invalid spec into an evaluator error, never a failure", async () => {
    const v = await createChecker()(rc({ evaluators: [{ kind: "regex", pattern: "(" }] }), trial);
    expect(v.evaluatorPassed).toBeNull();
    expect(v.errors[0]).toMatch(/^evaluator: regex: evaluator configuration error: /);
  });

  it("runs an evaluate function through the runner with the trial and reads its answer like a custom evaluator", async () => {
    let got: unknown;
    const runner: FunctionEvaluatorRunner = async (_ref, input) => {
      got = input;
      return { ok: true, value: { passed: false, score: 0.5, message: "wrong eligibility" }, durationMs: 3 };
    };
    const v = await createChecker({ functionEvaluator: runner })(rc({ evaluatorFunction: fnRef, expected: "x" }), trial);
    expect(got).toEqual({
      output: trial.output,
      caseData: { expectedOrderId: "order_123" },
      toolCalls: trial.toolCalls,
      normalizedToolCalls: [{ toolName: "get_order", input: { orderId: "order_123" } }],
      finishReason: "stop",
      usage: { inputTokens: 5, outputTokens: 7 },
      input: "Check order order_123",
      expected: "x",
    });
    expect(v).toMatchObject({ evaluatorPassed: false, evaluatorScore: 0.5, evaluatorMessage: "wrong eligibility", errors: [] });
    expect(v.checks[0]).toMatchObject({ kind: "function", details: { module: "evals/e.ts", exportPath: "evaluate", durationMs: 3 } });
  });

  it("keeps the details (evidence) an evaluate function returns in evaluatorDetails, and its console output on the check", async () => {
    const details = { usedExpectedTool: true, answerIsCorrect: false };
    const runner: FunctionEvaluatorRunner = async () => ({ ok: true, value: { passed: false, score: 0.5, details }, durationMs: 2, logs: ["parsed answer"] });
    const v = await createChecker({ functionEvaluator: runner })(rc({ evaluatorFunction: fnRef }), trial);
    expect(v).toMatchObject({ evaluatorPassed: false, evaluatorDetails: details });
    expect(v.checks[0].details).toMatchObject({ evidence: details, logs: ["parsed answer"] });
    const none = await createChecker({ functionEvaluator: async () => ({ ok: true, value: true, durationMs: 1 }) })(rc({ evaluatorFunction: fnRef }), trial);
    expect(none.evaluatorDetails).toBeNull();
    const crashed = await createChecker({
      functionEvaluator: async () => ({ ok: false, failure: "crash", message: "evaluate threw Error: x", logs: ["before the throw"] }),
    })(rc({ evaluatorFunction: fnRef }), trial);
    expect(crashed.evaluatorDetails).toBeNull();
    expect(crashed.checks[0].details).toMatchObject({ logs: ["before the throw"], failure: "crash" });
  });

  it("reports a crash, a timeout, an invalid result or a missing runner as an evaluator infrastructure error (evaluatorPassed null)", async () => {
    const cases: [FunctionEvaluatorRunner | undefined, RegExp][] = [
      [
        async () => ({ ok: false, failure: "crash", message: "evaluate threw Error: boom" }),
        /evaluator infrastructure failure: evals\/e.ts evaluate: evaluate threw Error: boom/,
      ],
      [async () => ({ ok: false, failure: "timeout", message: "evaluate did not finish within 5000 ms" }), /did not finish within 5000 ms/],
      [async () => ({ ok: true, value: "yes", durationMs: 1 }), /evaluate returned a string \("yes"\); expected a boolean or an object/],
      [async () => ({ ok: true, value: { passed: true, score: 7 }, durationMs: 1 }), /the score must be a number from 0 to 1/],
      [async () => Promise.reject(new Error("worker gone")), /worker gone/],
      [undefined, /no runner for evaluate functions/],
    ];
    for (const [runner, message] of cases) {
      const v = await createChecker(runner ? { functionEvaluator: runner } : {})(rc({ evaluatorFunction: fnRef }), trial);
      expect(v.evaluatorPassed).toBeNull();
      expect(v.errors).toHaveLength(1);
      expect(v.errors[0]).toMatch(/^evaluator: function: evaluator infrastructure failure: /);
      expect(v.errors[0]).toMatch(message);
    }
  });

  it("judges a case with its own judge model when judgeModelOf gives one, else with the default", async () => {
    const checker = createChecker({
      judgeModel: judgeModel({ reason: "Default judge.", verdict: "fail" }),
      judgeModelOf: (c) => (c.id === "own" ? judgeModel({ reason: "Case judge.", verdict: "pass" }) : undefined),
    });
    expect(await checker(rc({ id: "own", criteria: "Polite" }), trial)).toMatchObject({ judgePassed: true, judgeReason: "Judge: pass — Case judge." });
    expect(await checker(rc({ id: "other", criteria: "Polite" }), trial)).toMatchObject({ judgePassed: false, judgeReason: "Judge: fail — Default judge." });
  });

  it("judges criteria in binary and numeric mode with the judge model", async () => {
    const binary = await createChecker({ judgeModel: judgeModel({ reason: "It checked the order.", verdict: "pass" }) })(
      rc({ criteria: "Checks the order before answering" }),
      trial,
    );
    expect(binary).toMatchObject({ judgePassed: true, judgeScore: null, errors: [] });
    expect(binary.judgeReason).toContain("It checked the order.");
    const numeric = await createChecker({ judgeModel: judgeModel({ reason: "Mostly.", observable: true, score: 8 }) })(
      rc({ criteria: "Polite", judgeMode: "numeric", judgeThreshold: 9 }),
      trial,
    );
    expect(numeric).toMatchObject({ judgePassed: false, judgeScore: 8 });
    expect(numeric.judgeReason).toContain("Judge score 8/10 (passes at 9)");
  });

  it("does not guess a judge verdict without a judge model: judgePassed null and an error", async () => {
    const v = await createChecker()(rc({ criteria: "Polite" }), trial);
    expect(v.judgePassed).toBeNull();
    expect(v.errors).toEqual(["judge: not scored: no judge model configured"]);
  });

  it("checks expectedToolCalls (reliability), with or without additional calls", async () => {
    const check = createChecker();
    expect((await check(rc({ expectedToolCalls: ["get_order"] }), trial)).reliabilityPassed).toBe(true);
    expect((await check(rc({ expectedToolCalls: ["lookup_policy"] }), trial)).reliabilityPassed).toBe(false);
    const toolCalls = [...trial.toolCalls, { toolCallId: "2", toolName: "lookup_policy", input: {} }];
    const strict = { ...trial, toolCalls, normalizedToolCalls: normalizeTrialToolCalls(toolCalls) };
    expect((await check(rc({ expectedToolCalls: ["get_order"], allowAdditionalToolCalls: false }), strict)).reliabilityPassed).toBe(false);
    expect((await check(rc({ expectedToolCalls: ["get_order"], allowAdditionalToolCalls: true }), strict)).reliabilityPassed).toBe(true);
  });

  it("builds the judge and reliability specs", () => {
    expect(judgeSpecOf({ criteria: "r", judgeMode: "binary", judgeThreshold: 9 })).toEqual({ kind: "judge", criterion: { rule: "r" }, mode: "binary" });
    expect(judgeSpecOf({ criteria: "r", judgeMode: "numeric", judgeThreshold: 9 })).toEqual({
      kind: "judge",
      criterion: { rule: "r" },
      mode: "numeric",
      threshold: 9,
    });
    expect(judgeSpecOf({ criteria: null, judgeMode: "binary", judgeThreshold: 7 })).toBeNull();
    expect(reliabilitySpecOf({ expectedToolCalls: ["a"], allowAdditionalToolCalls: false })).toEqual({
      kind: "expected_tool_calls",
      names: ["a"],
      allowAdditional: false,
    });
  });
});
