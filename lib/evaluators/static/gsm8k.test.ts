import { describe, expect, it } from "vitest";
import { runStaticCheck } from "../registry";
import { extractGsm8kAnswer, parseGsm8kExpected } from "./gsm8k";
import { trial, trialWithExpected } from "../test-support/trial";

type Row = [name: string, spec: Record<string, unknown>, output: string, verdict: "passed" | "failed", extracted: string | null, message: string];

describe("gsm8k", () => {
  it.each<Row>([
    [
      "upstream marker",
      { expected: "18" },
      "She makes 9 * 2 = $<<9*2=18>>18\n#### 18",
      "passed",
      "18",
      'The answer after the last "####" is 18, which equals the expected 18.',
    ],
    ["wrong answer", { expected: "18" }, "#### 26", "failed", "26", 'The answer after the last "####" is 26, but the expected answer is 18.'],
    ["last marker wins", { expected: "5" }, "#### 3\nWait, let me redo this.\n#### 5", "passed", "5", "is 5"],
    ["last marker wins (wrong)", { expected: "3" }, "#### 3\nrecheck\n#### 5", "failed", "5", "but the expected answer is 3"],
    ["thousands separator", { expected: "1234" }, "#### 1,234", "passed", "1234", '(written "1,234")'],
    ["value comparison 1,234 = 1234.00", { expected: "1,234" }, "#### 1234.00", "passed", "1234", "equals the expected 1234"],
    ["currency sign", { expected: "70000" }, "#### $70,000", "passed", "70000", '(written "$70,000")'],
    ["euro sign and trailing period", { expected: "12.5" }, "#### €12.50.", "passed", "12.5", "equals the expected 12.5"],
    ["markdown bold", { expected: "41" }, "**#### 41**", "passed", "41", "equals the expected 41"],
    ["markdown around number", { expected: "41" }, "#### **41**", "passed", "41", "equals the expected 41"],
    ["negative number", { expected: "-3" }, "#### -3", "passed", "-3", "equals the expected -3"],
    ["unicode minus", { expected: "-3" }, "#### \u22123", "passed", "-3", '(written "−3")'],
    ["sign matters", { expected: "3" }, "#### -3", "failed", "-3", "but the expected answer is 3"],
    ["negative currency", { expected: "-5" }, "#### -$5", "passed", "-5", "equals the expected -5"],
    ["zero forms", { expected: "0" }, "#### -0.00", "passed", "0", "equals the expected 0"],
    ["decimal vs integer differ", { expected: "10" }, "#### 10.5", "failed", "10.5", "but the expected answer is 10"],
    ["fraction compares by value", { expected: "0.75" }, "#### 3/4", "passed", "3/4", "equals the expected 0.75"],
    [
      "strict: no marker",
      { expected: "18" },
      "The answer is 18.",
      "failed",
      null,
      'the output has no "####" marker (strict mode). Expected 18. The last number in the output is 18; mode "flexible" would use it.',
    ],
    ["strict: marker without number", { expected: "18" }, "#### unknown", "failed", null, 'the last "####" marker is not followed by a number'],
    [
      "flexible: last number",
      { expected: "18", mode: "flexible" },
      "16 - 3 - 4 = 9 eggs, 9 * 2 = $18.",
      "passed",
      "18",
      'No "####" marker found; the last number in the output is 18',
    ],
    [
      "flexible: marker still preferred",
      { expected: "7", mode: "flexible" },
      "#### 7\nchecked 8 times",
      "passed",
      "7",
      'The answer after the last "####" is 7',
    ],
    ["flexible: no number at all", { expected: "7", mode: "flexible" }, "I do not know.", "failed", null, "no number"],
    ["flexible: range is not a negative number", { expected: "5", mode: "flexible" }, "between 10-5", "passed", "5", "is 5"],
    ["custom marker A:", { expected: "18", marker: "A:" }, "9 * 2 = 18\nA: 18", "passed", "18", 'The answer after the last "A:" is 18'],
    ["custom marker: last occurrence", { expected: "500000", marker: "A:" }, "paid by Publisher A: 5000 cents\nA: 500000", "passed", "500000", "equals"],
    ["custom marker at word start only", { expected: "5", marker: "A:" }, "USA: 3\nA: 5", "passed", "5", "equals"],
    ["custom marker ignores USA:", { expected: "3", marker: "A:" }, "USA: 3", "failed", null, 'no "A:" marker'],
    ["expected with comma", { expected: "2,125" }, "#### 2125", "passed", "2125", "equals the expected 2125"],
    ["expected given as a worked solution", { expected: "Half of 8 is 4.\n#### 4" }, "#### 4", "passed", "4", "equals the expected 4"],
    ["big integers exactly", { expected: "123456789012345678901" }, "#### 123,456,789,012,345,678,901", "passed", "123456789012345678901", "equals"],
    ["thin-space grouping", { expected: "1234567" }, "#### 1\u202f234\u202f567", "passed", "1234567", "equals"],
  ])("%s", (_name, spec, output, verdict, extracted, message) => {
    const r = runStaticCheck({ kind: "gsm8k", ...spec }, trial(output));
    expect(r.verdict).toBe(verdict);
    expect(r.details?.extracted).toBe(extracted);
    expect(r.message).toContain(message);
  });

  it("uses the case's expected result when the spec has none", () => {
    expect(runStaticCheck({ kind: "gsm8k" }, trialWithExpected("#### 72", "72")).verdict).toBe("passed");
  });

  it.each([
    [{ kind: "gsm8k", expected: "" }, "evaluator configuration error: expected is empty"],
    [{ kind: "gsm8k", expected: "eighteen" }, 'evaluator configuration error: expected is not a number: "eighteen"'],
    [{ kind: "gsm8k", expected: "18", marker: "" }, "evaluator configuration error: marker: marker is empty"],
  ])("configuration mistakes are errors: %j", (spec, message) => {
    const r = runStaticCheck(spec, trial("#### 18"));
    expect(r.verdict).toBe("error");
    expect(r.message.startsWith(message)).toBe(true);
  });

  it("extractGsm8kAnswer reports the method", () => {
    expect(extractGsm8kAnswer("x #### 5", "####", "strict")).toMatchObject({ method: "marker", markerFound: true, answer: { canonical: "5" } });
    expect(extractGsm8kAnswer("x 5", "####", "flexible")).toMatchObject({ method: "last-number", markerFound: false, answer: { canonical: "5" } });
    expect(extractGsm8kAnswer("x 5", "####", "strict")).toMatchObject({ method: "none", answer: null });
  });

  it("parseGsm8kExpected accepts numbers and solutions, rejects words", () => {
    expect(parseGsm8kExpected("2,125")?.canonical).toBe("2125");
    expect(parseGsm8kExpected(" 007.50 ")?.canonical).toBe("7.5");
    expect(parseGsm8kExpected("-0")?.canonical).toBe("0");
    expect(parseGsm8kExpected("#### 41")?.canonical).toBe("41");
    expect(parseGsm8kExpected("41 apples")).toBeNull();
    expect(parseGsm8kExpected("abc")).toBeNull();
  });
});
