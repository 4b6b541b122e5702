import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customEvaluatorInput, interpretCustomResult, MAX_CUSTOM_MESSAGE, runCustomCheck } from "./custom";
import { codeHash } from "./hash";
import { createSandbox, type CustomEvaluatorSandbox } from "./sandbox";
import type { EvaluationTrial } from "./types";

/** The refund-decision evaluator from the eval-case reference, as a case author would write it. */
const REFUND_CODE = `
function evaluate({ output, caseData, toolCalls }) {
  let answer
  try {
    answer = JSON.parse(output)
  } catch {
    return { passed: false, score: 0, message: "The final answer was not valid JSON." }
  }
  const usedExpectedTool = toolCalls.some(
    (call) => call.toolName === "get_order" && call.input?.orderId === caseData.expectedOrderId
  )
  const answerIsCorrect = answer.orderId === caseData.expectedOrderId && answer.eligible === caseData.expectedEligible
  return {
    passed: usedExpectedTool && answerIsCorrect,
    score: Number(usedExpectedTool) * 0.5 + Number(answerIsCorrect) * 0.5,
    message: usedExpectedTool && answerIsCorrect ? null : "The answer or supporting tool call was incorrect.",
    details: { usedExpectedTool, answerIsCorrect },
  }
}`;

const refundTrial = (output: string, orderId = "order_123"): EvaluationTrial => ({
  output,
  caseData: { expectedOrderId: "order_123", expectedEligible: true },
  toolCalls: [{ type: "tool-call", toolCallId: "t1", toolName: "get_order", input: { orderId } }],
  finishReason: "stop",
  usage: { inputTokens: 120, outputTokens: 18 },
});

