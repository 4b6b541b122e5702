// A static case: the model must look up the return policy with lookup_policy({ topic: "returns" }),
// with no other argument and no other call. The tools field only makes the tool available; the
// evaluator is what requires the call.
export default {
  id: "policy-lookup",
  title: "Policy lookup",
  systemPrompt: "You are a support agent. Look policies up with your tools before answering.",
  prompt: "Find the return policy for unopened items.",
  tools: ["lookup_policy"],
  labels: ["tools", "smoke"],
  evaluate: {
    kind: "tool_call_syntax",
    version: 1,
    alternatives: [
      {
        order: "unordered",
        calls: [
          {
            toolName: "lookup_policy",
            arguments: { topic: { required: true, acceptedValues: ["returns"] } },
            extraArguments: "forbid",
          },
        ],
        extraCalls: "forbid",
      },
    ],
  },
};
