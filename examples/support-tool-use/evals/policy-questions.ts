// One eval, many cases: each row of policy-questions.csv becomes a case. CSV rows may only use the
// columns id, prompt, expected and description, with an eval-level non_empty, exact or contains check.
export default {
  id: "policy-questions",
  title: "Policy questions",
  systemPrompt: "Answer with the policy duration. Look the policy up first.",
  tools: ["lookup_policy"],
  labels: ["policy"],
  evaluate: { kind: "contains", ignoreCase: true },
  cases: "./policy-questions.csv",
};
