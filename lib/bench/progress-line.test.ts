import { describe, expect, it } from "vitest";
import { progressLine } from "./progress-line";

describe("progressLine", () => {
  it("names the skipped trials of a cancelled rerun, as the page's bar does (issue #16)", () => {
    const p = { done: 10, error: 1, errorsRerun: 1, skipped: 104, skippedRerunCancelled: 6, total: 115 };
    expect(progressLine(p, 0)).toBe("  115/115 trials · 10 done · 0 errors (1 rerun) · 104 skipped (6: rerun cancelled)");
    expect(progressLine({ ...p, skippedRerunCancelled: 0 }, 0)).toBe("  115/115 trials · 10 done · 0 errors (1 rerun) · 104 skipped");
  });

  it("writes every count with thousands separators", () => {
    expect(progressLine({ done: 19_000, error: 1_000, skipped: 0, total: 20_000 }, 0)).toBe("  20,000/20,000 trials · 19,000 done · 1,000 errors · 0 skipped");
  });

  it("says when no worker has picked up the bench (a server's progress: noWorkerSince), so a CI log tells why it waits", () => {
    const p = { done: 0, error: 0, skipped: 0, total: 40 };
    expect(progressLine({ ...p, noWorkerSince: 1_000 }, 24_400)).toBe(
      "  0/40 trials · 0 done · 0 errors · 0 skipped · no worker has picked up this bench yet (waiting 23s): is a worker running on the server?",
    );
    expect(progressLine({ ...p, noWorkerSince: null }, 24_400)).toBe("  0/40 trials · 0 done · 0 errors · 0 skipped");
  });
});
