import { describe, expect, it } from "vitest";
import { progressClock } from "./progress-clock";

const base = { total: 18, done: 12, error: 0, skipped: 0, createdAt: 1_000, finishedAt: null, finishedBefore: 0 };
/** One candidate that ran every trial of `base` (the rate of the run is its own). */
const one = (ended: number, endedInRun = ended) => [{ total: 18, ended, endedInRun }];

describe("the progress clock", () => {
  it("times a first run from its start over all its trials", () => {
    // 12 of 18 in 60 s → 6 left at 0.2 trials/s = 30 s.
    expect(progressClock({ ...base, status: "running", startedAt: 10_000, candidates: one(12) }, 70_000)).toEqual({
      elapsedMs: 60_000,
      leftMs: 30_000,
      rerun: false,
    });
  });

  it("times a rerun from the rerun's start over the rerun's trials only (not the launch's start and the 12 trials before it)", () => {
    // The bench ran 12 trials long ago; a confirm round added 6 and reopened it at 1,000,000; 3 of them ended in 10 s → 3 left ≈ 10 s.
    const p = { ...base, total: 18, status: "running" as const, startedAt: 1_000_000, done: 15, finishedBefore: 12, candidates: one(15, 3) };
    expect(progressClock(p, 1_010_000)).toEqual({ elapsedMs: 10_000, leftMs: 10_000, rerun: true });
    // Queued after the reopen, nothing of the rerun ended yet: elapsed since the reopen, no estimate.
    expect(progressClock({ ...p, status: "queued", done: 12, candidates: one(12, 0) }, 1_002_000)).toEqual({ elapsedMs: 2_000, leftMs: null, rerun: true });
    // Finished: the rerun's duration, nothing left.
    expect(progressClock({ ...p, status: "finished", done: 18, finishedAt: 1_020_000, candidates: one(18, 6) }, 5_000_000)).toEqual({
      elapsedMs: 20_000,
      leftMs: null,
      rerun: true,
    });
  });

  it("keeps the bench's own elapsed time (its launch run) beside a rerun's", () => {
    // Launched trials ran from 10,000 to 75,000; a rerun reopened it at 1,000,000 and ended at 1,000,400.
    const p = {
      ...base,
      status: "finished" as const,
      startedAt: 1_000_000,
      finishedAt: 1_000_400,
      done: 18,
      finishedBefore: 12,
      candidates: one(18, 6),
      launchRun: { startedAt: 10_000, finishedAt: 75_000 },
    };
    expect(progressClock(p, 5_000_000)).toEqual({ elapsedMs: 400, leftMs: null, rerun: true, launchElapsedMs: 65_000 });
  });

  it("times a bench still queued from its launch", () => {
    expect(progressClock({ ...base, status: "queued", done: 0, startedAt: null, candidates: one(0) }, 4_000)).toEqual({
      elapsedMs: 3_000,
      leftMs: null,
      rerun: false,
    });
  });

  // A new team's bench: recorded answers (instant) beside a live model (seconds each). The overall
  // rate (38 trials in 10 s) said about 6 s left; the live candidate's 22 trials at its own rate take 27.5 s.
  const mixed = {
    ...base,
    status: "running" as const,
    total: 60,
    done: 38,
    startedAt: 10_000,
    candidates: [
      { total: 30, ended: 30, endedInRun: 30 }, // recorded: all done in the first second
      { total: 30, ended: 8, endedInRun: 8 }, // live: 8 of 30 in 10 s
    ],
  };

  it("estimates a bench mixing recorded and live candidates at the slowest candidate's own rate, not the overall one", () => {
    expect(progressClock(mixed, 20_000)).toEqual({ elapsedMs: 10_000, leftMs: 27_500, rerun: false });
  });

  it("candidates that run side by side finish together: the time left is the longest of theirs, not their sum", () => {
    // Two live candidates, 10 of 30 each in 10 s: 20 left each at 1 trial/s → 20 s (both at once), not 40 s.
    const two = { ...mixed, done: 20, candidates: [0, 1].map(() => ({ total: 30, ended: 10, endedInRun: 10 })) };
    expect(progressClock(two, 20_000).leftMs).toBe(20_000);
  });

  it("gives no estimate while a candidate with trials left has not finished one (its rate is unknown), even when others have", () => {
    const waiting = { ...mixed, done: 30, candidates: [mixed.candidates[0], { total: 30, ended: 0, endedInRun: 0 }] };
    expect(progressClock(waiting, 20_000)).toEqual({ elapsedMs: 10_000, leftMs: null, rerun: false });
    // Trials skipped at the launch (no recorded answer) ended before the run: they are no rate.
    const skippedAtLaunch = {
      ...mixed,
      done: 0,
      skipped: 5,
      candidates: [
        { total: 30, ended: 5, endedInRun: 0 },
        { total: 30, ended: 0, endedInRun: 0 },
      ],
    };
    expect(progressClock(skippedAtLaunch, 20_000).leftMs).toBeNull();
  });
  it("says the run is finishing, not 'about 0s left', while the status still runs and no time is left at its rate (issue #16)", () => {
    // 120 of 120 ended (112 skipped: budget) while the last trials' verdicts are stored: it showed "about 0s left".
    const allEnded = {
      ...base,
      status: "running" as const,
      total: 120,
      done: 8,
      skipped: 112,
      startedAt: 10_000,
      candidates: [{ total: 120, ended: 120, endedInRun: 120 }],
    };
    expect(progressClock(allEnded, 16_000)).toEqual({ elapsedMs: 6_000, leftMs: null, finishing: true, rerun: false });
    // Budget skips ended in the run at once: 2 left at 118 per 6 s is 0.1 s, while two 6-second trials run.
    const nearly = { ...allEnded, done: 6, candidates: [{ total: 120, ended: 118, endedInRun: 118 }] };
    expect(progressClock(nearly, 16_000)).toEqual({ elapsedMs: 6_000, leftMs: null, finishing: true, rerun: false });
  });

  // A tester killed a worker holding 8 trials: the bar said "about 5s left" while they waited 45 s more
  // for its lease to run out, then ran again.
  it("leaves at least until trials held by a worker that stopped responding run again", () => {
    const p = { ...base, status: "running" as const, startedAt: 10_000, candidates: one(12) };
    // At its rate 30 s are left; the held trials run again in 45 s, and take a trial's time (5 s at this rate) then.
    expect(progressClock({ ...p, stalled: { trials: 4, runAgainAt: 115_000 } }, 70_000).leftMs).toBe(50_000);
    // Held trials that run again sooner than the rest would end change nothing.
    expect(progressClock({ ...p, stalled: { trials: 4, runAgainAt: 75_000 } }, 70_000).leftMs).toBe(30_000);
    // Their lease ran out already: a worker takes them at its next look.
    expect(progressClock({ ...p, stalled: { trials: 4, runAgainAt: 60_000 } }, 70_000).leftMs).toBe(30_000);
    // No rate yet: still no figure.
    expect(progressClock({ ...p, done: 0, candidates: one(0), stalled: { trials: 4, runAgainAt: 115_000 } }, 70_000).leftMs).toBeNull();
  });
});
