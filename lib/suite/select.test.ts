import { describe, expect, it } from "vitest";
import { parseVariantSelector } from "./naming";
import { selectCases } from "./select";
import type { ReleaseCase } from "./types";

function c(id: string, evalId: string, index: number, module: string, labels: string[] = [], givenId = !id.endsWith("]")): ReleaseCase {
  return { id, evalId, index, givenId, labels, source: { module, file: module, index } } as unknown as ReleaseCase;
}

const cases = [
  c("policy-lookup", "policy-lookup", 0, "evals/policy-lookup.ts", ["smoke"]),
  c("unopened", "refunds", 0, "evals/refunds.ts", ["policy"]),
  c("refunds[1]", "refunds", 1, "evals/refunds.ts", ["policy", "edge"]),
  c("other[0]", "other", 0, "evals/other.ts"),
];
const v = (s: string) => parseVariantSelector(s)!;
const ids = (r: { selected: ReleaseCase[] }) => r.selected.map((x) => x.id);

describe("selectCases", () => {
  it("selects every case without selectors", () => {
    expect(ids(selectCases(cases, {}))).toEqual(["policy-lookup", "unopened", "refunds[1]", "other[0]"]);
  });

  it("--name selects by case id (exactly), --tag by label", () => {
    expect(ids(selectCases(cases, { names: ["unopened"] }))).toEqual(["unopened"]);
    expect(ids(selectCases(cases, { names: ["refunds[1]", "other[0]"] }))).toEqual(["refunds[1]", "other[0]"]);
    expect(ids(selectCases(cases, { names: ["Unopened"] }))).toEqual([]);
    expect(ids(selectCases(cases, { tags: ["edge", "smoke"] }))).toEqual(["policy-lookup", "refunds[1]"]);
  });

  it("--name EVAL[ID] selects a parameterised case by its given id or position, like FILE::EVAL[ID]", () => {
    expect(ids(selectCases(cases, { names: ["refunds[unopened]"] }))).toEqual(["unopened"]);
    expect(ids(selectCases(cases, { names: ["refunds[0]"] }))).toEqual(["unopened"]);
    expect(ids(selectCases(cases, { names: ["refunds[1]", "policy-lookup[0]"] }))).toEqual(["policy-lookup", "refunds[1]"]);
    const r = selectCases(cases, { names: ["other[unopened]", "refunds[2]"] });
    expect(ids(r)).toEqual([]);
    expect(r.unmatched).toEqual(["--name other[unopened]", "--name refunds[2]"]);
  });

  it("FILE::EVAL[ID] selects by given id or by position; FILE::EVAL selects the eval", () => {
    expect(ids(selectCases(cases, { variants: [v("evals/refunds.ts::refunds[unopened]")] }))).toEqual(["unopened"]);
    expect(ids(selectCases(cases, { variants: [v("evals/refunds.ts::refunds[0]")] }))).toEqual(["unopened"]);
    expect(ids(selectCases(cases, { variants: [v("./evals/refunds.ts::refunds[1]")] }))).toEqual(["refunds[1]"]);
    expect(ids(selectCases(cases, { variants: [v("evals/refunds.ts::refunds")] }))).toEqual(["unopened", "refunds[1]"]);
    expect(ids(selectCases(cases, { variants: [v("evals/other.ts::refunds[0]")] }))).toEqual([]);
  });

  it("combines kinds (each must hold) and reports selectors that matched nothing", () => {
    const r = selectCases(cases, { tags: ["policy"], names: ["refunds[1]", "typo"], variants: [v("evals/none.ts::x")] });
    expect(ids(r)).toEqual([]);
    expect(r.unmatched).toEqual(["--name typo", "evals/none.ts::x"]);
    expect(ids(selectCases(cases, { tags: ["policy"], names: ["refunds[1]", "policy-lookup"] }))).toEqual(["refunds[1]"]);
  });

  it("uses the shell's file matcher (paths relative to the working folder)", () => {
    const r = selectCases(cases, { variants: [v("examples/x/evals/other.ts::other[0]")] }, (file, module) => file === `examples/x/${module}`);
    expect(ids(r)).toEqual(["other[0]"]);
  });
});
