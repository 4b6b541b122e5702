import { describe, expect, it } from "vitest";
import { evalIdProblem, isVariantSelector, parseCaseName, parseVariantSelector, positionalName } from "./naming";

describe("naming", () => {
  it("names a case without an id by its eval and 0-based position", () => {
    expect(positionalName("refunds", 0)).toBe("refunds[0]");
    expect(positionalName("refunds", 12)).toBe("refunds[12]");
  });

  it("parses FILE::EVAL[ID], FILE::EVAL and FILE::", () => {
    expect(parseVariantSelector("evals/refunds.ts::refunds[holiday]")).toEqual({
      text: "evals/refunds.ts::refunds[holiday]",
      file: "evals/refunds.ts",
      evalId: "refunds",
      variant: "holiday",
    });
    expect(parseVariantSelector("evals/refunds.ts::refunds[0]")?.variant).toBe("0");
    expect(parseVariantSelector("evals/refunds.ts::refunds")).toMatchObject({ evalId: "refunds", variant: null });
    expect(parseVariantSelector("evals/refunds.ts::")).toMatchObject({ evalId: null, variant: null });
    expect(parseVariantSelector("a.ts::e[x[1]]")).toMatchObject({ evalId: "e", variant: "x[1]" });
  });

  it("splits a case name EVAL[ID] for --name", () => {
    expect(parseCaseName("refunds[holiday]")).toEqual({ evalId: "refunds", variant: "holiday" });
    expect(parseCaseName("e[x[1]]")).toEqual({ evalId: "e", variant: "x[1]" });
    for (const plain of ["holiday", "[1]", "refunds[]", "refunds[1", "a]"]) expect(parseCaseName(plain), plain).toBeNull();
  });

  it("rejects malformed selectors", () => {
    for (const bad of ["refunds[0]", "::refunds", "a.ts::refunds[", "a.ts::refunds[]", "a.ts::[1]", "a.ts::ref]unds"])
      expect(parseVariantSelector(bad), bad).toBeNull();
    expect(isVariantSelector("a.ts::x")).toBe(true);
    expect(isVariantSelector("examples/x")).toBe(false);
  });

  it("refuses eval ids that would break selectors", () => {
    expect(evalIdProblem("refund-decision")).toBeNull();
    expect(evalIdProblem("")).toMatch(/empty/);
    expect(evalIdProblem(" x")).toMatch(/spaces/);
    expect(evalIdProblem("a[1]")).toMatch(/"\["/);
    expect(evalIdProblem("a::b")).toMatch(/::/);
  });
});
