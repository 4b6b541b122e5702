/** The Reruns panel's words (issue #16 §3, issue 18): what blocks, and the confirm button's count. */
import { describe, expect, it } from "vitest";
import { refreshAfterRefusal, rerunAddedText, runLabel, suspectedSentence } from "./rerun-text";

describe("Reruns panel text", () => {
  it("says suspected regressions block only when they do: those on advisory criteria are named as not blocking", () => {
    expect(suspectedSentence(1, 1)).toBe("1 suspected regression blocks until a rerun confirms or clears it.");
    expect(suspectedSentence(3, 3)).toBe("3 suspected regressions block until a rerun confirms or clears them.");
    // The live bench of the QA pass: 4 suspected regressions, all on advisory criteria, were said to block.
    expect(suspectedSentence(4, 0)).toBe("4 suspected regressions on advisory criteria (they do not block); a rerun confirms or clears them.");
    expect(suspectedSentence(1, 0)).toBe("1 suspected regression on an advisory criterion (it does not block); a rerun confirms or clears it.");
    expect(suspectedSentence(5, 2)).toBe("5 suspected regressions: 2 block until a rerun confirms or clears them; 3 on advisory criteria do not block.");
    expect(suspectedSentence(2, 1)).toBe("2 suspected regressions: 1 blocks until a rerun confirms or clears it; 1 on an advisory criterion does not block.");
  });

  it("the confirm button counts its trials in words that agree", () => {
    expect(runLabel(1)).toBe("Run 1 trial");
    expect(runLabel(6)).toBe("Run 6 trials");
    expect(runLabel(1200)).toBe("Run 1,200 trials");
  });

  it("the toast after a rerun starts says 'it runs it' of one trial (it said 'it runs them now' of 1 trial: issue #16)", () => {
    expect(rerunAddedText(1)).toBe("Added 1 trial to the bench; it runs it now");
    expect(rerunAddedText(6)).toBe("Added 6 trials to the bench; it runs them now");
  });
});

describe("after a refused rerun", () => {
  it("refreshes the page when the bench changed under it (another tab's rerun started: 'is running … nothing was added'), not for a field to fix", () => {
    expect(refreshAfterRefusal({ code: "not_allowed", message: "Bench #12 is running, not finished: nothing was added." })).toBe(true);
    expect(refreshAfterRefusal({ code: "not_found", message: "Bench #12 does not exist." })).toBe(true);
    // The spend cap the dialog asks for: the user fixes the field, the page stays as it is.
    expect(refreshAfterRefusal({ code: "not_allowed", message: "cap", fieldErrors: { spendCapUsd: "raise it" } })).toBe(false);
    expect(refreshAfterRefusal({ code: "invalid_input", message: "bad" })).toBe(false);
  });
});
