import { describe, expect, it } from "vitest";
import { runStaticCheck } from "../registry";
import { trial, trialWithExpected } from "../test-support/trial";

describe("contains", () => {
  it.each([
    ["substring present", { expected: "30 days" }, "Returns are accepted within 30 days.", "passed", "at character 29"],
    ["whole output", { expected: "30 days" }, "30 days", "passed", "at character 1"],
    ["absent", { expected: "30 days" }, "Returns are accepted within a month.", "failed", "does not contain the expected text"],
    ["case-sensitive", { expected: "30 days" }, "Within 30 DAYS.", "failed", "appears with different letter case at character 8"],
    ["ignoreCase option", { expected: "30 days", ignoreCase: true }, "Within 30 DAYS.", "passed", "after ignoring letter case"],
    ["regex metacharacters are literal (miss)", { expected: "a.c" }, "abc", "failed", "does not contain"],
    ["regex metacharacters are literal (hit)", { expected: "a.c" }, "xa.cx", "passed", "contains the expected text"],
    ["star is literal", { expected: "2*3" }, "2*3=6", "passed", "at character 1"],
    ["brackets are literal", { expected: "[x]" }, "x", "failed", "does not contain"],
    ["backslash and dollar are literal", { expected: "\\d+$" }, "price \\d+$ here", "passed", "contains the expected text"],
    ["line break in needle", { expected: "a\nb" }, "xa\nbx", "passed", "contains the expected text"],
    ["different spacing hint", { expected: "30 days" }, "30\n days", "failed", "different spacing or line breaks"],
    ["NFD output, NFC needle", { expected: "café" }, "un cafe\u0301 noir", "passed", "after Unicode normalization (NFC)"],
    ["normalization off", { expected: "café", normalizeUnicode: false }, "un cafe\u0301 noir", "failed", "would be found with Unicode normalization"],
    ["empty output", { expected: "x" }, "", "failed", "output (0 characters): ⟨empty⟩"],
    ["trim option trims the needle", { expected: " days ", trim: true }, "30 days.", "passed", "after trimming the expected text"],
    ["emoji", { expected: "👍" }, "great 👍!", "passed", "contains the expected text"],
  ] as const)("%s", (_name, spec, output, verdict, message) => {
    const r = runStaticCheck({ kind: "contains", ...spec }, trial(output));
    expect(r.verdict).toBe(verdict);
    expect(r.message).toContain(message);
  });

  it("uses the case's expected result when the spec has none", () => {
    expect(runStaticCheck({ kind: "contains" }, trialWithExpected("It is 60 days.", "60 days")).verdict).toBe("passed");
    expect(runStaticCheck({ kind: "contains" }, trialWithExpected("It is 30 days.", "60 days")).verdict).toBe("failed");
  });

  it("empty expected is a configuration error", () => {
    const r = runStaticCheck({ kind: "contains", expected: "" }, trial("anything"));
    expect(r.verdict).toBe("error");
    expect(r.message).toBe("evaluator configuration error: expected is empty");
  });
});

describe("contains and Unicode normalization", () => {
  it("does not find a letter inside a decomposed accented letter", () => {
    expect(runStaticCheck({ kind: "contains", expected: "e" }, trial("cafe\u0301")).verdict).toBe("failed");
    expect(runStaticCheck({ kind: "contains", expected: "e", normalizeUnicode: false }, trial("cafe\u0301")).verdict).toBe("passed");
  });
});
