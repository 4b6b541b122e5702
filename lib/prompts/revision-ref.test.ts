import { describe, expect, it } from "vitest";
import { resolveRevisionRef } from "./revision-ref";

const revs = [
  { id: 10, number: 1 },
  { id: 11, number: 2 },
  { id: 12, number: 3 },
];

describe("resolveRevisionRef", () => {
  it("takes a number, rN, current and previous", () => {
    expect(resolveRevisionRef("2", revs, 12)).toEqual({ id: 11, number: 2 });
    expect(resolveRevisionRef("r3", revs, 12)).toEqual({ id: 12, number: 3 });
    expect(resolveRevisionRef("current", revs, 12)).toEqual({ id: 12, number: 3 });
    expect(resolveRevisionRef("previous", revs, 12)).toEqual({ id: 11, number: 2 });
  });
  it("says what exists when the revision does not", () => {
    expect(resolveRevisionRef("7", revs, 12)).toEqual({ error: "no revision 7 (it has r1, r2, r3; or write current or previous)" });
    expect(resolveRevisionRef("previous", [{ id: 10, number: 1 }], 10)).toEqual({
      error: "no revision before the current one r1 (it has r1): edit the prompt first, or name a revision",
    });
  });
});
