import { describe, expect, it } from "vitest";
import { benchEndStatus, cancelTooLateNote } from "./end-status";

describe("how a bench ends", () => {
  it("a cancel during the launched run cancels the bench; one during a rerun leaves it finished", () => {
    expect(benchEndStatus({ cancelRequested: true, rerunBase: 0 })).toBe("cancelled");
    expect(benchEndStatus({ cancelRequested: true, rerunBase: 12 })).toBe("finished");
    expect(benchEndStatus({ cancelRequested: false, rerunBase: 0 })).toBe("finished");
  });

  it("says a cancel came too late, and who asked for it when known", () => {
    expect(cancelTooLateNote("ed@example.com")).toBe(
      "The cancel by ed@example.com came too late: every trial had already stored its result, so nothing was cancelled and the bench finished with all of them.",
    );
    expect(cancelTooLateNote(null)).toMatch(/^The cancel came too late: /);
  });
});
