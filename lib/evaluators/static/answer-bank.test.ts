import { describe, expect, it } from "vitest";
import { runStaticCheck } from "../registry";
import { trial } from "../test-support/trial";

describe("answer_bank", () => {
  it.each([
    ["first answer", { answers: ["30 days", "thirty days"] }, "30 days", "passed", "accepted answer 1 of 2"],
    ["second answer", { answers: ["30 days", "thirty days"] }, "thirty days", "passed", "accepted answer 2 of 2"],
    ["none", { answers: ["30 days", "thirty days"] }, "a month", "failed", "equals none of the 2 accepted answers"],
    ["case-sensitive", { answers: ["Paris"] }, "paris", "failed", "only in letter case or surrounding whitespace"],
    ["ignoreCase", { answers: ["Paris"], ignoreCase: true }, "PARIS", "passed", "after ignoring letter case"],
    ["answer with commas is one answer", { answers: ["Paris, France", "Lyon"] }, "Paris, France", "passed", "accepted answer 1 of 2"],
    ["commas never split an answer", { answers: ["Paris, France"] }, "Paris", "failed", "none of the 1 accepted answer"],
    ["commas never split an answer (second part)", { answers: ["Paris, France"] }, "France", "failed", "none of the 1 accepted answer"],
    ["substring is not equality", { answers: ["30 days"] }, "30 days or so", "failed", "none of the 1"],
    ["trailing newline", { answers: ["yes"] }, "yes\n", "failed", "only in letter case or surrounding whitespace"],
    ["trim option", { answers: ["yes"], trim: true }, "yes\n", "passed", "after trimming surrounding whitespace"],
    ["NFD output", { answers: ["naïve"] }, "nai\u0308ve", "passed", "after Unicode normalization (NFC)"],
    ["NFD output, normalization off", { answers: ["naïve"], normalizeUnicode: false }, "nai\u0308ve", "failed", "none of the 1"],
    ["banking77 label", { answers: ["card_arrival", "card_linking"] }, "card_linking", "passed", "accepted answer 2 of 2"],
    ["label with wrong separator", { answers: ["card_arrival"] }, "card arrival", "failed", "accepted: “card_arrival”".replace(/[“”]/g, '"')],
    ["long bank is summarised", { answers: ["a", "b", "c", "d", "e", "f", "g"] }, "z", "failed", "… and 2 more"],
    ["empty output", { answers: ["x"] }, "", "failed", "output: ⟨empty⟩"],
  ] as const)("%s", (_name, spec, output, verdict, message) => {
    const r = runStaticCheck({ kind: "answer_bank", ...spec }, trial(output));
    expect(r.verdict).toBe(verdict);
    expect(r.message).toContain(message);
  });

  it("an empty bank is a configuration error, not a failure", () => {
    const r = runStaticCheck({ kind: "answer_bank", answers: [] }, trial("x"));
    expect(r.verdict).toBe("error");
    expect(r.message).toBe("evaluator configuration error: answers: the answer bank is empty: add at least one accepted answer");
  });

  it("records which answer matched", () => {
    expect(runStaticCheck({ kind: "answer_bank", answers: ["a", "b"] }, trial("b")).details).toEqual({ matchedIndex: 1 });
  });
});
