import { describe, expect, it } from "vitest";
import { reviewQueue, seededSample } from "./sample";

const ids = Array.from({ length: 50 }, (_, i) => i + 1);

describe("which trials a review walks", () => {
  it("a seeded sample is reproducible, has no repeats, and another seed draws another one", () => {
    const a = seededSample(ids, 10, 42);
    expect(seededSample(ids, 10, 42)).toEqual(a);
    expect(new Set(a).size).toBe(10);
    expect(a.every((x) => ids.includes(x))).toBe(true);
    expect(seededSample(ids, 10, 43)).not.toEqual(a);
    expect(seededSample([1, 2, 3], 10, 1).sort()).toEqual([1, 2, 3]);
  });

  it("filters pick failures, regressions, disagreements and unreviewed trials in order", () => {
    const trials = [
      { trialId: 1, failed: true, regressed: false, disagrees: false, unreviewed: true },
      { trialId: 2, failed: false, regressed: false, disagrees: true, unreviewed: false },
      { trialId: 3, failed: true, regressed: true, disagrees: false, unreviewed: false },
    ];
    expect(reviewQueue(trials, "failures")).toEqual([1, 3]);
    expect(reviewQueue(trials, "regressions")).toEqual([3]);
    expect(reviewQueue(trials, "disagreements")).toEqual([2]);
    expect(reviewQueue(trials, "unreviewed")).toEqual([1]);
    expect(reviewQueue(trials, "all")).toEqual([1, 2, 3]);
    // The trial on screen stays in place after its verdict takes it out of "unreviewed".
    expect(reviewQueue(trials, "unreviewed", { keep: 2 })).toEqual([1, 2]);
  });
});
