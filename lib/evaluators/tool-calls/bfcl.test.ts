/**
 * BFCL ground truth → tool_call_syntax, checked on the shipped BFCL slices (test-data/README.md:
 * bfcl_v4_simple75_parallel25, recorded/bfcl_simple_python_50 and its recorded outputs).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bfclGroundTruthToSpec } from "./bfcl";
import { runStaticCheck } from "../registry";
import { validateEvaluatorSpecs } from "../validate";
import type { ToolCallSyntaxSpec } from "../spec";
import { datasetPath } from "@/test-data/datasets";

const readJsonl = (name: string) =>
  readFileSync(datasetPath(name), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

type GroundTruth = Array<Record<string, Record<string, unknown[]>>>;

/** A "perfect" answer built from ground truth: the first non-"" accepted value of each argument. */
function idealCalls(gt: GroundTruth): Array<{ name: string; arguments: Record<string, unknown> }> {
  return gt.map((entry) => {
    const [name, params] = Object.entries(entry)[0];
    const args: Record<string, unknown> = {};
    for (const [k, accepted] of Object.entries(params)) {
      const v = accepted.find((x) => x !== "");
      if (v !== undefined) args[k] = firstConcrete(v);
    }
    return { name, arguments: args };
  });
}
/** Resolves BFCL nested dicts ({k: [accepted...]}) to their first concrete value. */
function firstConcrete(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(firstConcrete);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, acc] of Object.entries(v as Record<string, unknown[]>)) {
      const x = acc.find((a) => a !== "");
      if (x !== undefined) out[k] = firstConcrete(x);
    }
    return out;
  }
  return v;
}

describe("bfclGroundTruthToSpec", () => {
  it("converts the README's conventions", () => {
    const spec = bfclGroundTruthToSpec([{ calculate_triangle_area: { base: [10], height: [5], unit: ["units", ""] } }]);
    expect(spec).toEqual({
      kind: "tool_call_syntax",
      version: 1,
      alternatives: [
        {
          order: "unordered",
          extraCalls: "forbid",
          calls: [
            {
              toolName: "calculate_triangle_area",
              extraArguments: "forbid",
              arguments: {
                base: { required: true, acceptedValues: [10] },
                height: { required: true, acceptedValues: [5] },
                unit: { required: false, acceptedValues: ["units", ""] },
              },
            },
          ],
        },
      ],
    });
  });

  it("expands nested dicts (with optional keys) into concrete values", () => {
    const spec = bfclGroundTruthToSpec([{ q: { conditions: [[{ field: ["age"], op: [">", "gt"], note: ["", "x"] }]] } }]);
    const accepted = spec.alternatives[0].calls[0].arguments!.conditions.acceptedValues;
    expect(accepted).toEqual([
      [{ field: "age", op: ">" }],
      [{ field: "age", op: ">", note: "x" }],
      [{ field: "age", op: "gt" }],
      [{ field: "age", op: "gt", note: "x" }],
    ]);
  });

  it("rejects data that is not BFCL ground truth", () => {
    expect(() => bfclGroundTruthToSpec({})).toThrow("must be a list");
    expect(() => bfclGroundTruthToSpec([{ a: {}, b: {} }])).toThrow("exactly one tool name");
    expect(() => bfclGroundTruthToSpec([{ a: { x: 1 } }])).toThrow('argument "x": accepted values must be a list');
  });
});

