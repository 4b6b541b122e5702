import { describe, expect, it } from "vitest";
import { formatValue, typeWord, valuesEqual } from "./values";

describe("valuesEqual", () => {
  it.each([
    [3, 3.0, true],
    [3, "3", false],
    ["3", 3, false],
    [true, "true", false],
    [0, false, false],
    [null, null, true],
    [null, undefined, false],
    ["a", "A", false],
    [[1, 2], [1, 2], true],
    [[1, 2], [2, 1], false],
    [[1, 2], [1, 2, 3], false],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, true],
    [{ a: 1 }, { a: 1, b: null }, false],
    [{ a: [1, { x: "y" }] }, { a: [1, { x: "y" }] }, true],
    [{ a: [] }, { a: {} }, false],
    [[], {}, false],
  ])("%j vs %j → %s", (a, b, expected) => {
    expect(valuesEqual(a, b)).toBe(expected);
    expect(valuesEqual(b, a)).toBe(expected);
  });

  it("formats values for messages", () => {
    expect(formatValue("x")).toBe('"x"');
    expect(formatValue({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(formatValue("x".repeat(100), 10)).toBe('"xxxxxxxx…');
    expect(formatValue(undefined)).toBe("undefined");
    expect([typeWord("a"), typeWord(1), typeWord([]), typeWord(null), typeWord({}), typeWord(true)]).toEqual([
      "a string",
      "a number",
      "an array",
      "null",
      "an object",
      "a boolean",
    ]);
  });
});
