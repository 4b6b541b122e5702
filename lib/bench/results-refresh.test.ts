import { describe, expect, it } from "vitest";
import { ResultsRefresh } from "./results-refresh";

// A running bench's page re-reads its server-rendered results (candidates table, matrix) while
// the progress bar polls. The tester's bench (PostgreSQL, 60 trials) finished every trial within
// the first second after the page loaded: the bar said 60 done while the table stayed at
// "0/0/0 (60 pending)", because the pacer took its baseline from the first poll (60), not from
// what the page had rendered (0), and so never saw a change until the bench was finalized.
describe("ResultsRefresh", () => {
  it("refreshes when the first poll already differs from what the page rendered", () => {
    const r = new ResultsRefresh(0, 0, 5_000);
    expect(r.due(60, 1_000)).toBe(false); // not sooner than the pace
    expect(r.due(60, 4_999)).toBe(false);
    expect(r.due(60, 5_000)).toBe(true);
    // Shown now: no further refresh while nothing changes.
    expect(r.due(60, 20_000)).toBe(false);
  });

  it("does not refresh while the count stays what the page rendered", () => {
    const r = new ResultsRefresh(12, 0, 5_000);
    for (let t = 1_000; t <= 30_000; t += 1_000) expect(r.due(12, t)).toBe(false);
  });

  it("paces refreshes and catches up with the last count (trailing refresh)", () => {
    const r = new ResultsRefresh(0, 0, 5_000);
    expect(r.due(10, 5_000)).toBe(true);
    expect(r.due(20, 6_000)).toBe(false);
    expect(r.due(30, 7_000)).toBe(false);
    // The count stopped changing before the pace allowed a refresh: it still comes.
    expect(r.due(30, 10_000)).toBe(true);
    expect(r.due(30, 16_000)).toBe(false);
  });
});
