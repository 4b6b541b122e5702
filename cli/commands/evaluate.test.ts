import { describe, expect, it } from "vitest";
import path from "node:path";
import { migrateDatabase, openDatabase } from "@/db/client";
import { createModelConfig } from "@/db/queries/models";
import { main } from "../main";
import { captureIo, tempFiles } from "../testing";

describe("benchwork evaluate", () => {
  const dir = tempFiles({
    "spec.json": [
      { kind: "gsm8k", marker: "A:" },
      { kind: "exact", expected: "A: 19" },
      { kind: "custom", code: "function evaluate({ output }) { return { passed: output.endsWith('18'), score: 0.5, message: 'ends with 18' } }" },
    ],
    "one.json": { kind: "non_empty" },
    "trial.json": { output: "9 * 2 = 18\nA: 18", expected: "18" },
    "tools.json": [
      { kind: "tool_call_syntax", alternatives: [{ calls: [{ toolName: "get_order", arguments: { orderId: { acceptedValues: ["order_123"] } } }] }] },
    ],
    "tool-trial.json": { output: "", toolCalls: [{ toolName: "get_order", input: '{"orderId":"order_123"}' }] },
    "bad-spec.json": [{ kind: "answer_bank", answers: [] }],
    "broken.json": "{ not json",
    "bad-trial.json": { output: 5 },
  });
  const f = (n: string) => path.join(dir, n);

  it("prints every check with its verdict and exits 0 whatever the verdicts", async () => {
    const io = captureIo();
    expect(await main(["evaluate", "--spec", f("spec.json"), "--trial", f("trial.json")], io)).toBe(0);
    expect(io.stdout[0]).toMatch(/^PASSED\s+1\.00\s+GSM8K/);
    expect(io.stdout.some((l) => /^FAILED\s+0\.00\s+Exact/.test(l))).toBe(true);
    expect(io.stdout.at(-1)).toBe("3 checks: 2 passed, 1 failed, 0 unscored, 0 error");
  });

  it("--json prints one object with the results", async () => {
    const io = captureIo();
    expect(await main(["evaluate", "--spec", f("spec.json"), "--trial", f("trial.json"), "--json"], io)).toBe(0);
    const out = JSON.parse(io.stdout.join("\n")) as { results: { kind: string; verdict: string; score: number; message: string }[] };
    expect(out.results.map((r) => [r.kind, r.verdict, r.score])).toEqual([
      ["gsm8k", "passed", 1],
      ["exact", "failed", 0],
      ["custom", "passed", 0.5],
    ]);
    expect(out.results[2].message).toBe("ends with 18");
  });

  it("accepts a single declaration and tool calls sent as JSON strings", async () => {
    const io = captureIo();
    expect(await main(["evaluate", "--spec", f("tools.json"), "--trial", f("tool-trial.json"), "--json"], io)).toBe(0);
    expect(JSON.parse(io.stdout.join("\n")).results[0].verdict).toBe("passed");
    const one = captureIo();
    expect(await main(["evaluate", "--spec", f("one.json"), "--trial", f("tool-trial.json")], one)).toBe(0);
    expect(one.stdout[0]).toMatch(/^FAILED/);
  });

  it("exits 2 on usage and spec errors, naming the file and field", async () => {
    const cases: [string[], RegExp][] = [
      [["evaluate", "--trial", f("trial.json")], /required option '--spec/],
      [["evaluate", "--spec", f("missing.json"), "--trial", f("trial.json")], /missing\.json: cannot be read/],
      [["evaluate", "--spec", f("broken.json"), "--trial", f("trial.json")], /broken\.json: not valid JSON/],
      [["evaluate", "--spec", f("bad-spec.json"), "--trial", f("trial.json")], /evaluator 1 \(answers\): the answer bank is empty/],
      [["evaluate", "--spec", f("spec.json"), "--trial", f("bad-trial.json")], /output: trial\.output must be a string/],
      [["frobnicate"], /unknown command/],
    ];
    for (const [argv, message] of cases) {
      const io = captureIo();
      expect(await main(argv, io), argv.join(" ")).toBe(2);
      expect(io.stderr.join("\n")).toMatch(message);
    }
  });

  it("--judge-model with a stored key variable the key policy refuses: exit 2 naming the rule", async () => {
    const file = path.join(dir, "judge.db");
    const db = openDatabase(file);
    migrateDatabase(db);
    await createModelConfig(db, {
      name: "old judge",
      provider: "openai-compatible",
      modelId: "m",
      baseUrl: "http://127.0.0.1:9/v1",
      apiKeyEnv: "BENCHWORK_DB",
    });
    db.$client.close();
    const saved = process.env.BENCHWORK_DB;
    process.env.BENCHWORK_DB = file;
    try {
      const io = captureIo();
      expect(await main(["evaluate", "--spec", f("one.json"), "--trial", f("trial.json"), "--judge-model", "old judge"], io)).toBe(2);
      expect(io.stderr.join("\n")).toMatch(/^benchwork: --judge-model: BENCHWORK_DB is not an allowed API key variable/);
    } finally {
      if (saved === undefined) delete process.env.BENCHWORK_DB;
      else process.env.BENCHWORK_DB = saved;
    }
  });
});
