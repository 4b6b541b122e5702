// A dynamic case: a custom evaluator function parses the JSON answer and checks the get_order call.
// `benchwork` bundles it with what it uses (not the tools module that setup seeds) and runs it in
// a QuickJS sandbox: no file system, network or environment, a 5-second deadline. A crash, a
// timeout or an invalid result is reported as an evaluator infrastructure error, not as a model
// failure. The `details` it returns appear in the JSON results (`evaluatorDetails`) and with -v.
import { orders } from "../tools/support-api";

interface RefundData {
  expectedOrderId: string;
  expectedEligible: boolean;
}

interface EvaluatorInput {
  output: string;
  caseData: Record<string, unknown> | null;
  toolCalls: readonly unknown[];
}

/** Each case seeds its order before it runs and removes it afterwards. */
function seed(orderId: string, status: string, eligible: boolean) {
  return {
    setup: () => {
      orders.set(orderId, { status, eligible });
      return orderId;
    },
    teardown: (id: unknown) => {
      orders.delete(String(id));
    },
  };
}

export default {
  id: "refund-decision",
  title: "Refund decision",
  systemPrompt: "Use account data before making a refund decision. Answer with JSON only.",
  tools: ["get_order"],
  labels: ["tools"],
  cases: [
    {
      id: "delivered-order",
      prompt: "Check order order_123 and return JSON with orderId and eligible.",
      data: { expectedOrderId: "order_123", expectedEligible: true },
      ...seed("order_123", "delivered", true),
    },
    {
      id: "late-order",
      prompt: "Check order order_456 and return JSON with orderId and eligible.",
      data: { expectedOrderId: "order_456", expectedEligible: false },
      labels: ["edge"],
      ...seed("order_456", "delivered 45 days ago", false),
    },
  ],
  evaluate({ output, caseData, toolCalls }: EvaluatorInput) {
    const data = caseData as unknown as RefundData;
    let answer: { orderId?: unknown; eligible?: unknown };
    try {
      answer = JSON.parse(output);
    } catch {
      return { passed: false, score: 0, message: "The final answer was not valid JSON." };
    }
    const usedExpectedTool = toolCalls.some((call) => {
      const c = call as { toolName?: string; input?: { orderId?: unknown } };
      return c.toolName === "get_order" && c.input?.orderId === data.expectedOrderId;
    });
    const answerIsCorrect = answer.orderId === data.expectedOrderId && answer.eligible === data.expectedEligible;
    return {
      passed: usedExpectedTool && answerIsCorrect,
      score: Number(usedExpectedTool) * 0.5 + Number(answerIsCorrect) * 0.5,
      message: usedExpectedTool && answerIsCorrect ? null : "The answer or the supporting get_order call was incorrect.",
      details: { usedExpectedTool, answerIsCorrect },
    };
  },
};