describe("custom evaluators", () => {
  let sb: CustomEvaluatorSandbox;
  beforeAll(async () => {
    // A deadline no healthy call reaches on a loaded machine; the timeout case sets its own 100 ms.
    sb = await createSandbox({ timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await sb.dispose();
  });

  it("runs the refund-decision example: pass", async () => {
    const r = await runCustomCheck({ kind: "custom", code: REFUND_CODE }, refundTrial('{"orderId":"order_123","eligible":true}'), sb);
    expect(r).toMatchObject({ kind: "custom", verdict: "passed", score: 1, message: "The custom evaluator passed the trial." });
    expect(r.details).toMatchObject({ codeHash: codeHash(REFUND_CODE), isolation: "worker", evidence: { usedExpectedTool: true, answerIsCorrect: true } });
  });

  it("runs the refund-decision example: partial score", async () => {
    const r = await runCustomCheck({ kind: "custom", code: REFUND_CODE }, refundTrial('{"orderId":"order_123","eligible":true}', "order_999"), sb);
    expect(r).toMatchObject({ verdict: "failed", score: 0.5, message: "The answer or supporting tool call was incorrect." });
  });

  it("runs the refund-decision example: invalid JSON", async () => {
    const r = await runCustomCheck({ kind: "custom", code: REFUND_CODE }, refundTrial("not json"), sb);
    expect(r).toMatchObject({ verdict: "failed", score: 0, message: "The final answer was not valid JSON." });
  });

  it("passes the whole trial, with normalised tool calls", async () => {
    const code = "function evaluate(t) { return { passed: true, details: t } }";
    const trial: EvaluationTrial = {
      output: "hi",
      caseData: { k: 1 },
      toolCalls: [{ id: "c1", type: "function", function: { name: "search", arguments: '{"q":"x"}' } }],
      finishReason: "tool-calls",
      usage: { inputTokens: 5, outputTokens: 2 },
      context: { input: "question", expected: "answer" },
    };
    const r = await runCustomCheck({ kind: "custom", code }, trial, sb);
    expect(r.details?.evidence).toEqual({
      output: "hi",
      caseData: { k: 1 },
      toolCalls: [{ id: "c1", type: "function", function: { name: "search", arguments: '{"q":"x"}' } }],
      normalizedToolCalls: [{ toolName: "search", input: { q: "x" } }],
      finishReason: "tool-calls",
      usage: { inputTokens: 5, outputTokens: 2 },
      input: "question",
      expected: "answer",
    });
    expect(customEvaluatorInput({ output: null }).output).toBe("");
  });

  it.each([
    ["throw", "function evaluate() { throw new Error('boom') }", "evaluator infrastructure failure: evaluate threw Error: boom"],
    ["timeout", "function evaluate() { for (;;) {} }", "evaluator infrastructure failure: timed out after 100 ms"],
    [
      "string result",
      "function evaluate() { return 'yes' }",
      'evaluator infrastructure failure: evaluate returned a string ("yes"); expected a boolean or an object',
    ],
    ["number result", "function evaluate() { return 1 }", "evaluator infrastructure failure: evaluate returned a number (1)"],
    ["undefined result", "function evaluate() {}", "evaluator infrastructure failure: evaluate returned nothing (undefined)"],
    [
      "no passed",
      "function evaluate() { return { score: 1 } }",
      'evaluator infrastructure failure: evaluate returned an object with keys "score" whose "passed" is missing',
    ],
    ["passed not boolean", "function evaluate() { return { passed: 'true' } }", 'whose "passed" is a string ("true")'],
    [
      "score out of range",
      "function evaluate() { return { passed: true, score: 2 } }",
      "evaluator infrastructure failure: evaluate returned score a number (2); the score must be a number from 0 to 1",
    ],
    ["score not a number", "function evaluate() { return { passed: true, score: '1' } }", "the score must be a number from 0 to 1"],
    ["message not a string", "function evaluate() { return { passed: true, message: 5 } }", "the message must be a string"],
    ["array result", "function evaluate() { return [true] }", "evaluate returned an array"],
    ["missing evaluate", "function judge() { return true }", "evaluator infrastructure failure: the code does not define a function named evaluate"],
    ["syntax error", "function evaluate( {", "evaluator infrastructure failure: the code could not be compiled: SyntaxError"],
  ])("%s is an infrastructure error, never a model failure", async (_name, code, message) => {
    const r = await runCustomCheck({ kind: "custom", code }, { output: "x" }, sb, _name === "timeout" ? { timeoutMs: 100 } : {});
    expect(r.verdict).toBe("error");
    expect(r.score).toBe(0);
    expect(r.message).toContain(message);
    expect(r.details?.codeHash).toBe(codeHash(code));
  });

  it("records logs and the code hash", async () => {
    const code = "function evaluate({ output }) { console.log('checking', output); return output === 'x' }";
    const r = await runCustomCheck({ kind: "custom", name: "is x", code }, { output: "x" }, sb);
    expect(r).toMatchObject({ verdict: "passed", message: "The custom evaluator returned true." });
    expect(r.details).toMatchObject({ logs: ["checking x"], name: "is x", codeHash: codeHash(code) });
    expect(typeof r.details?.durationMs).toBe("number");
  });

  it("cuts a huge message, returned or thrown, and says so (a 5 MB throw was kept whole)", async () => {
    const returned = interpretCustomResult({ passed: false, message: "m".repeat(5_000) }, {});
    expect(returned.message).toBe(`${"m".repeat(MAX_CUSTOM_MESSAGE)}… [truncated, 5,000 characters]`);
    const thrown = await runCustomCheck({ kind: "custom", code: "function evaluate() { throw new Error('x'.repeat(5 * 1024 * 1024)) }" }, { output: "x" }, sb, {
      timeoutMs: 20_000,
    });
    expect(thrown.verdict).toBe("error");
    expect(thrown.message.length).toBeLessThan(MAX_CUSTOM_MESSAGE + 100);
    expect(thrown.message.slice(0, 60)).toBe("evaluator infrastructure failure: evaluate threw Error: xxxx");
    expect(thrown.message.slice(-40)).toMatch(/… \[truncated, 5,242,\d{3} characters\]$/);
  });

  it("interpretCustomResult keeps user messages and clips huge details", () => {
    expect(interpretCustomResult({ passed: false, message: "nope", score: null }, {})).toMatchObject({ verdict: "failed", score: 0, message: "nope" });
    const big = interpretCustomResult({ passed: true, details: { s: "x".repeat(70_000) } }, {});
    expect(big.details?.evidence).toMatchObject({ truncated: true });
  });
});

describe("codeHash", () => {
  it("is the SHA-256 hex of the UTF-8 code", () => {
    expect(codeHash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(codeHash("é")).toBe("4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
    expect(codeHash("function evaluate(){}")).not.toBe(codeHash("function evaluate(){} "));
  });
});
