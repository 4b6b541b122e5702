import { describe, expect, it } from "vitest";
import { runStaticCheck } from "../registry";
import { trial } from "../test-support/trial";

const spec = { kind: "non_empty" } as const;

describe("non_empty", () => {
  it.each([
    ["empty string", "", "failed", "The output is empty."],
    ["null output", null, "failed", "The output is empty."],
    ["one space", " ", "failed", "1 × U+0020 SPACE"],
    ["newlines and tabs", "\n\t\r\n", "failed", "only invisible characters"],
    ["zero-width space", "\u200b", "failed", "U+200B ZERO WIDTH SPACE"],
    ["BOM", "\ufeff", "failed", "U+FEFF"],
    ["NBSP", "\u00a0\u00a0", "failed", "2 × U+00A0 NO-BREAK SPACE"],
    ["word joiner + ZWJ + ZWNJ", "\u2060\u200d\u200c", "failed", "U+2060 WORD JOINER"],
    ["narrow NBSP + ideographic space", "\u202f\u3000", "failed", "U+3000 IDEOGRAPHIC SPACE"],
    ["soft hyphen", "\u00ad", "failed", "U+00AD SOFT HYPHEN"],
    ["direction marks", "\u200e\u200f", "failed", "LEFT-TO-RIGHT MARK"],
    ["Hangul filler", "\u3164", "failed", "U+3164"],
    ["braille blank", "\u2800", "failed", "U+2800"],
    ["variation selector", "\ufe0f", "failed", "U+FE0F"],
    ["zero", "0", "passed", "The output is not empty."],
    ["false", "false", "passed", "The output is not empty."],
    ["a period", ".", "passed", "The output is not empty."],
    ["text around invisible", "\u200bok\u200b", "passed", "The output is not empty."],
    ["emoji", "👍", "passed", "The output is not empty."],
    ["hyphen", "-", "passed", "The output is not empty."],
  ] as const)("%s", (_name, output, verdict, message) => {
    const r = runStaticCheck(spec, trial(output));
    expect(r.verdict).toBe(verdict);
    expect(r.score).toBe(verdict === "passed" ? 1 : 0);
    expect(r.message).toContain(message);
    expect(r.kind).toBe("non_empty");
  });
});
