/**
 * Real-data checks of the gsm8k evaluator on the shipped GSM8K slices (test-data/README.md).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runStaticCheck } from "../registry";
import { datasetPath } from "@/test-data/datasets";

const readJsonl = (name: string) =>
  readFileSync(datasetPath(name), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const recorded = readJsonl("recorded/gsm8k_example_model_solutions_200.jsonl");
const MODELS = [
  ["model_6b_finetuning", 45],
  ["model_6b_verification", 75],
  ["model_175b_finetuning", 65],
  ["model_175b_verification", 110],
] as const;

const markerA = { kind: "gsm8k", marker: "A:" } as const;
const strict = { kind: "gsm8k" } as const;

describe("gsm8k on recorded model solutions (200 rows)", () => {
  it("has 200 rows", () => expect(recorded).toHaveLength(200));

  it.each(MODELS)("%s with marker A: gives %i correct and matches is_correct row by row", (model, expectedCorrect) => {
    let correct = 0;
    const mismatches: string[] = [];
    for (const row of recorded) {
      const r = runStaticCheck(markerA, { output: row[`${model}_output`] as string, context: { expected: row.reference_answer as string } });
      expect(r.verdict === "passed" || r.verdict === "failed").toBe(true);
      const ok = r.verdict === "passed";
      if (ok) correct++;
      if (ok !== row[`${model}_is_correct`]) mismatches.push(row.id as string);
    }
    expect(mismatches).toEqual([]);
    expect(correct).toBe(expectedCorrect);
  });

  it.each(MODELS)("%s with the strict #### marker gives 0/200", (model) => {
    const passedCount = recorded.filter(
      (row) => runStaticCheck(strict, { output: row[`${model}_output`] as string, context: { expected: row.reference_answer as string } }).verdict === "passed",
    ).length;
    expect(passedCount).toBe(0);
  });

  it("reference_solution with strict #### gives 200/200 (expected given with a comma in one row)", () => {
    expect(recorded.some((r) => r.reference_answer === "2,125")).toBe(true);
    const results = recorded.map((row) =>
      runStaticCheck({ kind: "gsm8k", expected: row.reference_answer as string }, { output: row.reference_solution as string }),
    );
    expect(results.filter((r) => r.verdict === "passed")).toHaveLength(200);
  });

  it("degenerate samples without an A: line fail with a clear message", () => {
    const row = recorded.find((r) => r.id === "gsm8k_test_0005")!;
    const r = runStaticCheck(markerA, { output: row.model_175b_finetuning_output as string, context: { expected: row.reference_answer as string } });
    expect(r.verdict).toBe("failed");
    expect(r.message).toContain('the output has no "A:" marker (strict mode)');
  });

  it("shows the extracted answer", () => {
    const row = recorded[0];
    const r = runStaticCheck(markerA, { output: row.model_6b_finetuning_output as string, context: { expected: row.reference_answer as string } });
    expect(r.message).toBe('The answer after the last "A:" is 26, but the expected answer is 18.');
    expect(r.details).toMatchObject({ extracted: "26", expected: "18", method: "marker", marker: "A:", mode: "strict" });
  });
});

describe("gsm8k on the first 100 test problems", () => {
  const rows = readJsonl("gsm8k_test_first100.jsonl");
  it("each worked answer passes against its final_answer, and against itself as the expected value", () => {
    expect(rows).toHaveLength(100);
    let byFinal = 0;
    let bySolution = 0;
    for (const row of rows) {
      if (runStaticCheck({ kind: "gsm8k", expected: row.final_answer as string }, { output: row.answer as string }).verdict === "passed") byFinal++;
      if (runStaticCheck({ kind: "gsm8k", expected: row.answer as string }, { output: row.answer as string }).verdict === "passed") bySolution++;
    }
    expect(byFinal).toBe(100);
    expect(bySolution).toBe(100);
  });

  it("a shifted answer key fails every row", () => {
    let passedCount = 0;
    rows.forEach((row, i) => {
      const other = rows[(i + 1) % rows.length];
      if (other.final_answer === row.final_answer) return;
      if (runStaticCheck({ kind: "gsm8k", expected: other.final_answer as string }, { output: row.answer as string }).verdict === "passed") passedCount++;
    });
    expect(passedCount).toBe(0);
  });
});
