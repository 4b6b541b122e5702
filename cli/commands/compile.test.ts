import { describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Release } from "@/lib/suite/types";
import { main } from "../main";
import { captureIo } from "../testing";

const EXAMPLE = path.resolve("examples/support-tool-use");
const dir = mkdtempSync(path.join(tmpdir(), "benchwork-compile-cli-"));

async function compile(args: string[]) {
  const io = captureIo();
  const code = await main(["compile", ...args], io);
  return { code, out: io.stdout.join("\n"), err: io.stderr.join("\n") };
}

/** A copy of the example that a test may edit (node_modules linked so `ai` and `zod` resolve). */
function copyExample(): string {
  const copy = mkdtempSync(path.join(tmpdir(), "benchwork-example-"));
  cpSync(EXAMPLE, copy, { recursive: true });
  symlinkSync(path.resolve("node_modules"), path.join(copy, "node_modules"), "dir");
  return copy;
}

describe("benchwork compile", () => {
  it("compiles the example into a frozen release: every case with id, prompt, system prompt, tools, evaluator, data and source", async () => {
    const out = path.join(dir, "release.json");
    const r = await compile([EXAMPLE, "--out", out]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("compiled Support tool use 1.0.0: 27 cases from 4 evals, 2 tools");
    expect(r.out).toContain("  policy-questions (evals/policy-questions.ts, evals/policy-questions.csv): 4 cases");
    const release = JSON.parse(readFileSync(out, "utf8")) as Release;
    expect(release).toMatchObject({ format: "benchwork.release", protocolVersion: 1, title: "Support tool use", version: "1.0.0", license: "Apache-2.0" });
    expect(release.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.out).toContain(`release ${release.contentHash} → ${out}`);
    expect(release.cases).toHaveLength(27);
    expect(release.cases.find((c) => c.id === "policy-lookup")).toMatchObject({
      prompt: "Find the return policy for unopened items.",
      systemPrompt: "You are a support agent. Look policies up with your tools before answering.",
      tools: ["lookup_policy"],
      evaluators: [
        {
          kind: "tool_call_syntax",
          version: 1,
          alternatives: [
            {
              calls: [{ toolName: "lookup_policy", arguments: { topic: { required: true, acceptedValues: ["returns"] } }, extraArguments: "forbid" }],
              extraCalls: "forbid",
            },
          ],
        },
      ],
      source: { module: "evals/policy-lookup.ts", file: "evals/policy-lookup.ts" },
    });
    expect(release.cases.find((c) => c.id === "late-order")).toMatchObject({
      data: { expectedOrderId: "order_456", expectedEligible: false },
      evaluatorFunction: { module: "evals/refund-decision.ts", exportPath: "evaluate" },
      hasSetup: true,
      hasTeardown: true,
      labels: ["tools", "edge"],
    });
    expect(release.cases.find((c) => c.id === "policy-questions[3]")).toMatchObject({
      expected: "one-year",
      evaluators: [{ kind: "contains", ignoreCase: true }],
      source: { file: "evals/policy-questions.csv", row: 4 },
    });
    expect(release.cases.find((c) => c.id === "gsm8k-test-0019")).toMatchObject({
      expected: "6",
      evaluators: [{ kind: "gsm8k" }],
      timeoutSeconds: 60,
      source: { file: "data/gsm8k-test-first20.jsonl", row: 20, line: 20 },
    });
  }, 60_000);

  it("gives the same release, byte for byte, when compiled twice", async () => {
    const a = path.join(dir, "a.json");
    const b = path.join(dir, "b.json");
    expect((await compile([EXAMPLE, "--out", a])).code).toBe(0);
    expect((await compile([path.join(EXAMPLE, "benchmark.config.ts"), "--out", b, "--json"])).code).toBe(0);
    expect(readFileSync(b, "utf8")).toBe(readFileSync(a, "utf8"));
  }, 60_000);

  it("exits 1 listing every problem with its file and row", async () => {
    const copy = copyExample();
    writeFileSync(path.join(copy, "evals/policy-questions.csv"), "id,prompt,expected\nunopened,a,b\nholiday,c,\n");
    writeFileSync(
      path.join(copy, "evals/policy-lookup.ts"),
      `export default { id: "policy-lookup", prompt: "p", tools: ["refund_money"], evaluate: { kind: "non_empty" } };\n`,
    );
    writeFileSync(path.join(copy, "data/gsm8k-test-first20.jsonl"), '{"id":"unopened","prompt":"p","expected":"1"}\n');
    const r = await compile([copy, "--out", path.join(dir, "never.json")]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("benchwork: the benchmark does not compile (3 problems):");
    expect(r.err).toContain('  evals/policy-lookup.ts: the eval: unknown tool "refund_money" (the tools modules define lookup_policy, get_order)');
    expect(r.err).toContain(
      '  evals/policy-questions.csv row 2 (line 3): case "holiday": evaluate.expected: expected is missing: set it on the evaluator or give the case an expected result',
    );
    expect(r.err).toContain(
      '  data/gsm8k-test-first20.jsonl row 1 (line 1): duplicate case id "unopened": used by evals/policy-questions.csv row 1 and by data/gsm8k-test-first20.jsonl row 1',
    );
  }, 60_000);

  it("exits 2 without a config", async () => {
    const r = await compile([dir]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no benchmark\.config\.ts/);
  });
});
