import { describe, expect, it } from "vitest";
import { fixture, utf8 } from "./fixtures/load";
import { inspect } from "./inspect";

describe("inspect", () => {
  it("returns the CLI object for a CSV, with parse and mapping problems", async () => {
    const r = await inspect(fixture("csv/ragged.csv"), "ragged.csv");
    expect(Object.keys(r)).toEqual([
      "format",
      "encoding",
      "delimiter",
      "headerRow",
      "headerDetected",
      "columns",
      "rowCount",
      "rows",
      "problems",
      "suggestedMapping",
    ]);
    expect(r).toMatchObject({ headerRow: 1, headerDetected: false });
    expect(r).toMatchObject({ format: "csv", encoding: "utf-8", delimiter: ",", rowCount: 5 });
    expect(r.columns).toEqual(["question", "answer", "notes", "column_4"]);
    expect(r.rows[2]).toEqual({ question: "too", answer: "many", notes: "fields", column_4: "extra value" });
    expect(r.suggestedMapping).toEqual([
      { column: "question", role: "input" },
      { column: "answer", role: "expected" },
      { column: "notes", role: "notes" },
      { column: "column_4", role: "extra" },
    ]);
    expect(r.problems.map((p) => [p.severity, p.code, p.line ?? null])).toEqual([
      ["warning", "ragged_row", 3],
      ["error", "ragged_row", 4],
      ["warning", "ragged_row", 5],
    ]);
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it("reports sheets for a workbook and asks for a choice", async () => {
    const r = await inspect(fixture("xlsx/multi-sheet.xlsx"), "multi-sheet.xlsx");
    expect(r).toEqual({
      format: "xlsx",
      encoding: null,
      sheets: [
        { name: "Cases", hidden: false },
        { name: "Archive", hidden: false },
        { name: "Secret", hidden: true },
        { name: "Internal", hidden: true },
      ],
      sheet: null,
      needsSheet: true,
      columns: [],
      rowCount: 0,
      rows: [],
      problems: [{ severity: "error", code: "needs_sheet", message: 'Choose a sheet: multi-sheet.xlsx has 2 visible sheets ("Cases", "Archive").' }],
      suggestedMapping: [],
    });
  });

  it("reads the chosen sheet and flags rows", async () => {
    const r = await inspect(fixture("xlsx/merged.xlsx"), "merged.xlsx");
    expect(r.sheet).toBe("Merged");
    expect(r.needsSheet).toBe(false);
    expect(r.rows[1]).toEqual({ group: "shared", question: "q2", column_3: "b", question_2: "y" });
    expect(r.suggestedMapping[1]).toEqual({ column: "question", role: "input" });
    expect(r.problems.find((p) => p.code === "no_expected_column")).toEqual({
      severity: "error",
      code: "no_expected_column",
      message: "No column is mapped to the expected result.",
    });
  });

  it("covers history problems of JSONL rows and offers a redaction preview", async () => {
    const r = await inspect(fixture("jsonl/history.jsonl"), "history.jsonl", { redact: { previewLimit: 1 } });
    expect(r.format).toBe("jsonl");
    expect(r.columns).toEqual(["id", "question", "answer", "messages"]);
    expect(r.suggestedMapping.map((a) => a.role)).toEqual(["case_id", "input", "expected", "history"]);
    expect(r.problems).toEqual([
      {
        severity: "error",
        code: "malformed_history",
        column: "messages",
        row: 5,
        line: 5,
        message: "Row 5: the conversation history cannot be read (it looks like JSON but is not valid JSON); the cell is kept as an extra column.",
      },
      {
        severity: "error",
        code: "malformed_history",
        column: "messages",
        row: 6,
        line: 6,
        message:
          'Row 6: the conversation history cannot be read (the text before the first turn has no "user:", "assistant:" or "system:" prefix); the cell is kept as an extra column.',
      },
    ]);
    expect(r.rows[1].messages).toContain('"arguments":"{\\"city\\":\\"Paris\\",\\"days\\":12345678901234567890}"');
    expect(r.redaction).toEqual({
      totals: { email: 0, phone: 0, card: 0, iban: 0, ip: 0, national_id: 0 },
      columns: [],
      changedCells: 0,
      changedRows: 0,
      preview: [],
      settings: { enabled: true, keep: [] },
      kept: [],
    });
  });

  it("passes template variables to the suggestion and the row checks", async () => {
    const r = await inspect(utf8("question,answer,city\nWeather?,Sunny,Paris\nRain?,No,\n"), "v.csv", { templateVariables: ["city"] });
    expect(r.suggestedMapping[2]).toEqual({ column: "city", role: "variable", variable: "city" });
    expect(r.problems).toEqual([
      { severity: "warning", code: "missing_variable", column: "city", row: 2, line: 3, message: "Row 2 has no value for {{city}}; it is left unset." },
    ]);
  });

  it("throws ImportError for refused files", async () => {
    await expect(inspect(fixture("xlsx/zip-bomb.xlsx"), "zip-bomb.xlsx")).rejects.toMatchObject({ code: "zip_bomb" });
  });
});
