import { describe, expect, it } from "vitest";
import { normalizeName, outputCandidateName, suggestMapping } from "./suggest";

describe("suggestMapping", () => {
  it("normalises names", () => {
    expect(normalizeName("Best Answer")).toBe("best_answer");
    expect(normalizeName("userMessage")).toBe("user_message");
    expect(normalizeName("  case-ID ")).toBe("case_id");
  });

  it("maps the common names to their roles and everything else to extra", () => {
    expect(suggestMapping(["ID", "Prompt", "Expected Output", "Conversation", "Tags", "Description", "rendered_prompt", "foo"])).toEqual([
      { column: "ID", role: "case_id" },
      { column: "Prompt", role: "input" },
      { column: "Expected Output", role: "expected" },
      { column: "Conversation", role: "history" },
      { column: "Tags", role: "tags" },
      { column: "Description", role: "notes" },
      { column: "rendered_prompt", role: "resolved_prompt" },
      { column: "foo", role: "extra" },
    ]);
  });

  it("gives input and expected to one column each, the best match winning", () => {
    expect(suggestMapping(["text", "question", "answer", "final_answer", "label"])).toEqual([
      { column: "text", role: "extra" },
      { column: "question", role: "input" },
      { column: "answer", role: "extra" },
      { column: "final_answer", role: "expected" },
      { column: "label", role: "extra" },
    ]);
  });

  it("derives candidate names for recorded outputs, unique per column", () => {
    expect(outputCandidateName("model_6b_finetuning_output")).toBe("model-6b-finetuning");
    expect(outputCandidateName("gpt_4_turn_1")).toBe("gpt-4-turn-1");
    expect(outputCandidateName("gpt_3_5_turbo_answer")).toBe("gpt-3.5-turbo");
    expect(outputCandidateName("claude_3_5_sonnet_response")).toBe("claude-3.5-sonnet");
    expect(outputCandidateName("llama_2_7b_output")).toBe("llama-2-7b");
    expect(outputCandidateName("airev_agent_0_8b_raw")).toBe("airev-agent-0.8b");
    expect(outputCandidateName("output")).toBe("recorded");
    expect(outputCandidateName("reference_answer")).toBeNull();
    expect(outputCandidateName("best_answer")).toBeNull();
    expect(outputCandidateName("model_6b_finetuning_is_correct")).toBeNull();
    expect(outputCandidateName("turn_2")).toBeNull();
    expect(suggestMapping(["q", "output", "response"]).slice(1)).toEqual([
      { column: "output", role: "actual_output", candidate: "recorded" },
      { column: "response", role: "actual_output", candidate: "recorded-2" },
    ]);
  });

  it("maps template variables and var_ columns to variables", () => {
    expect(suggestMapping(["question", "City", "var_tone"], { templateVariables: ["city"] })).toEqual([
      { column: "question", role: "input" },
      { column: "City", role: "variable", variable: "city" },
      { column: "var_tone", role: "variable", variable: "tone" },
    ]);
  });

  it("recognises a history column by its content when the name does not say", () => {
    const rows = [
      ["q1", '[{"role":"user","content":"a"}]'],
      ["q2", ""],
    ];
    expect(suggestMapping(["question", "ctx"], { sampleRows: rows })[1]).toEqual({ column: "ctx", role: "history" });
    expect(suggestMapping(["question", "ctx"], { sampleRows: [["q", "[1,2]"]] })[1]).toEqual({ column: "ctx", role: "extra" });
  });

  it("suggests variables (JSON object) for a variables column holding JSON objects", () => {
    const rows = [
      ["Hi", "Hello", '{"shop_name": "Northwind", "tier": "gold"}', "{}"],
      ["Yo", "Hey", "", "not json"],
    ];
    expect(suggestMapping(["question", "answer", "variables", "vars"], { sampleRows: rows })).toEqual([
      { column: "question", role: "input" },
      { column: "answer", role: "expected" },
      { column: "variables", role: "variables_json" },
      { column: "vars", role: "extra" },
    ]);
    expect(suggestMapping(["input", "expected", "Template Variables"])[2]).toEqual({ column: "Template Variables", role: "variables_json" });
    // One broken object among good ones: still a variables column (the broken row is flagged when mapped).
    expect(suggestMapping(["variables"], { sampleRows: [['{"a": "x"}'], ['{"a": x}']] })).toEqual([{ column: "variables", role: "variables_json" }]);
  });
});
