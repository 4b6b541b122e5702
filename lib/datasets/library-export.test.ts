import { describe, expect, it } from "vitest";
import { emptyCaseContent } from "@/lib/library/case-content";
import { toCsv } from "@/lib/import/export";
import { suggestMapping } from "@/lib/import/suggest";
import { libraryExportTable } from "./library-export";

describe("libraryExportTable", () => {
  it("writes columns the importer suggests back to the same roles", () => {
    const { columns, rows } = libraryExportTable([
      {
        caseKey: "k1",
        promptName: "agent",
        source: "dataset",
        status: "active",
        content: {
          ...emptyCaseContent(),
          input: "=1+1",
          expected: "2",
          tags: ["a", "b"],
          variables: [{ name: "shop", value: "Acme" }],
          recordedOutputs: { "model-6b": "2" },
          extra: { input: "clash", category: "maths" },
          history: [{ role: "user", content: "hi" }],
          context: [{ name: "resolved_prompt", value: "Solve" }],
        },
      },
      { caseKey: "k2", promptName: "agent", source: "custom", status: "paused", content: { ...emptyCaseContent(), input: "x", expected: "y" } },
    ]);
    expect(columns).toEqual([
      "case_id",
      "prompt",
      "source",
      "status",
      "input",
      "expected",
      "notes",
      "tags",
      "history",
      "var_shop",
      "resolved_prompt",
      "model-6b_output",
      "input_2",
      "category",
    ]);
    expect(rows[0]).toMatchObject({ tags: "a, b", var_shop: "Acme", "model-6b_output": "2", input_2: "clash", history: '[{"role":"user","content":"hi"}]' });
    const roles = Object.fromEntries(suggestMapping(columns).map((a) => [a.column, a.role]));
    expect(roles).toMatchObject({
      case_id: "case_id",
      input: "input",
      expected: "expected",
      tags: "tags",
      history: "history",
      var_shop: "variable",
      resolved_prompt: "resolved_prompt",
      "model-6b_output": "actual_output",
    });
    // Cells that a spreadsheet would run as formulas are escaped.
    expect(toCsv(rows, { columns }).split("\r\n")[1]).toContain("'=1+1");
  });
});
