import { describe, expect, it } from "vitest";
import { agreementTable, calibrate, cohensKappa, type ReviewedPair } from "./calibration";

const pairs = (judge: ReviewedPair["judge"], human: ReviewedPair["human"], n: number): ReviewedPair[] => Array.from({ length: n }, () => ({ judge, human }));

describe("calibration of a judge against human verdicts", () => {
  // By hand. Judge × human over n = 50: both pass 20, judge pass / human fail 5 (false pass),
  // judge fail / human pass 10 (false fail), both fail 15.
  // p11 = .4, p12 = .1, p21 = .2, p22 = .3; judge pass p1. = .5, p2. = .5; human pass p.1 = .6, p.2 = .4.
  // pₒ = .7, pₑ = .5·.6 + .5·.4 = .5, κ = (.7 − .5)/(1 − .5) = 0.4.
  // Fleiss–Cohen–Everitt (1969):
  //   A = .4·[1 − (.5 + .6)·.6]² + .3·[1 − (.5 + .4)·.6]² = .4·.34² + .3·.46² = .04624 + .06348 = .10972
  //   B = .6²·[.1·(.6 + .5)² + .2·(.4 + .5)²] = .36·(.121 + .162) = .10188
  //   C = [.4 − .5·.6]² = .01
  //   SE = √(.10972 + .10188 − .01)/(.5·√50) = √.2016/3.5355339 = .4489989/3.5355339 = 0.1269963
  //   95 %: .4 ± 1.959964·.1269963 = (0.1510877, 0.6489123)
  // Agreement 35/50 = .7, Wilson 95 %: centre (.7 + 1.92073/50)/(1 + 3.84146/50) = .73841/1.0768292 = .685725,
  //   half = (1.959964/1.0768292)·√(.21/50 + 3.84146/10000) = 1.820127·.0677057 = .123233 → (.562492, .808958)
  // False pass: 5 of the 20 the human failed = .25; false fail: 10 of the 30 the human passed = 1/3.
  const sample = [...pairs("passed", "pass", 20), ...pairs("passed", "fail", 5), ...pairs("failed", "pass", 10), ...pairs("failed", "fail", 15)];

  it("κ, its interval, agreement and the false-pass / false-fail rates match the hand computation", () => {
    const c = calibrate(sample);
    expect(c.reviewed).toBe(50);
    expect(c.table).toEqual({ bothPass: 20, falsePass: 5, falseFail: 10, bothFail: 15 });
    expect(c.kappa!.value).toBeCloseTo(0.4, 12);
    expect(c.kappa!.se).toBeCloseTo(0.1269963, 6);
    expect(c.kappa!.ci95[0]).toBeCloseTo(0.1510877, 5);
    expect(c.kappa!.ci95[1]).toBeCloseTo(0.6489123, 5);
    expect(c.agreement.rate).toBeCloseTo(0.7, 12);
    expect(c.agreement.ci95![0]).toBeCloseTo(0.562492, 4);
    expect(c.agreement.ci95![1]).toBeCloseTo(0.808958, 4);
    expect(c.falsePassRate).toMatchObject({ passed: 5, scored: 20, rate: 0.25 });
    expect(c.falseFailRate.passed).toBe(10);
    expect(c.falseFailRate.scored).toBe(30);
    expect(c.falseFailRate.rate).toBeCloseTo(1 / 3, 12);
  });

  it("perfect agreement on both verdicts: κ = 1 with SE 0 (A = .5·1² + .5·1² = 1, B = 0, C = (1 − 0)² = 1)", () => {
    const k = cohensKappa({ bothPass: 10, falsePass: 0, falseFail: 0, bothFail: 10 })!;
    expect(k.value).toBe(1);
    expect(k.se).toBeCloseTo(0, 12);
    expect(k.ci95).toEqual([1, 1]);
  });

  it("agreement no better than chance: judge passes half at random → κ = 0 (pₒ = pₑ = .5)", () => {
    // Table 10/10/10/10: pₒ = .5, pₑ = .5·.5 + .5·.5 = .5 → κ = 0.
    expect(cohensKappa({ bothPass: 10, falsePass: 10, falseFail: 10, bothFail: 10 })!.value).toBeCloseTo(0, 12);
  });

  it("κ is undefined when every verdict is the same (pₑ = 1), and nothing reviewed gives no figures", () => {
    expect(cohensKappa({ bothPass: 25, falsePass: 0, falseFail: 0, bothFail: 0 })).toBeNull();
    const none = calibrate([]);
    expect(none.reviewed).toBe(0);
    expect(none.kappa).toBeNull();
    expect(none.agreement.rate).toBeNull();
  });

  it("a human can't-tell, or a judge check that was unscored or errored, is not counted", () => {
    const t = agreementTable([
      { judge: "passed", human: "cant_tell" },
      { judge: "unscored", human: "pass" },
      { judge: "error", human: "fail" },
      { judge: "failed", human: "fail" },
    ]);
    expect(t).toEqual({ bothPass: 0, falsePass: 0, falseFail: 0, bothFail: 1 });
  });
});
