import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EvaluatorInput, FunctionEvaluatorRef } from "@/lib/suite/types";
import { bundleEvaluate } from "./evaluate-bundle";
import { createFunctionSandbox, FunctionEvaluatorPool, FUNCTION_EVALUATOR_TIMEOUT_MS } from "./function-evaluator";

const root = mkdtempSync(path.join(tmpdir(), "benchwork-fn-eval-"));
mkdirSync(path.join(root, "evals"));
writeFileSync(path.join(root, "evals/helpers.ts"), `export const WANT_SCORE = 0.25;\nexport const same = (a: string, b?: string) => a === b;\n`);
writeFileSync(
  path.join(root, "evals/e.ts"),
  `import { WANT_SCORE, same } from "./helpers";
interface In { output: string; caseData: { want?: string } | null }
export default {
  id: "x",
  evaluate({ output, caseData }: In) {
    console.log("comparing", output);
    return { passed: same(output, caseData?.want), score: same(output, caseData?.want) ? 1 : WANT_SCORE, message: "compared", details: { output } };
  },
  cases: [
    { evaluate: () => { throw new Error("boom"); } },
    { evaluate: () => { for (;;) {} } },
    { evaluate: ({ output }: { output: string }) => new ArrayBuffer(Number(output) * 1024 * 1024).byteLength > 0 },
    { evaluate: () => ({ passed: true, details: { big: BigInt(1) } }) },
    { evaluate: async () => { await Promise.resolve(); return true; } },
  ],
};
`,
);

const code = new Map<string, string>();
async function ref(exportPath: string): Promise<FunctionEvaluatorRef> {
  const r = await bundleEvaluate(root, "evals/e.ts", exportPath);
  if (!r.ok) throw new Error(r.message);
  code.set(r.bundle.sha256, r.bundle.code);
  return { module: "evals/e.ts", exportPath, source: "", sha256: r.bundle.sha256, files: r.bundle.files };
}
const input = (output: string, want = "ok"): EvaluatorInput => ({
  output,
  caseData: { want },
  toolCalls: [],
  normalizedToolCalls: [],
  finishReason: "stop",
  usage: null,
});

// Calls that should succeed get the default deadline (5 s), far beyond what they need on a busy
// machine; only the overrun check uses a pool with a short one.
const pool = new FunctionEvaluatorPool({ code });
const strict = new FunctionEvaluatorPool({ code, timeoutMs: 300 });
afterAll(async () => {
  await pool.close();
  await strict.close();
});

describe("FunctionEvaluatorPool (QuickJS sandbox)", () => {
  it("runs a compiled evaluate with its helpers, returning its value and console output", async () => {
    const evaluate = await ref("evaluate");
    expect(evaluate.files).toEqual(["evals/e.ts", "evals/helpers.ts"]);
    expect(await pool.run(evaluate, input("ok"))).toMatchObject({
      ok: true,
      value: { passed: true, score: 1, message: "compared", details: { output: "ok" } },
      logs: ["comparing ok"],
    });
    expect(await pool.run(evaluate, input("no"))).toMatchObject({ ok: true, value: { passed: false, score: 0.25 } });
    expect(await pool.run(await ref("cases[4].evaluate"), input("x"))).toMatchObject({ ok: true, value: true });
    expect(FUNCTION_EVALUATOR_TIMEOUT_MS).toBe(5_000);
  }, 30_000);

  it("reports a throw, an overrun deadline, the memory cap and a result that is not JSON as failures", async () => {
    expect(await pool.run(await ref("cases[0].evaluate"), input("x"))).toMatchObject({ ok: false, failure: "crash", message: "evaluate threw Error: boom" });
    expect(await strict.run(await ref("cases[1].evaluate"), input("x"))).toMatchObject({ ok: false, failure: "timeout", message: "timed out after 300 ms" });
    // The memory cap is 64 MiB: 40 MiB fit, 100 MiB do not.
    expect(await pool.run(await ref("cases[2].evaluate"), input("40"))).toMatchObject({ ok: true, value: true });
    expect(await pool.run(await ref("cases[2].evaluate"), input("100"))).toMatchObject({ ok: false, failure: "memory" });
    expect(await pool.run(await ref("cases[3].evaluate"), input("x"))).toMatchObject({ ok: false, failure: "unserializable" });
    // The sandbox serves the next call after each failure.
    expect(await pool.run(await ref("evaluate"), input("ok"))).toMatchObject({ ok: true });
  }, 30_000);

  it("refuses a function the release has no compiled script for", async () => {
    const missing = { ...(await ref("evaluate")), sha256: "0".repeat(64) };
    expect(await pool.run(missing, input("ok"))).toMatchObject({
      ok: false,
      failure: "load",
      message: "no compiled script for this function in the release (compile again)",
    });
  }, 30_000);

  it("starts the deadline when the call reaches the sandbox, not while the sandbox starts", async () => {
    const evaluate = await ref("evaluate");
    let release: () => void = () => {};
    const started = new Promise<void>((resolve) => (release = resolve));
    const slowStart = new FunctionEvaluatorPool({ code, timeoutMs: 200, sandbox: async () => (await started, createFunctionSandbox()) });
    try {
      const call = slowStart.run(evaluate, input("ok"));
      // The sandbox becomes ready well after the call's 200 ms deadline would have passed.
      setTimeout(release, 600);
      expect(await call).toMatchObject({ ok: true, value: { passed: true } });
    } finally {
      await slowStart.close();
    }
  }, 30_000);
});
