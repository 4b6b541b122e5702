import { describe, expect, it } from "vitest";
import { blockerReasons, blockerStatuses } from "./blockers";

describe("blockerStatuses", () => {
  it("joins each blocker to its classified regression by case revision, check and reference, in the blockers' order", () => {
    const blockers = [
      { caseRevisionId: 2, key: "e0:exact", against: "baseline" as const },
      { caseRevisionId: 1, key: "e0:exact", against: "last bench" as const },
      { caseRevisionId: 1, key: "e0:exact", against: "baseline" as const },
    ];
    const classified = [
      { caseRevisionId: 1, key: "e0:exact", against: "baseline" as const, regressionStatus: "confirmed" as const },
      { caseRevisionId: 1, key: "e0:exact", against: "last bench" as const, regressionStatus: "flaky on baseline" as const },
      { caseRevisionId: 2, key: "e0:exact", against: "baseline" as const, regressionStatus: "suspected" as const },
    ];
    expect(blockerStatuses(blockers, classified)).toEqual(["suspected", "flaky on baseline", "confirmed"]);
  });

  it("calls a blocker the evidence does not list suspected, never confirmed", () => {
    expect(blockerStatuses([{ caseRevisionId: 9, key: "c1", against: "baseline" }], [])).toEqual(["suspected"]);
  });

  it("gives each blocker its reason (deterministic replay) or null, in the blockers' order", () => {
    const blockers = [
      { caseRevisionId: 2, key: "e0:exact", against: "baseline" as const },
      { caseRevisionId: 1, key: "e0:exact", against: "baseline" as const },
      { caseRevisionId: 9, key: "c1", against: "baseline" as const },
    ];
    const classified = [
      {
        caseRevisionId: 1,
        key: "e0:exact",
        against: "baseline" as const,
        regressionStatus: "confirmed" as const,
        regressionReason: "deterministic replay" as const,
      },
      { caseRevisionId: 2, key: "e0:exact", against: "baseline" as const, regressionStatus: "suspected" as const, regressionReason: null },
    ];
    expect(blockerReasons(blockers, classified)).toEqual([null, "deterministic replay", null]);
  });
});
