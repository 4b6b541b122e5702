import { describe, expect, it } from "vitest";
import { isStalled, stalledText } from "./stalled-claims";

describe("stalled claims in progress", () => {
  const lease = 60_000;
  it("counts a claim as stalled once it has less than half a lease left (a live worker renews every quarter)", () => {
    expect(isStalled(1_000 + lease, 1_000, lease)).toBe(false); // just claimed or renewed
    expect(isStalled(1_000 + lease * 0.75, 1_000, lease)).toBe(false); // due for renewal
    expect(isStalled(1_000 + lease * 0.49, 1_000, lease)).toBe(true); // two renewals missed
    expect(isStalled(500, 1_000, lease)).toBe(true); // expired, not yet given back
  });
  it("says how many trials wait and until when", () => {
    const clock = (ms: number) => `t${ms}`;
    expect(stalledText({ trials: 8, runAgainAt: 5_000 }, 1_000, clock)).toBe("8 held by a worker that stopped responding — they run again by t5000");
    expect(stalledText({ trials: 1, runAgainAt: 900 }, 1_000, clock)).toBe(
      "1 held by a worker that stopped responding — it runs again when a worker next looks for work",
    );
  });
});

describe("bench run's progress line", () => {
  it("adds the stalled trials and when they run again, and is unchanged without them", async () => {
    const { progressLine } = await import("./progress-line");
    const p = { done: 4, error: 1, skipped: 0, total: 40 };
    expect(progressLine({ ...p, stalled: null }, 0)).toBe("  5/40 trials · 4 done · 1 error · 0 skipped");
    expect(progressLine({ ...p, stalled: { trials: 8, runAgainAt: 9_000 } }, 1_000, (ms) => `at ${ms}`)).toBe(
      "  5/40 trials · 4 done · 1 error · 0 skipped · 8 held by a worker that stopped responding — they run again by at 9000",
    );
  });

  it("counts an errored trial a rerun replaced as rerun, not as an error, as the page's bar does (issue #16)", async () => {
    const { progressLine } = await import("./progress-line");
    expect(progressLine({ done: 40, error: 2, errorsRerun: 2, skipped: 0, total: 42 }, 0)).toBe("  42/42 trials · 40 done · 0 errors (2 rerun) · 0 skipped");
    expect(progressLine({ done: 40, error: 3, errorsRerun: 1, skipped: 0, total: 43 }, 0)).toBe("  43/43 trials · 40 done · 2 errors (1 rerun) · 0 skipped");
  });
});
