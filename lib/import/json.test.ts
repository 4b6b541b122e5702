import { describe, expect, it } from "vitest";
import { fixture, utf8 } from "./fixtures/load";
import { parseJson } from "./json";
import { resolveLimits } from "./limits";

const limits = resolveLimits();
const json = (path: string, jsonKey?: string) => parseJson(fixture(path), path.split("/").pop()!, limits, { jsonKey });

describe("JSON: array of objects", () => {
  it("unions keys in first-seen order and keeps number source text, also inside nested values", () => {
    const t = json("json/array.json");
    expect(t.format).toBe("json");
    expect(t.encoding).toBe("utf-8");
    expect(t.columns).toEqual(["id", "question", "n", "e", "f", "neg", "ok", "none", "meta", "extra"]);
    expect(t.rows).toEqual([
      ["a1", "Big?", "12345678901234567890", "1e5", "1.50", "-0", "true", "", "", ""],
      ["a2", "Nested?", "", "", "", "", "", "", '{"score":1e5,"big":98765432109876543210,"list":[1,2.0,"x"],"esc":"tab\\there é"}', ""],
      ["a3", "Empty values", "", "", "", "", "false", "", "", "[]"],
    ]);
    expect(t.rowSources).toEqual([2, 3, 6]);
    expect(t.problems).toEqual([
      { severity: "error", code: "not_an_object", line: 4, message: "Item 3 (line 4) is a string, not an object; it was not imported." },
      { severity: "warning", code: "empty_row", line: 5, message: "Line 5 is empty and was skipped." },
    ]);
  });

  it("reads the array held by a top-level object and says which key", () => {
    const t = json("json/wrapped.json");
    expect(t.columns).toEqual(["question", "answer"]);
    expect(t.rows).toEqual([
      ["Wrapped?", "yes"],
      ["Second", "no"],
    ]);
    expect(t.rowSources).toEqual([4, 5]);
    expect(t.problems).toEqual([
      { severity: "warning", code: "rows_from_key", message: 'Rows were read from the array under "data"; the other top-level keys were not imported.' },
    ]);
  });

  it("refuses an object with several arrays unless the key is given", () => {
    expect(() => json("json/ambiguous.json")).toThrow('ambiguous.json holds several arrays of objects ("train", "test"); choose which one holds the rows.');
    expect(json("json/ambiguous.json", "test").rows).toEqual([["b"]]);
  });

  it("reports a syntax error with line and column", () => {
    expect(() => json("json/invalid.json")).toThrow('invalid.json is not valid JSON: expected "," or "}" but found "\\"" at line 3, column 32.');
    try {
      json("json/invalid.json");
    } catch (e) {
      expect((e as { code: string }).code).toBe("corrupt");
    }
  });

  it("refuses JSON that is not an array of objects", () => {
    expect(() => json("json/scalar.json")).toThrow("scalar.json holds a string; expected an array of objects (one object per row).");
    expect(() => parseJson(utf8("[1, 2]"), "nums.json", limits)).toThrow(
      "nums.json must be an array of objects (one object per row), but its items are not objects.",
    );
  });

  it("keeps the last value of a repeated key and names an empty key by position", () => {
    const t = json("json/duplicate-keys.json");
    expect(t.columns).toEqual(["question", "column_2"]);
    expect(t.rows).toEqual([["second", "no key name"]]);
    expect(t.problems).toEqual([
      { severity: "warning", code: "empty_header", column: "column_2", message: 'Column 2 has no header name; it is stored as "column_2".' },
      {
        severity: "warning",
        code: "duplicate_key",
        line: 1,
        row: 1,
        message: 'Line 1: key "question" appears more than once in the object; the last value is kept.',
      },
    ]);
  });

  it("reads a .json file that is really JSON Lines, with a warning", () => {
    const t = json("json/actually-jsonl.json");
    expect(t.format).toBe("jsonl");
    expect(t.rows).toEqual([
      ["one", "1"],
      ["two", "2"],
    ]);
    expect(t.problems[0]).toEqual({
      severity: "warning",
      code: "read_as_jsonl",
      message: "actually-jsonl.json holds one JSON value per line, so it was read as JSON Lines.",
    });
  });

  it("is safe with a __proto__ key", () => {
    const t = parseJson(utf8('[{"__proto__": "x", "constructor": "y"}]'), "p.json", limits);
    expect(t.columns).toEqual(["__proto__", "constructor"]);
    expect(t.rows).toEqual([["x", "y"]]);
  });

  it("applies the row and column limits", () => {
    const rows = JSON.stringify(Array.from({ length: 4 }, (_, i) => ({ q: String(i) })));
    expect(() => parseJson(utf8(rows), "r.json", resolveLimits({ maxRows: 3 }))).toThrow("r.json has more than 3 data rows");
    expect(() => parseJson(utf8('[{"a":1,"b":2,"c":3}]'), "c.json", resolveLimits({ maxColumns: 2 }))).toThrow(
      "c.json has more than 2 different keys; the limit is 2 columns.",
    );
  });
});
