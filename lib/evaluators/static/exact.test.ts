import { describe, expect, it } from "vitest";
import { runStaticCheck } from "../registry";
import { trial, trialWithExpected } from "../test-support/trial";

describe("exact", () => {
  it.each([
    ["identical", { expected: "30 days" }, "30 days", "passed", "matches the expected text exactly"],
    ["case differs", { expected: "30 days" }, "30 Days", "failed", "differ only in letter case"],
    ["trailing newline", { expected: "30 days" }, "30 days\n", "failed", "extra whitespace at the end: ↵"],
    ["leading space", { expected: "30 days" }, " 30 days", "failed", "leading or trailing whitespace"],
    ["missing text", { expected: "30 days" }, "30", "failed", "stops early: 5 expected characters are missing"],
    ["extra text", { expected: "30 days" }, "30 days left", "failed", "continues after the expected text (5 extra characters)"],
    ["NBSP instead of space", { expected: "30 days" }, "30\u00a0days", "failed", "⟨NBSP⟩"],
    ["zero-width space inside", { expected: "30 days" }, "30 d\u200bays", "failed", "⟨ZWSP⟩"],
    ["NFC vs NFD (normalization on)", { expected: "caf\u00e9" }, "cafe\u0301", "passed", "after Unicode normalization (NFC)"],
    ["NFC vs NFD (normalization off)", { expected: "caf\u00e9", normalizeUnicode: false }, "cafe\u0301", "failed", "would match with Unicode normalization"],
    ["ignoreCase option", { expected: "Paris", ignoreCase: true }, "PARIS", "passed", "after ignoring letter case"],
    ["trim option", { expected: "Paris", trim: true }, "  Paris\n", "passed", "after trimming surrounding whitespace"],
    ["trim option still case-sensitive", { expected: "Paris", trim: true }, " paris ", "failed", "differ only in letter case"],
    ["multi-line diff position", { expected: "a\nb\nc" }, "a\nb\nd", "failed", "line 3, column 1"],
    ["tab vs spaces", { expected: "a\tb" }, "a  b", "failed", "a→b"],
    ["empty output", { expected: "x" }, "", "failed", "stops early"],
    ["unicode punctuation", { expected: "it's" }, "it\u2019s", "failed", "character 3"],
  ] as const)("%s", (_name, spec, output, verdict, message) => {
    const r = runStaticCheck({ kind: "exact", ...spec }, trial(output));
    expect(r.verdict).toBe(verdict);
    expect(r.message).toContain(message);
  });

  it("shows both strings aligned with a caret under the first difference", () => {
    const r = runStaticCheck({ kind: "exact", expected: "The return window is 30 days." }, trial("The return window is 60 days."));
    expect(r.message).toBe(
      [
        "The output does not match the expected text.",
        "First difference at character 22 (line 1, column 22):",
        "  expected: …he·return·window·is·30·days.",
        "  actual:   …he·return·window·is·60·days.",
        " ".repeat(33) + "^",
      ].join("\n"),
    );
  });

  it("uses the case's expected result when the spec has none", () => {
    expect(runStaticCheck({ kind: "exact" }, trialWithExpected("42", "42")).verdict).toBe("passed");
    const r = runStaticCheck({ kind: "exact" }, trialWithExpected("41", "42"));
    expect(r.verdict).toBe("failed");
    expect(r.details).toMatchObject({ expectedSource: "case", expected: "42" });
  });

  it.each([
    ["empty expected in spec", { kind: "exact", expected: "" }, trial("x"), "evaluator configuration error: expected is empty"],
    ["whitespace expected", { kind: "exact", expected: "  " }, trial("x"), "evaluator configuration error: expected is empty"],
    ["no expected anywhere", { kind: "exact" }, trial("x"), "evaluator configuration error: expected is not set and the case's expected result is empty"],
  ])("%s is an error, not a model failure", (_name, spec, t, message) => {
    const r = runStaticCheck(spec, t);
    expect(r.verdict).toBe("error");
    expect(r.score).toBe(0);
    expect(r.message).toBe(message);
  });
});
