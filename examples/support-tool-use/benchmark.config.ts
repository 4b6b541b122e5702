// The entry point of this benchmark repository (read by `benchwork compile | run | publish`).
// Paths are relative to this file. No model is set here: pass one on the command line
// (`--model NAME`, or `--provider openai-compatible --base-url URL --model-id ID`), or add
// `model: { provider: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1", modelId: "llama3.1" }`.
export default {
  protocolVersion: 1,
  title: "Support tool use",
  version: "1.0.0",
  license: "Apache-2.0",
  description: "A support agent that must look things up before answering, plus a GSM8K slice.",
  tools: ["tools/support-api.ts"],
  evals: ["evals/policy-lookup.ts", "evals/refund-decision.ts", "evals/policy-questions.ts", "evals/gsm8k.ts"],
};
