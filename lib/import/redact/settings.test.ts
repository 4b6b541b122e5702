import { describe, expect, it } from "vitest";
import type { ImportTable } from "../types";
import { keepListProblems, parseKeepList } from "./settings";
import { previewRedaction, redactTable } from "./table";

function table(columns: string[], rows: string[][]): ImportTable {
  return { fileName: "t.csv", format: "csv", encoding: "utf-8", columns, rows, sourceKind: "line", rowSources: rows.map((_, i) => i + 2), problems: [] };
}

const t = table(
  ["question", "answer"],
  [
    ["How do I delete my data? I am ann@example.com", "Contact privacy@northwind.example"],
    ["Call me on +44 20 7946 0958", "Call Northwind support on +44 20 7946 0000 or mail Support@Northwind.example"],
  ],
);

describe("redaction settings", () => {
  it("off: nothing is replaced, and the report says so", () => {
    const { table: out, report } = redactTable(t, { enabled: false });
    expect(out.rows).toEqual(t.rows);
    expect(report.settings).toEqual({ enabled: false, keep: [] });
    expect(report.totals).toEqual({ email: 0, phone: 0, card: 0, iban: 0, ip: 0, national_id: 0 });
    expect(report.changedCells).toBe(0);
    expect(report.kept).toEqual([]);
  });

  it("a keep-list keeps known business contact data as written and counts what each entry kept", () => {
    const keep = ["PRIVACY@northwind.example", "+44-20-7946-0000", "*@northwind.example"];
    const { table: out, report } = redactTable(t, { keep });
    expect(out.rows).toEqual([
      ["How do I delete my data? I am [EMAIL_1]", "Contact privacy@northwind.example"],
      ["Call me on [PHONE_1]", "Call Northwind support on +44 20 7946 0000 or mail Support@Northwind.example"],
    ]);
    expect(report.totals).toMatchObject({ email: 1, phone: 1 });
    expect(report.settings).toEqual({ enabled: true, keep });
    // Any letter case for an exact value; a phone number however it is written; the first entry that matches counts.
    expect(report.kept).toEqual([
      { entry: "PRIVACY@northwind.example", count: 1 },
      { entry: "+44-20-7946-0000", count: 1 },
      { entry: "*@northwind.example", count: 1 },
    ]);
    expect(previewRedaction(t, { keep })).toEqual(report);
  });

  it("a phone on the keep-list matches however it is spaced; a pattern's * matches any characters", () => {
    const { table: out } = redactTable(t, { keep: ["+442079460000", "+44 20 7946 09*"] });
    expect(out.rows[1]).toEqual(["Call me on +44 20 7946 0958", "Call Northwind support on +44 20 7946 0000 or mail [EMAIL_1]"]);
  });

  it("keeps values inside JSON cells too, which stay valid JSON", () => {
    const j = table(["history"], [[JSON.stringify([{ role: "assistant", content: "Write to privacy@northwind.example or ann@example.com" }])]]);
    const { table: out } = redactTable(j, { keep: ["privacy@northwind.example"] });
    expect(JSON.parse(out.rows[0][0])).toEqual([{ role: "assistant", content: "Write to privacy@northwind.example or [EMAIL_1]" }]);
  });

  it("reads a keep-list from text: one entry per line, trimmed, blank lines and repeats dropped; checks its size", () => {
    expect(parseKeepList(" privacy@northwind.example \n\n*@northwind.example\r\nprivacy@northwind.example\n")).toEqual([
      "privacy@northwind.example",
      "*@northwind.example",
    ]);
    expect(keepListProblems(["ok", "*", "x".repeat(201)])).toEqual([
      'Keep-list entry 2 ("*") would keep every value; name the values or a pattern such as *@example.com.',
      "Keep-list entry 3 is 201 characters long; the limit is 200.",
    ]);
    expect(keepListProblems(Array.from({ length: 201 }, (_, i) => `v${i}@x.example`))).toEqual(["The keep-list has 201 entries; the limit is 200."]);
  });
});
