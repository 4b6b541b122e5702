import { describe, expect, it } from "vitest";
import { plannedRepeat, trialRepeatLabel, type RepeatTrial } from "./repeat-label";

const t = (id: number, repeat: number, rerun: RepeatTrial["rerun"] = null, rerunOf: number | null = null): RepeatTrial => ({ id, repeat, rerun, rerunOf });

describe("a trial's name among its case's trials", () => {
  it("names an error rerun by its errored trial's repeat, following a rerun of a rerun back", () => {
    // Repeat 1 errored, its rerun (repeat index 2) errored too, rerun again (index 3).
    const list = [t(10, 1), t(11, 2, "error", 10), t(12, 3, "error", 11)];
    expect(list.map((x) => trialRepeatLabel(x, list))).toEqual([
      "repeat 1 (errored, rerun)",
      "repeat 1 (error rerun; errored, rerun)",
      "repeat 1 (error rerun)",
    ]);
    expect(plannedRepeat(list[2], list)).toBe(1);
  });

  it("keeps a planned repeat and a confirm round's repeat as they are", () => {
    const list = [t(1, 1), t(2, 2), t(3, 3, "confirm")];
    expect(list.map((x) => trialRepeatLabel(x, list))).toEqual(["repeat 1", "repeat 2", "repeat 3 (confirm rerun)"]);
  });

  it("does not loop on a malformed chain", () => {
    const list = [t(1, 1, "error", 2), t(2, 2, "error", 1)];
    expect(typeof plannedRepeat(list[0], list)).toBe("number");
  });
});
