import { describe, expect, it } from "vitest";
import { JsonSyntaxError, lineColumnAt, parseRawJson, rawJsonToCell, stringifyRawJson, tryParseRawJson } from "./json-raw";

describe("raw JSON scanner", () => {
  it("keeps number source text (exponents, big integers, trailing zeros, -0)", () => {
    const node = parseRawJson("[1e5, 12345678901234567890, 1.50, -0, 2E-3, 0]");
    expect(node.kind).toBe("array");
    if (node.kind !== "array") return;
    expect(node.items.map(rawJsonToCell)).toEqual(["1e5", "12345678901234567890", "1.50", "-0", "2E-3", "0"]);
  });

  it("writes nested values as compact JSON with numbers as in the source", () => {
    const text = '{ "a" : [ 1e5 , {"b": 98765432109876543210} ], "s": "tab\\there \\u00e9 \\"q\\"", "t": true, "n": null }';
    expect(stringifyRawJson(parseRawJson(text))).toBe('{"a":[1e5,{"b":98765432109876543210}],"s":"tab\\there é \\"q\\"","t":true,"n":null}');
  });

  it("turns scalars into cells: strings as is, true/false, null → empty", () => {
    expect(rawJsonToCell(parseRawJson('"  x  "'))).toBe("  x  ");
    expect(rawJsonToCell(parseRawJson("true"))).toBe("true");
    expect(rawJsonToCell(parseRawJson("null"))).toBe("");
    expect(rawJsonToCell(parseRawJson("[]"))).toBe("[]");
  });

  it("decodes escapes like JSON.parse, including surrogate pairs", () => {
    const s = '"a\\nb\\\\c\\/d\\ud83d\\ude00\\b\\f\\r\\t"';
    expect(rawJsonToCell(parseRawJson(s))).toBe(JSON.parse(s));
  });

  it.each([
    ["[1,]", 3],
    ["01", 0],
    ["1.", 0],
    ["-", 0],
    ['"a\nb"', 2],
    ['{"a" 1}', 5],
    ["[1] x", 4],
    ['"unterminated', 0],
    ["'single'", 0],
    ["NaN", 0],
    ['"\\x"', 1],
  ])("rejects %j with the offset of the error", (text, offset) => {
    try {
      parseRawJson(text);
      expect.fail("should throw");
    } catch (e) {
      expect(e).toBeInstanceOf(JsonSyntaxError);
      expect((e as JsonSyntaxError).offset).toBe(offset);
    }
  });

  it("limits nesting depth without overflowing the stack", () => {
    expect(() => parseRawJson("[".repeat(300) + "]".repeat(300))).toThrow("nesting deeper than 256 levels");
    expect(() => parseRawJson("[".repeat(100000))).toThrow(JsonSyntaxError);
    expect(parseRawJson("[".repeat(10) + "]".repeat(10), 10).kind).toBe("array");
  });

  it("tryParseRawJson returns null on bad input", () => {
    expect(tryParseRawJson("{")).toBeNull();
    expect(tryParseRawJson("{}")?.kind).toBe("object");
  });

  it("computes 1-based line and column for any line-end style", () => {
    expect(lineColumnAt("a\nb\r\nc\rd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumnAt("a\nb\r\nc\rd", 2)).toEqual({ line: 2, column: 1 });
    expect(lineColumnAt("a\nb\r\nc\rd", 5)).toEqual({ line: 3, column: 1 });
    expect(lineColumnAt("a\nb\r\nc\rd", 7)).toEqual({ line: 4, column: 1 });
  });
});