describe("BFCL v4 simple (75) + parallel (25)", () => {
  const rows = readJsonl("bfcl_v4_simple75_parallel25.jsonl");
  const specs = rows.map((r) => bfclGroundTruthToSpec(r.ground_truth));

  it("converts all 100 rows into valid specs", () => {
    expect(rows).toHaveLength(100);
    expect(validateEvaluatorSpecs(specs)).toEqual([]);
    expect(specs.filter((s) => s.alternatives[0].calls.length > 1)).toHaveLength(25);
  });

  it("an ideal answer passes every row", () => {
    const verdicts = rows.map((r, i) => runStaticCheck(specs[i], { output: "", toolCalls: idealCalls(r.ground_truth as GroundTruth) }).verdict);
    expect(verdicts.filter((v) => v === "passed")).toHaveLength(100);
  });

  it("parallel rows pass in reversed order too (unordered), and as OpenAI JSON-string calls", () => {
    const parallel = rows.map((r, i) => [r, specs[i]] as const).filter(([r]) => r.category === "parallel");
    expect(parallel).toHaveLength(25);
    for (const [r, spec] of parallel) {
      const calls = idealCalls(r.ground_truth as GroundTruth).reverse();
      const openai = calls.map((c, k) => ({ id: `call_${k}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
      expect(runStaticCheck(spec, { output: "", toolCalls: openai }).verdict).toBe("passed");
    }
  });

  it("dropping one call of a parallel row, or adding an unknown argument, fails", () => {
    rows.forEach((r, i) => {
      const calls = idealCalls(r.ground_truth as GroundTruth);
      const extraArg = calls.map((c, k) => (k === 0 ? { ...c, arguments: { ...c.arguments, __extra: 1 } } : c));
      const e = runStaticCheck(specs[i], { output: "", toolCalls: extraArg });
      expect(e.verdict).toBe("failed");
      expect(e.message).toContain('unexpected argument "__extra"');
      if (calls.length > 1) expect(runStaticCheck(specs[i], { output: "", toolCalls: calls.slice(1) }).verdict).toBe("failed");
    });
  });
});

describe("BFCL simple_python recorded outputs of two submissions (50 rows)", () => {
  const rows = readJsonl("recorded/bfcl_simple_python_50_pr_recorded_outputs.jsonl");
  const run = (column: string) =>
    rows.map((r) => ({
      id: r.id as string,
      result: runStaticCheck(bfclGroundTruthToSpec(r.ground_truth) as ToolCallSyntaxSpec, { output: "", toolCalls: r[column] as unknown[] }),
    }));

  it("AIREV-Agent-0.8B passes 42 of 50 (exact string comparison)", () => {
    const results = run("airev_agent_0_8b_calls");
    const failedIds = results.filter((x) => x.result.verdict === "failed").map((x) => x.id);
    expect(results.every((x) => x.result.verdict === "passed" || x.result.verdict === "failed")).toBe(true);
    expect(failedIds).toEqual([
      "simple_python_8",
      "simple_python_16",
      "simple_python_32",
      "simple_python_72",
      "simple_python_128",
      "simple_python_152",
      "simple_python_224",
      "simple_python_344",
    ]);
    expect(results.length - failedIds.length).toBe(42);
    const r8 = results.find((x) => x.id === "simple_python_8")!.result;
    expect(r8.message).toContain('argument "units" is "units"; accepted: "meters"');
  });

  it("Glyphh Ada 1.1 passes 49 of 50", () => {
    const results = run("glyphh_ada_1_1_calls");
    const failedIds = results.filter((x) => x.result.verdict === "failed").map((x) => x.id);
    expect(failedIds).toEqual(["simple_python_16"]);
    expect(results.find((x) => x.id === "simple_python_16")!.result.message).toContain(
      'argument "function" is "2x^2"; accepted: one of "2x**2", "lambda x: 2x**2"',
    );
  });

  it("the raw Glyphh column ({fn: JSON string}) parses to the same verdicts via its derived calls", () => {
    let agree = 0;
    for (const r of rows) {
      const rawList = JSON.parse(r.glyphh_ada_1_1_raw as string) as Array<Record<string, string>>;
      const calls = rawList.map((o) => {
        const [name, args] = Object.entries(o)[0];
        return { name, arguments: args };
      });
      const spec = bfclGroundTruthToSpec(r.ground_truth);
      const a = runStaticCheck(spec, { output: "", toolCalls: calls }).verdict;
      const b = runStaticCheck(spec, { output: "", toolCalls: r.glyphh_ada_1_1_calls as unknown[] }).verdict;
      if (a === b) agree++;
    }
    expect(agree).toBe(50);
  });
});

describe("BFCL simple_python every 8th row (50)", () => {
  it("converts into valid single-call specs; an ideal answer passes and a missing required argument fails", () => {
    const rows = readJsonl("recorded/bfcl_simple_python_50.jsonl");
    expect(rows).toHaveLength(50);
    const specs = rows.map((r) => bfclGroundTruthToSpec(r.ground_truth));
    expect(validateEvaluatorSpecs(specs)).toEqual([]);
    let passedCount = 0;
    let failedWithoutRequired = 0;
    rows.forEach((r, i) => {
      const [call] = idealCalls(r.ground_truth as GroundTruth);
      if (runStaticCheck(specs[i], { output: "", toolCalls: [call] }).verdict === "passed") passedCount++;
      const required = Object.entries(specs[i].alternatives[0].calls[0].arguments ?? {}).find(([, rule]) => rule.required);
      if (required) {
        const { [required[0]]: _dropped, ...rest } = call.arguments;
        const res = runStaticCheck(specs[i], { output: "", toolCalls: [{ name: call.name, arguments: rest }] });
        if (res.verdict === "failed" && res.message.includes(`required argument "${required[0]}" is missing`)) failedWithoutRequired++;
      }
    });
    expect(passedCount).toBe(50);
    expect(failedWithoutRequired).toBe(50);
  });
});
