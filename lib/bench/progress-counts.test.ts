import { describe, expect, it } from "vitest";
import { progressCounts } from "./progress-counts";

describe("the progress counts line", () => {
  it("says how many of the skipped trials a cancelled rerun left (issue #16: '104 skipped' with no word on the 6 that were not budget)", () => {
    expect(progressCounts({ done: 22, error: 0, skipped: 104, skippedRerunCancelled: 6, running: 0 })).toBe(
      "22 done · 0 errors · 104 skipped (6: rerun cancelled)",
    );
    expect(progressCounts({ done: 22, error: 0, skipped: 98, skippedRerunCancelled: 0, running: 0 })).toBe("22 done · 0 errors · 98 skipped");
    // Progress read before the field existed.
    expect(progressCounts({ done: 1, error: 1, skipped: 0, running: 2 })).toBe("1 done · 1 error · 0 skipped · 2 claimed by workers");
  });
});
