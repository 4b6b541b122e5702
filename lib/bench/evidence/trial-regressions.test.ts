import { describe, expect, it } from "vitest";
import { trialRegressions } from "./trial-regressions";
import type { StatusedRegression } from "./resolved";

const reg = (key: string, regressionStatus?: StatusedRegression["regressionStatus"]): StatusedRegression => ({
  caseKey: "banking77-001",
  caseRevisionId: 1,
  key,
  label: key,
  against: "baseline",
  outcome: "mixed",
  ...(regressionStatus ? { regressionStatus } : {}),
});

describe("a trial's regressions (issue #16: a passing repeat of a cleared flake read 'Regressed … fails here')", () => {
  it("splits them into failing here, passing here and cleared by a confirm round", () => {
    const r = trialRegressions(
      [reg("intent", "cleared"), reg("exact", "suspected"), reg("tone", "confirmed"), reg("json", "flaky on baseline")],
      [
        { key: "intent", verdict: "passed" },
        { key: "exact", verdict: "passed" },
        { key: "tone", verdict: "failed" },
      ],
    );
    expect(r.failsHere.map((x) => x.key)).toEqual(["tone"]);
    expect(r.passesHere.map((x) => x.key)).toEqual(["exact"]);
    expect(r.cleared.map((x) => x.key)).toEqual(["intent", "json"]);
  });

  it("a check this trial did not score (a reviewer failed it, its judge unscored) is not said to pass here", () => {
    // e2e review.spec.ts: a human verdict fails an advisory criterion whose judge left it unscored; the
    // trial view said "Regressed in other repeats of this case, passes here" and dropped the advisory note.
    const r = trialRegressions(
      [reg("window", "suspected"), reg("tone", "suspected")],
      [
        { key: "window", verdict: "unscored" },
        { key: "tone", verdict: "error" },
      ],
    );
    expect(r.failsHere.map((x) => x.key)).toEqual(["window", "tone"]);
    expect(r.passesHere).toEqual([]);
  });
});
