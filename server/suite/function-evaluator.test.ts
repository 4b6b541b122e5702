import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { FunctionEvaluatorPool, FUNCTION_EVALUATOR_TIMEOUT_MS } from "./function-evaluator";
import type { EvaluatorInput } from "@/lib/suite/types";

const root = mkdtempSync(path.join(tmpdir(), "benchwork-fn-eval-"));
writeFileSync(
  path.join(root, "evals.ts"),
  `interface In { output: string; caseData: { want?: string } | null }
export default {
  id: "x",
  evaluate({ output, caseData }: In) {
    return { passed: output === caseData?.want, score: output === caseData?.want ? 1 : 0.25, message: "compared" };
  },
  cases: [
    { evaluate: () => ({ passed: Object.keys(process.env).length === 0, details: { keys: Object.keys(process.env) } }) },
    { evaluate: () => { throw new Error("boom"); } },
    { evaluate: () => { for (;;) {} } },
    { evaluate: () => () => 1 },
    { evaluate: async () => { await new Promise((r) => setTimeout(r, 5)); return true; } },
    { evaluate: () => process.exit(3) },
  ],
};
`,
);
writeFileSync(path.join(root, "broken.ts"), "export default { evaluate( {\n");

const input = (output: string, want = "ok"): EvaluatorInput => ({ output, caseData: { want }, toolCalls: [], normalizedToolCalls: [], finishReason: "stop", usage: null });
const ref = (exportPath: string, sha256 = "") => ({ module: "evals.ts", exportPath, source: "", sha256 });

// Calls that should succeed get the default deadline (5 s), far beyond what they need on a busy
// machine; only the overrun test uses a pool with a short one.
const pool = new FunctionEvaluatorPool({ root });
afterAll(() => pool.close());

describe("FunctionEvaluatorPool", () => {
  it("runs an evaluate function from a TypeScript eval module in a worker and returns its value", async () => {
    expect(await pool.run(ref("evaluate"), input("ok"))).toMatchObject({ ok: true, value: { passed: true, score: 1, message: "compared" } });
    expect(await pool.run(ref("evaluate"), input("no"))).toMatchObject({ ok: true, value: { passed: false, score: 0.25 } });
    expect(await pool.run(ref("cases[4].evaluate"), input("x"))).toMatchObject({ ok: true, value: true });
    expect(FUNCTION_EVALUATOR_TIMEOUT_MS).toBe(5_000);
  }, 30_000);

  it("gives the function an empty environment", async () => {
    process.env.BENCHWORK_TEST_SECRET = "sk-do-not-leak";
    try {
      expect(await pool.run(ref("cases[0].evaluate"), input("x"))).toMatchObject({ ok: true, value: { passed: true, details: { keys: [] } } });
    } finally {
      delete process.env.BENCHWORK_TEST_SECRET;
    }
  }, 30_000);

  it("reports a throw as a crash", async () => {
    expect(await pool.run(ref("cases[1].evaluate"), input("x"))).toMatchObject({ ok: false, failure: "crash", message: "evaluate threw Error: boom" });
  }, 30_000);

  it("stops a function that overruns its deadline and serves the next call on a fresh thread", async () => {
    const strict = new FunctionEvaluatorPool({ root, timeoutMs: 300 });
    try {
      expect(await strict.run(ref("cases[2].evaluate"), input("x"))).toMatchObject({ ok: false, failure: "timeout", message: "evaluate did not finish within 300 ms (the worker thread was stopped)" });
      expect(strict.threadsStarted).toBe(1);
      // The fresh thread loads the module and answers; this answer comes before any call deadline
      // starts (a call that runs would race the 300 ms deadline on a busy machine).
      expect(await strict.run(ref("cases[9].evaluate"), input("ok"))).toMatchObject({ ok: false, failure: "load", message: "cases[9].evaluate is not a function in the module's default export" });
      expect(strict.threadsStarted).toBe(2);
    } finally {
      await strict.close();
    }
  }, 30_000);

  it("reports a result that cannot leave the worker, and a thread that exits", async () => {
    const fn = await pool.run(ref("cases[3].evaluate"), input("x"));
    expect(fn).toMatchObject({ ok: false, failure: "crash" });
    expect(fn.ok ? "" : fn.message).toMatch(/cannot be copied out of the worker/);
    expect(await pool.run(ref("cases[5].evaluate"), input("x"))).toMatchObject({ ok: false, failure: "crash", message: "the evaluator worker stopped: exit code 3" });
    expect(await pool.run(ref("evaluate"), input("ok"))).toMatchObject({ ok: true });
  }, 30_000);

  it("refuses a function that changed since compile, a missing export and a module that does not load", async () => {
    expect(await pool.run(ref("evaluate", "0".repeat(64)), input("ok"))).toMatchObject({ ok: false, failure: "changed" });
    expect(await pool.run(ref("cases[9].evaluate"), input("ok"))).toMatchObject({ ok: false, failure: "load", message: "cases[9].evaluate is not a function in the module's default export" });
    const broken = await pool.run({ module: "broken.ts", exportPath: "evaluate", source: "", sha256: "" }, input("ok"));
    expect(broken).toMatchObject({ ok: false, failure: "load" });
    expect(broken.ok ? "" : broken.message).toMatch(/^the eval module could not be loaded/);
  }, 30_000);

  it("accepts a function whose source hash matches", async () => {
    // The worker hashes String(fn) as jiti loads it; load it the same way here.
    const { createJiti } = await import("jiti");
    const mod = (await createJiti(import.meta.url, { moduleCache: false, fsCache: false, interopDefault: false }).import(path.join(root, "evals.ts"))) as { default: { evaluate: unknown } };
    const sha = createHash("sha256").update(String(mod.default.evaluate), "utf8").digest("hex");
    expect(await pool.run(ref("evaluate", sha), input("ok"))).toMatchObject({ ok: true, value: { passed: true } });
  }, 30_000);
});
