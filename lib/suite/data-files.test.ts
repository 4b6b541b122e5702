import { describe, expect, it } from "vitest";
import { dataFileKind, readCsvCases, readJsonlCases } from "./data-files";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("readCsvCases", () => {
  it("reads allowed columns exactly (BOM, quotes, line breaks), empty cells as absent, with row and line", async () => {
    const r = await readCsvCases(bytes('\uFEFFid,prompt,expected,description\na," What, now?",30 days,\n,"two\nlines", x ,d\n'), "q.csv");
    expect(r.problems).toEqual([]);
    expect(r.rows).toEqual([
      { fields: { id: "a", prompt: " What, now?", expected: "30 days" }, row: 1, line: 2 },
      { fields: { prompt: "two\nlines", expected: " x ", description: "d" }, row: 2, line: 3 },
    ]);
  });

  it("refuses columns other than id, prompt, expected, description", async () => {
    const r = await readCsvCases(bytes("prompt,expected,systemPrompt,data\np,e,s,d\n"), "q.csv");
    expect(r.rows).toEqual([]);
    expect(r.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^column "systemPrompt" is not allowed: CSV cases may only have the columns id, prompt, expected, description/),
      expect.stringMatching(/^column "data" is not allowed/),
    ]);
  });

  it("reports a malformed row with its row and line, and an empty file", async () => {
    const r = await readCsvCases(bytes("prompt,expected\np,e\nq,e,extra\n"), "q.csv");
    expect(r.problems.some((p) => p.row === 2 && p.line === 3)).toBe(true);
    expect((await readCsvCases(bytes(""), "e.csv")).problems[0].message).toMatch(/empty/);
  });
});

describe("readJsonlCases", () => {
  it("keeps typed values, skips blank lines, numbers rows and lines", () => {
    const r = readJsonlCases(bytes('{"id":"a","tools":["t"],"data":{"n":1}}\r\n\n{"prompt":"p"}\n'), "c.jsonl");
    expect(r).toEqual({
      rows: [
        { fields: { id: "a", tools: ["t"], data: { n: 1 } }, row: 1, line: 1 },
        { fields: { prompt: "p" }, row: 2, line: 3 },
      ],
      problems: [],
    });
  });

  it("reports lines that are not JSON objects and files that are not UTF-8", () => {
    const r = readJsonlCases(bytes('{"a":1}\n"text"\n{bad'), "c.jsonl");
    expect(r.rows).toHaveLength(1);
    expect(r.problems).toEqual([
      { row: 2, line: 2, message: "line 2 is a string, not a JSON object" },
      { row: 3, line: 3, message: expect.stringMatching(/^line 3 is not valid JSON/) },
    ]);
    expect(readJsonlCases(new Uint8Array([0xff, 0xfe, 0x00]), "c.jsonl").problems[0].message).toMatch(/not valid UTF-8/);
    expect(readJsonlCases(bytes("\n\n"), "c.jsonl").problems[0].message).toMatch(/no cases/);
  });

  it("tells CSV from JSONL by extension", () => {
    expect(dataFileKind("a/B.CSV")).toBe("csv");
    expect(dataFileKind("x.jsonl")).toBe("jsonl");
    expect(dataFileKind("x.json")).toBeNull();
  });
});
