// Grade-school maths over a JSONL slice: the first 20 problems of the GSM8K test split
// (data/gsm8k-test-first20.jsonl; GSM8K, Cobbe et al. 2021, MIT License, Copyright (c) 2021 OpenAI —
// see ../NOTICE.md). Each line is a case { id, prompt, expected }; the gsm8k check reads the number
// after the model's last "####" and compares it with `expected`.
export default {
  id: "gsm8k",
  title: "GSM8K (first 20 test problems)",
  systemPrompt: "Solve the problem step by step. End with a final line of the form #### <number>.",
  labels: ["math"],
  timeoutSeconds: 60,
  evaluate: { kind: "gsm8k" },
  cases: "../data/gsm8k-test-first20.jsonl",
};
