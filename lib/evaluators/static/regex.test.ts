import { describe, expect, it } from "vitest";
import { runStaticCheck } from "../registry";
import { findNestedQuantifier } from "./regex";
import { trial } from "../test-support/trial";

describe("regex", () => {
  it.each([
    ["digits", { pattern: "^\\d+$" }, "12345", "passed", 'matches /^\\d+$/ at character 1: "12345"'],
    ["digits fail", { pattern: "^\\d+$" }, "12a45", "failed", "does not match /^\\d+$/"],
    ["case-insensitive flag", { pattern: "paris", flags: "i" }, "PARIS", "passed", "matches /paris/i"],
    ["case-sensitive without flag", { pattern: "paris" }, "PARIS", "failed", "does not match"],
    ["g flag is ignored (no lastIndex state)", { pattern: "a", flags: "g" }, "a", "passed", "matches /a/"],
    ["multiline flag", { pattern: "^b$", flags: "m" }, "a\nb", "passed", "at character 3"],
    ["dotAll flag", { pattern: "a.b", flags: "s" }, "a\nb", "passed", "matches"],
    ["unicode property", { pattern: "\\p{Lu}", flags: "u" }, "élan É", "passed", 'at character 6: "É"'],
  ] as const)("%s", (_name, spec, output, verdict, message) => {
    const r = runStaticCheck({ kind: "regex", ...spec }, trial(output));
    expect(r.verdict).toBe(verdict);
    expect(r.message).toContain(message);
  });

  it("the same spec gives the same answer on repeated calls (no sticky state)", () => {
    const spec = { kind: "regex", pattern: "x", flags: "g" };
    expect([1, 2, 3].map(() => runStaticCheck(spec, trial("x")).verdict)).toEqual(["passed", "passed", "passed"]);
  });

  it.each([
    [{ pattern: "(" }, "pattern: pattern is not a valid regular expression"],
    [{ pattern: "" }, "pattern: pattern is empty"],
    [{ pattern: "a", flags: "y" }, "flags: flag y (sticky) is not supported"],
    [{ pattern: "a", flags: "q" }, 'flags: unknown regular-expression flag "q"'],
    [{ pattern: "^(a+)+$" }, 'pattern repeats a group that itself repeats without bound ("(a+)+")'],
  ])("configuration mistakes are errors: %j", (spec, message) => {
    const r = runStaticCheck({ kind: "regex", ...spec }, trial("aaaa"));
    expect(r.verdict).toBe("error");
    expect(r.message).toContain(message);
  });

  it.each([
    ["(a+)+", "(a+)+"],
    ["(\\w*)*x", "(\\w*)*"],
    ["((ab)+c)+", "((ab)+c)+"],
    ["(x+y?){2,}", "(x+y?){2,}"],
    ["([a-z]+\\s?)*$", "([a-z]+\\s?)*"],
  ])("flags nested repetition %s", (pattern, fragment) => {
    expect(findNestedQuantifier(pattern)).toBe(fragment);
  });

  it.each(["(ab)+", "a+b+", "(\\d{3}-)+\\d{4}", "[(+*)]+", "\\(a+\\)+", "(a|b)?c*"])("does not flag %s", (pattern) => {
    expect(findNestedQuantifier(pattern)).toBeNull();
  });
});
