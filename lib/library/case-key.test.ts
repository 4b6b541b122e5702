import { describe, expect, it } from "vitest";
import { caseKeyProblem, generateCaseKey } from "./case-key";

describe("case IDs", () => {
  it.each([
    ["refund-1", null],
    ["refunds[0]", null],
    ["Straße·1", null],
    ["", "Case ID is empty."],
    ["   ", "Case ID cannot be blank."],
    [" x", "Case ID must not start or end with spaces."],
    ["a\tb", "Case ID must not contain control characters (tabs, newlines)."],
    ["\u202Eevil", "Case ID must not contain invisible or direction-changing characters (such as zero-width spaces or U+202E)."],
    ["zw\u200bsp", "Case ID must not contain invisible or direction-changing characters (such as zero-width spaces or U+202E)."],
    ["x".repeat(129), "Case ID is 129 characters; the limit is 128."],
  ])("%j → %j", (key, problem) => {
    expect(caseKeyProblem(key)).toBe(problem);
  });

  it("generates prompt-name slugs with 8 base32 characters", () => {
    expect(generateCaseKey("Support Agent!", (n) => new Uint8Array(n).fill(33))).toBe("support-agent-11111111");
    expect(generateCaseKey("???", (n) => new Uint8Array(n))).toBe("case-00000000");
  });
});
