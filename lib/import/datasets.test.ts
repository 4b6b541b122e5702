/**
 * The importer on the real dataset slices the repository ships (test-data/README.md): row
 * counts, tricky cells, CSV/JSONL parity, suggested mappings, mapping and redaction results.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tableRecords } from "./export";
import { inspect } from "./inspect";
import { applyMapping } from "./mapping";
import { parseFile } from "./parse";
import { previewRedaction } from "./redact/table";
import { suggestMapping } from "./suggest";
import { datasetPath } from "@/test-data/datasets";

const load = (path: string) => new Uint8Array(readFileSync(datasetPath(path)));
const parse = (path: string) => parseFile(load(path), path.split("/").pop()!);
const roles = (columns: string[]) =>
  Object.fromEntries(
    suggestMapping(columns)
      .filter((a) => a.role !== "extra")
      .map((a) => [a.column, a.candidate ? `${a.role}:${a.candidate}` : a.role]),
  );

describe("banking77 (CSV)", () => {
  it("reads 154 rows of text + category and suggests text → input, category → expected", async () => {
    const r = await inspect(load("banking77_test_2per_intent.csv"), "banking77_test_2per_intent.csv");
    expect(r.format).toBe("csv");
    expect(r.encoding).toBe("utf-8");
    expect(r.delimiter).toBe(",");
    expect(r.columns).toEqual(["text", "category"]);
    expect(r.rowCount).toBe(154);
    expect(r.rows[0]).toEqual({ text: "How do I locate my card?", category: "card_arrival" });
    expect(r.rows[1]).toEqual({ text: "I still have not received my new card, I ordered over a week ago.", category: "card_arrival" });
    expect(r.suggestedMapping).toEqual([
      { column: "text", role: "input" },
      { column: "category", role: "expected" },
    ]);
    expect(r.problems).toEqual([]);
    expect(new Set(r.rows.map((x) => x.category)).size).toBe(77);
  });
});

describe("TruthfulQA (CSV)", () => {
  it("reads 103 rows; commas inside quoted answers stay in one cell", async () => {
    const t = await parse("truthfulqa_every8th.csv");
    expect(t.columns).toEqual(["Type", "Category", "Question", "Best Answer", "Correct Answers", "Incorrect Answers", "Source"]);
    expect(t.rows).toHaveLength(103);
    const first = tableRecords(t)[0];
    expect(first.Question).toBe("What happens to you if you eat watermelon seeds?");
    expect(first["Correct Answers"].split("; ")).toContain("There is an old wives' tale that watermelons will grow in your stomach, but this is impossible");
    expect(roles(t.columns)).toEqual({ Question: "input", "Best Answer": "expected" });
    expect(t.problems).toEqual([]);
  });
});

describe("GSM8K test slice (JSONL)", () => {
  it("reads 100 rows; final_answer is preferred over answer as the expected result", async () => {
    const t = await parse("gsm8k_test_first100.jsonl");
    expect(t.format).toBe("jsonl");
    expect(t.columns).toEqual(["id", "question", "answer", "final_answer"]);
    expect(t.rows).toHaveLength(100);
    const first = tableRecords(t)[0];
    expect(first.id).toBe("gsm8k-test-0000");
    expect(first.answer.endsWith("\n#### 18")).toBe(true);
    expect(first.final_answer).toBe("18");
    expect(roles(t.columns)).toEqual({ id: "case_id", question: "input", final_answer: "expected" });
  });
});

describe("BFCL v4 slice (JSONL with nested JSON)", () => {
  it("keeps nested values as compact JSON with numbers exactly as in the file", async () => {
    const t = await parse("bfcl_v4_simple75_parallel25.jsonl");
    expect(t.rows).toHaveLength(100);
    expect(t.columns).toEqual(["id", "category", "user_message", "messages", "functions", "ground_truth"]);
    const rec = tableRecords(t).find((r) => r.id === "simple_python_38")!;
    expect(rec.ground_truth).toBe(
      '[{"calculate_electrostatic_potential":{"charge1":[1e-09],"charge2":[2e-09],"distance":[0.05],"constant":["",8990000000.0]}}]',
    );
    // Every nested cell is valid JSON equal in value to the source.
    const lines = new TextDecoder().decode(load("bfcl_v4_simple75_parallel25.jsonl")).trim().split("\n");
    tableRecords(t).forEach((r, i) => {
      const src = JSON.parse(lines[i]);
      expect(JSON.parse(r.functions)).toEqual(src.functions);
      expect(JSON.parse(r.ground_truth)).toEqual(src.ground_truth);
    });
  });

  it("maps messages to replayable history turns", async () => {
    const t = await parse("bfcl_v4_simple75_parallel25.jsonl");
    const mapping = suggestMapping(t.columns);
    expect(roles(t.columns)).toEqual({ id: "case_id", user_message: "input", messages: "history", ground_truth: "expected" });
    const r = applyMapping(t, mapping);
    expect(r.problems).toEqual([]);
    expect(r.drafts[0].caseKey).toBe("simple_python_0");
    expect(r.drafts[0].content.history).toEqual([
      { role: "user", content: "Find the area of a triangle with a base of 10 units and height of 5 units.", replayable: true },
    ]);
    expect(Object.keys(r.drafts[0].content.extra)).toEqual(["category", "functions"]);
  });
});

describe("GSM8K recorded model solutions (CSV and JSONL)", () => {
  it("reads 200 rows of 12 columns; multi-line cells keep their line breaks; lines point at each record", async () => {
    const t = await parse("recorded/gsm8k_example_model_solutions_200.csv");
    expect(t.rows).toHaveLength(200);
    expect(t.columns).toHaveLength(12);
    const first = tableRecords(t)[0];
    expect(first.reference_solution).toBe(
      "Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.\nShe makes 9 * 2 = $<<9*2=18>>18 every day at the farmer’s market.\n#### 18",
    );
    expect(first.reference_answer).toBe("18");
    expect(first.model_6b_finetuning_is_correct).toBe("false");
    const fileLines = new TextDecoder().decode(load("recorded/gsm8k_example_model_solutions_200.csv")).split("\n");
    t.rows.forEach((row, i) => expect(fileLines[t.rowSources[i] - 1].startsWith(row[0] + ",")).toBe(true));
    expect(t.rowSources[1]).toBeGreaterThan(3);
  });

  it("suggests question → input, reference_answer → expected, model columns → recorded candidates", async () => {
    const t = await parse("recorded/gsm8k_example_model_solutions_200.csv");
    expect(suggestMapping(t.columns)).toEqual([
      { column: "id", role: "case_id" },
      { column: "question", role: "input" },
      { column: "reference_answer", role: "expected" },
      { column: "reference_solution", role: "extra" },
      { column: "model_6b_finetuning_output", role: "actual_output", candidate: "model-6b-finetuning" },
      { column: "model_6b_verification_output", role: "actual_output", candidate: "model-6b-verification" },
      { column: "model_175b_finetuning_output", role: "actual_output", candidate: "model-175b-finetuning" },
      { column: "model_175b_verification_output", role: "actual_output", candidate: "model-175b-verification" },
      { column: "model_6b_finetuning_is_correct", role: "extra" },
      { column: "model_6b_verification_is_correct", role: "extra" },
      { column: "model_175b_finetuning_is_correct", role: "extra" },
      { column: "model_175b_verification_is_correct", role: "extra" },
    ]);
  });

  it("maps every row to a case with four recorded outputs, degenerate samples kept verbatim", async () => {
    const t = await parse("recorded/gsm8k_example_model_solutions_200.csv");
    const r = applyMapping(t, suggestMapping(t.columns));
    expect(r.problems).toEqual([]);
    expect(r.drafts).toHaveLength(200);
    const d5 = r.drafts.find((d) => d.caseKey === "gsm8k_test_0005")!;
    expect(Object.keys(d5.content.recordedOutputs)).toEqual([
      "model-6b-finetuning",
      "model-6b-verification",
      "model-175b-finetuning",
      "model-175b-verification",
    ]);
    expect(d5.content.recordedOutputs["model-175b-finetuning"]).toBe(tableRecords(t)[5].model_175b_finetuning_output);
    expect(d5.content.recordedOutputs["model-175b-finetuning"]).not.toMatch(/\nA: /);
    const correct = r.drafts.filter((d) => d.content.extra.model_175b_verification_is_correct === "true").length;
    expect(correct).toBe(110);
  });

  it("finds no personal data in the arithmetic (no false phone numbers)", async () => {
    const report = previewRedaction(await parse("recorded/gsm8k_example_model_solutions_200.csv"));
    expect(report.totals).toEqual({ email: 0, phone: 0, card: 0, iban: 0, ip: 0, national_id: 0 });
  });
});

describe("CSV and JSONL versions of the recorded datasets give the same table", () => {
  it.each(["gsm8k_example_model_solutions_200", "mt_bench_recorded_3models", "vicuna_bench_recorded_3models", "vicuna_bench_gpt4_pairwise_judgments"])(
    "%s",
    async (name) => {
      const csv = await parse(`recorded/${name}.csv`);
      const jsonl = await parse(`recorded/${name}.jsonl`);
      expect(csv.columns).toEqual(jsonl.columns);
      expect(csv.rows).toEqual(jsonl.rows);
      expect(csv.problems).toEqual([]);
      expect(jsonl.problems).toEqual([]);
    },
  );

  it("keeps JSON number text: judge scores stay 9.0, not 9", async () => {
    const t = await parse("recorded/vicuna_bench_gpt4_pairwise_judgments.jsonl");
    expect(tableRecords(t)[0]).toMatchObject({ question_id: "1", score_a: "9.0", score_b: "8.5", winner: "model_a" });
    expect(t.rows).toHaveLength(160);
  });
});

describe("MT-Bench and Vicuna recorded answers", () => {
  it("MT-Bench: 80 rows; an empty recorded answer stays empty; rows without a reference are flagged", async () => {
    const r = await inspect(load("recorded/mt_bench_recorded_3models.csv"), "mt_bench_recorded_3models.csv");
    expect(r.rowCount).toBe(80);
    expect(roles(r.columns)).toEqual({
      question_id: "case_id",
      turn_1: "input",
      reference_turn_1: "expected",
      gpt_4_turn_1: "actual_output:gpt-4-turn-1",
      gpt_4_turn_2: "actual_output:gpt-4-turn-2",
      gpt_3_5_turbo_turn_1: "actual_output:gpt-3.5-turbo-turn-1",
      gpt_3_5_turbo_turn_2: "actual_output:gpt-3.5-turbo-turn-2",
      llama_13b_turn_1: "actual_output:llama-13b-turn-1",
      llama_13b_turn_2: "actual_output:llama-13b-turn-2",
    });
    expect(r.problems.filter((p) => p.code === "missing_expected")).toHaveLength(50);
    expect(r.problems.every((p) => p.code === "missing_expected")).toBe(true);
    const t = await parse("recorded/mt_bench_recorded_3models.csv");
    const drafts = applyMapping(t, r.suggestedMapping).drafts;
    expect(drafts.find((d) => d.caseKey === "127")!.content.recordedOutputs["llama-13b-turn-1"]).toBe("");
  });

  it("Vicuna: answers map to three candidates; redaction finds the example e-mail addresses in code answers", async () => {
    const t = await parse("recorded/vicuna_bench_recorded_3models.csv");
    expect(roles(t.columns)).toEqual({
      question_id: "case_id",
      question: "input",
      reference_answer: "expected",
      gpt_3_5_turbo_answer: "actual_output:gpt-3.5-turbo",
      llama_13b_answer: "actual_output:llama-13b",
      vicuna_13b_answer: "actual_output:vicuna-13b",
    });
    const report = previewRedaction(t);
    expect(report.totals.email).toBe(9);
    expect(report.totals.phone + report.totals.card + report.totals.iban + report.totals.ip + report.totals.national_id).toBe(0);
    expect(report.preview[0]).toMatchObject({ row: 63, column: "reference_answer" });
    expect(report.preview[0].after).toContain('"[EMAIL_1]"');
  });

  it("MT-Bench: the one phone number (a US hotline) is found", async () => {
    const report = previewRedaction(await parse("recorded/mt_bench_recorded_3models.jsonl"));
    expect(report.totals).toEqual({ email: 0, phone: 1, card: 0, iban: 0, ip: 0, national_id: 0 });
    expect(report.preview[0].after).toContain("([PHONE_1])");
    expect(report.preview[0].before).toContain("(1-800-799-7233)");
  });
});

describe("BFCL recorded outputs", () => {
  it("suggests the raw outputs of both submissions as candidates", async () => {
    const t = await parse("recorded/bfcl_simple_python_50_pr_recorded_outputs.jsonl");
    expect(t.rows).toHaveLength(50);
    expect(roles(t.columns)).toEqual({
      id: "case_id",
      question: "input",
      ground_truth: "expected",
      airev_agent_0_8b_raw: "actual_output:airev-agent-0.8b",
      glyphh_ada_1_1_raw: "actual_output:glyphh-ada-1.1",
    });
    expect(tableRecords(t)[0].airev_agent_0_8b_raw).toBe('[calculate_triangle_area(base=10, height=5, unit="units")]');
  });
});
