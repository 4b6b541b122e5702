import { describe, expect, it } from "vitest";
import { advisoryCheckKeys, advisoryNote, calibrationState, DEFAULT_CALIBRATION_POLICY, markAdvisory } from "./advisory";

const policy = DEFAULT_CALIBRATION_POLICY;
const kappa = (value: number) => ({ value, se: 0.1, ci95: [value - 0.2, value + 0.2] as [number, number] });

describe("the advisory rule", () => {
  it("fewer than 20 reviewed trials: advisory, saying how many", () => {
    const s = calibrationState({ reviewed: 19, kappa: kappa(0.95) }, policy, "openai:gpt");
    expect(s.state).toBe("advisory");
    expect(s.reason).toBe("judge not calibrated: 19 of 20 reviewed trials needed");
  });

  it("never reviewed: advisory with 0 of 20", () => {
    expect(calibrationState(null, policy, "openai:gpt")).toMatchObject({ state: "advisory", reviewed: 0, kappa: null });
  });

  it("20 reviewed and κ below 0.6: advisory; κ exactly 0.6: calibrated", () => {
    expect(calibrationState({ reviewed: 20, kappa: kappa(0.59) }, policy, "j").reason).toBe(
      "judge not calibrated: κ 0.59 is below 0.6 over 20 reviewed trials",
    );
    expect(calibrationState({ reviewed: 20, kappa: kappa(0.6) }, policy, "j").state).toBe("calibrated");
  });

  it("κ undefined (every verdict the same) is not calibrated", () => {
    expect(calibrationState({ reviewed: 30, kappa: null }, policy, "j").state).toBe("advisory");
  });

  it("the prompt's own threshold and minimum apply", () => {
    const strict = { kappaThreshold: 0.8, minReviewed: 5 };
    expect(calibrationState({ reviewed: 5, kappa: kappa(0.7) }, strict, "j").state).toBe("advisory");
    expect(calibrationState({ reviewed: 5, kappa: kappa(0.85) }, strict, "j")).toMatchObject({ state: "calibrated", minReviewed: 5, kappaThreshold: 0.8 });
  });

  it("regressions on advisory criteria are marked and do not block; other checks and criteria pinned before calibration still do", () => {
    const rubric = [
      { criterionId: 1, calibration: { state: "advisory" as const } },
      { criterionId: 2, calibration: { state: "calibrated" as const } },
      { criterionId: 3 },
    ];
    const keys = advisoryCheckKeys(rubric);
    expect([...keys]).toEqual(["c1"]);
    const { all, blocking } = markAdvisory([{ key: "c1" }, { key: "c2" }, { key: "c3" }, { key: "e0:exact" }], keys);
    expect(blocking.map((r) => r.key)).toEqual(["c2", "c3", "e0:exact"]);
    expect(all).toEqual([{ key: "c1", advisory: true }, { key: "c2" }, { key: "c3" }, { key: "e0:exact" }]);
  });

  it("the headline says when the recommended candidate broke advisory checks", () => {
    expect(advisoryNote([{ advisory: true }, {}])).toBe(" It breaks 1 check of advisory criteria (their judge is not calibrated), which does not block.");
    expect(advisoryNote([{}])).toBe("");
  });
});
