import { describe, expect, it } from "vitest";
import { confirmExtra, confirmTrials, deterministicNote, errorRerunTrials, rerunRefusal, type SideTrials } from "./select";

/** Existing trials per "candidate|case". */
const have =
  (m: Record<string, SideTrials>) =>
  (c: number, bc: number): SideTrials =>
    m[`${c}|${bc}`] ?? { count: 0, maxRepeat: 0 };

describe("confirmExtra", () => {
  it("adds as many trials as the bench ran, and at least enough for 3 in all", () => {
    expect(confirmExtra(3, 3)).toBe(3); // 3 repeats: 3 more (6 per side)
    expect(confirmExtra(1, 1)).toBe(2); // 1 repeat: 2 more makes 3
    expect(confirmExtra(5, 5)).toBe(5);
    expect(confirmExtra(1, 0)).toBe(3); // a side with no trial of the case yet
  });
});

describe("confirmTrials", () => {
  it("reruns only the suspected cases, the candidate and the baseline, with new repeat indexes", () => {
    const trials = confirmTrials({
      repeats: 3,
      baselineCandidateId: 1,
      suspected: [{ candidateId: 2, benchCaseId: 10, against: "baseline" }],
      existing: have({ "1|10": { count: 3, maxRepeat: 3 }, "2|10": { count: 3, maxRepeat: 3 } }),
    });
    expect(trials.map((t) => [t.candidateId, t.benchCaseId, t.repeat, t.rerun])).toEqual([
      [2, 10, 4, "confirm"],
      [2, 10, 5, "confirm"],
      [2, 10, 6, "confirm"],
      [1, 10, 4, "confirm"],
      [1, 10, 5, "confirm"],
      [1, 10, 6, "confirm"],
    ]);
  });

  it("reruns a baseline case broken by two candidates (or by two checks) once", () => {
    const trials = confirmTrials({
      repeats: 1,
      baselineCandidateId: 1,
      suspected: [
        { candidateId: 2, benchCaseId: 10, against: "baseline" },
        { candidateId: 2, benchCaseId: 10, against: "baseline" },
        { candidateId: 3, benchCaseId: 10, against: "baseline" },
      ],
      existing: have({ "1|10": { count: 1, maxRepeat: 1 }, "2|10": { count: 1, maxRepeat: 1 }, "3|10": { count: 1, maxRepeat: 1 } }),
    });
    // One repeat per case: 2 more per side (3 in all), for candidates 2 and 3 and the baseline once.
    expect(trials.map((t) => `${t.candidateId}:${t.repeat}`)).toEqual(["2:2", "2:3", "1:2", "1:3", "3:2", "3:3"]);
  });

  it("does not rerun the baseline for a regression against the last bench, nor when there is no baseline", () => {
    expect(
      confirmTrials({
        repeats: 3,
        baselineCandidateId: 1,
        suspected: [{ candidateId: 2, benchCaseId: 7, against: "last bench" }],
        existing: have({ "2|7": { count: 3, maxRepeat: 3 } }),
      }).map((t) => t.candidateId),
    ).toEqual([2, 2, 2]);
    expect(
      confirmTrials({ repeats: 3, baselineCandidateId: null, suspected: [{ candidateId: 2, benchCaseId: 7, against: "baseline" }], existing: have({}) }).map(
        (t) => t.candidateId,
      ),
    ).toEqual([2, 2, 2]);
  });

  it("a second round continues after the first round's repeat indexes", () => {
    const trials = confirmTrials({
      repeats: 3,
      baselineCandidateId: 1,
      suspected: [{ candidateId: 2, benchCaseId: 10, against: "baseline" }],
      existing: have({ "1|10": { count: 6, maxRepeat: 6 }, "2|10": { count: 6, maxRepeat: 6 } }),
    });
    expect(trials.map((t) => t.repeat)).toEqual([7, 8, 9, 7, 8, 9]);
  });

  it("adds nothing when nothing is suspected", () => {
    expect(confirmTrials({ repeats: 3, baselineCandidateId: 1, suspected: [], existing: have({}) })).toEqual([]);
  });
});

describe("errorRerunTrials", () => {
  it("one linked trial per errored trial not rerun yet, after the highest repeat of its candidate × case", () => {
    const trials = errorRerunTrials(
      [
        { id: 101, candidateId: 1, benchCaseId: 10 },
        { id: 102, candidateId: 1, benchCaseId: 10 },
        { id: 103, candidateId: 2, benchCaseId: 11 },
        { id: 104, candidateId: 2, benchCaseId: 12 },
      ],
      new Set([104]),
      have({ "1|10": { count: 3, maxRepeat: 3 }, "2|11": { count: 1, maxRepeat: 1 } }),
    );
    expect(trials).toEqual([
      { candidateId: 1, benchCaseId: 10, repeat: 4, rerun: "error", rerunOf: 101 },
      { candidateId: 1, benchCaseId: 10, repeat: 5, rerun: "error", rerunOf: 102 },
      { candidateId: 2, benchCaseId: 11, repeat: 2, rerun: "error", rerunOf: 103 },
    ]);
  });
});

describe("rerunRefusal", () => {
  it("refuses a bench that is queued or running, cancelled or failed, or has nothing to rerun", () => {
    expect(rerunRefusal({ id: 4, status: "running" }, "confirm", 2)).toBe(
      "Bench #4 is still running: wait until it has finished before confirming its suspected regressions.",
    );
    expect(rerunRefusal({ id: 4, status: "queued" }, "errors", 2)).toMatch(/still queued: wait until it has finished before rerunning its errored trials/);
    expect(rerunRefusal({ id: 4, status: "cancelled" }, "errors", 2)).toMatch(/was cancelled: only a finished bench/);
    expect(rerunRefusal({ id: 4, status: "finished" }, "confirm", 0)).toBe(
      "Bench #4 has no suspected regression to confirm (confirmed and cleared ones need no rerun).",
    );
    expect(rerunRefusal({ id: 4, status: "finished" }, "errors", 0)).toBe("Bench #4 has no errored trial left to rerun.");
    expect(rerunRefusal({ id: 4, status: "finished" }, "confirm", 1)).toBeNull();
  });

  it("says why a bench whose only regressions are deterministic replays has nothing to confirm", () => {
    expect(rerunRefusal({ id: 4, status: "finished" }, "confirm", 0, 8)).toBe("8 regressions are deterministic replays: a rerun cannot change them.");
    expect(rerunRefusal({ id: 4, status: "finished" }, "confirm", 0, 1)).toBe("1 regression is a deterministic replay: a rerun cannot change it.");
    // With something suspected beside them, the round runs (its plan says which it leaves out).
    expect(rerunRefusal({ id: 4, status: "finished" }, "confirm", 2, 8)).toBeNull();
    expect(deterministicNote(8)).toBe("8 regressions are deterministic replays: a rerun cannot change them.");
    expect(deterministicNote(0)).toBeNull();
  });
});
