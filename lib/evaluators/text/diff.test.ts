import { describe, expect, it } from "vitest";
import { describeDifference, equalIgnoringWhitespace, firstDifference, includesIgnoringWhitespace, shortReadable, shortVisible } from "./diff";
import { isBlank, trimInvisible, visualize } from "./invisible";

describe("text diff", () => {
  it("finds the first difference with line and column", () => {
    expect(firstDifference("ab\ncd", "ab\nce")).toEqual({ index: 4, character: 5, line: 2, column: 2 });
    expect(firstDifference("same", "same")).toBeNull();
    expect(firstDifference("abc", "ab")).toEqual({ index: 2, character: 3, line: 1, column: 3 });
  });

  it("never splits a surrogate pair and counts code points", () => {
    // 😀 and 😃 share their high surrogate.
    expect(firstDifference("x😀", "x😃")).toEqual({ index: 1, character: 2, line: 1, column: 2 });
    expect(firstDifference("😀a", "😀b")).toEqual({ index: 2, character: 2, line: 1, column: 2 });
  });

  it("visualises invisible characters", () => {
    expect(visualize("a b\n\tc\u200b\u00a0\ufeff")).toBe("a·b↵→c⟨ZWSP⟩⟨NBSP⟩⟨BOM⟩");
    expect(shortVisible("abcdef", 3)).toBe("abc…");
  });

  it("notes trailing whitespace", () => {
    expect(describeDifference("ok", "ok \n")).toBe(
      [
        "First difference at character 3 (line 1, column 3):",
        "  expected: ok⟨end⟩",
        "  actual:   ok·↵",
        "              ^",
        "The output has extra whitespace at the end: ·↵",
      ].join("\n"),
    );
  });

  it("names invisible characters at the difference", () => {
    expect(describeDifference("a b", "a\u00a0b")).toContain("At that position the expected text has · (U+0020) and the output has ⟨NBSP⟩ (U+00A0).");
  });

  it("blank detection and trimming", () => {
    expect(isBlank("\u200b \ufeff\n")).toBe(true);
    expect(isBlank("\u200b.")).toBe(false);
    expect(trimInvisible("\u200b hi \ufeff")).toBe("hi");
  });

  it.each([
    ["30 days", "It is 30\n  days.", true],
    ["30 days", "It is 30days.", false],
    [" a  b ", "xa\tby", true],
    ["thirty days", "the the thirty  days", true],
    ["abc", "ab c", false],
  ])("includesIgnoringWhitespace(%j in %j) = %s", (needle, hay, expected) => {
    expect(includesIgnoringWhitespace(hay, needle)).toBe(expected);
  });

  it("equalIgnoringWhitespace and shortReadable", () => {
    expect(equalIgnoringWhitespace(" a  b\n", "a b")).toBe(true);
    expect(equalIgnoringWhitespace("a b", "ab")).toBe(false);
    expect(shortReadable("a b\nc\u200b", 10)).toBe("a b↵c⟨ZWSP⟩");
  });
});
