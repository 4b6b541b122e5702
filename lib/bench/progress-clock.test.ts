import { describe, expect, it } from "vitest";
import { progressClock } from "./progress-clock";

const base = { total: 18, done: 12, error: 0, skipped: 0, createdAt: 1_000, finishedAt: null, finishedBefore: 0 };

describe("the progress clock", () => {
  it("times a first run from its start over all its trials", () => {
    // 12 of 18 in 60 s → 6 left at 0.2 trials/s = 30 s.
    expect(progressClock({ ...base, status: "running", startedAt: 10_000 }, 70_000)).toEqual({ elapsedMs: 60_000, leftMs: 30_000, rerun: false });
  });

  it("times a rerun from the rerun's start over the rerun's trials only (not the launch's start and the 12 trials before it)", () => {
    // The bench ran 12 trials long ago; a confirm round added 6 and reopened it at 1,000,000; 3 of them ended in 10 s → 3 left ≈ 10 s.
    const p = { ...base, status: "running" as const, startedAt: 1_000_000, done: 15, finishedBefore: 12 };
    expect(progressClock(p, 1_010_000)).toEqual({ elapsedMs: 10_000, leftMs: 10_000, rerun: true });
    // Queued after the reopen, nothing of the rerun ended yet: elapsed since the reopen, no estimate.
    expect(progressClock({ ...p, status: "queued", done: 12 }, 1_002_000)).toEqual({ elapsedMs: 2_000, leftMs: null, rerun: true });
    // Finished: the rerun's duration, nothing left.
    expect(progressClock({ ...p, status: "finished", done: 18, finishedAt: 1_020_000 }, 5_000_000)).toEqual({ elapsedMs: 20_000, leftMs: null, rerun: true });
  });

  it("times a bench still queued from its launch", () => {
    expect(progressClock({ ...base, status: "queued", done: 0, startedAt: null }, 4_000)).toEqual({ elapsedMs: 3_000, leftMs: null, rerun: false });
  });
});
