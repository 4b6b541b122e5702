import { describe, expect, it } from "vitest";
import { resolveCollisions, type ExistingCase } from "./collisions";

const used = { datasetId: 7, datasetName: "capitals", version: 2 };
const rows = [
  { row: 1, caseKey: "cap-01" },
  { row: 2, caseKey: "cap-02" },
  { row: 3, caseKey: "cap-03" },
];
const fromV1 = (caseId: number, caseKey: string): ExistingCase => ({ caseId, caseKey, dataset: { datasetId: 7, version: 1 } });

describe("resolveCollisions", () => {
  it("without a choice, a collision is refused and the message names the choices", () => {
    const plan = resolveCollisions(rows, new Map([["cap-02", fromV1(11, "cap-02")]]), used, undefined);
    expect(plan.collisions.map((c) => c.row)).toEqual([2]);
    expect(plan.refusals).toHaveLength(1);
    expect(plan.refusals[0]).toContain("row 2 (“cap-02”)");
    expect(plan.refusals[0]).toContain("skip those rows, prefix them with the dataset's name, or make new revisions");
  });

  it("offers no new revisions when the existing case is not from an earlier version of the same dataset", () => {
    const other: ExistingCase = { caseId: 12, caseKey: "cap-01" };
    const plan = resolveCollisions(rows, new Map([["cap-01", other]]), used, undefined);
    expect(plan.refusals[0]).toContain("skip those rows or prefix them");
    expect(plan.refusals[0]).not.toContain("revisions");
  });

  it("skip leaves the colliding rows out", () => {
    const plan = resolveCollisions(
      rows,
      new Map([
        ["cap-01", fromV1(10, "cap-01")],
        ["cap-03", fromV1(12, "cap-03")],
      ]),
      used,
      "skip",
    );
    expect(plan.refusals).toEqual([]);
    expect(plan.skipped).toEqual([1, 3]);
  });

  it("prefix gives the colliding rows the dataset's name as a prefix", () => {
    const plan = resolveCollisions(rows, new Map([["cap-02", { caseId: 5, caseKey: "cap-02" }]]), used, "prefix");
    expect(plan.refusals).toEqual([]);
    expect([...plan.renamed]).toEqual([[2, "capitals-cap-02"]]);
  });

  it("prefix is refused when the prefixed ID is taken too", () => {
    const existing = new Map<string, ExistingCase>([
      ["cap-02", { caseId: 5, caseKey: "cap-02" }],
      ["capitals-cap-02", { caseId: 6, caseKey: "capitals-cap-02" }],
    ]);
    const plan = resolveCollisions(rows, existing, used, "prefix");
    expect(plan.refusals).toEqual(["Row 2: the prefixed case ID “capitals-cap-02” is also taken."]);
  });

  it("revise makes new revisions of cases from an earlier version of the same dataset", () => {
    const plan = resolveCollisions(rows, new Map([["cap-01", fromV1(10, "cap-01")]]), used, "revise");
    expect(plan.refusals).toEqual([]);
    expect(plan.revised.get(1)?.caseId).toBe(10);
  });

  it("revise is refused for cases of another dataset or of the same or a later version", () => {
    const sameVersion: ExistingCase = { caseId: 10, caseKey: "cap-01", dataset: { datasetId: 7, version: 2 } };
    const otherSet: ExistingCase = { caseId: 11, caseKey: "cap-02", dataset: { datasetId: 8, version: 1 } };
    const plan = resolveCollisions(
      rows,
      new Map([
        ["cap-01", sameVersion],
        ["cap-02", otherSet],
      ]),
      used,
      "revise",
    );
    expect(plan.revised.size).toBe(0);
    expect(plan.refusals[0]).toContain("row 1 (“cap-01”), row 2 (“cap-02”) collide with other cases");
  });

  it("no collision, no refusal, whatever the choice", () => {
    expect(resolveCollisions(rows, new Map(), used, undefined).refusals).toEqual([]);
  });
});
