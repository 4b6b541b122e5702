import { describe, expect, it } from "vitest";
import { formatCi, formatPValue, formatPoints, formatRateInterval, minDetectablePoints, withMinusSigns } from "./format";

describe("evidence number formats", () => {
  it("writes differences as signed points with one decimal and a true minus sign", () => {
    expect(formatPoints(0.325)).toBe("+32.5");
    expect(formatPoints(-0.05)).toBe("−5.0");
    expect(formatPoints(0)).toBe("0.0");
    // −0.0004 rounds to 0.0 and must not print as "−0.0"
    expect(formatPoints(-0.000004)).toBe("0.0");
    expect(formatCi([0.253, 0.397])).toBe("95 % CI +25.3 to +39.7");
  });

  it("writes p below 0.001 as a bound, else with three decimals (two significant for small ones)", () => {
    expect(formatPValue(9.2e-6)).toBe("p < 0.001");
    expect(formatPValue(0.03857)).toBe("p = 0.039");
    expect(formatPValue(0.0012)).toBe("p = 0.0012");
    expect(formatPValue(1)).toBe("p = 1.000");
  });

  it("rounds the detectable difference up to whole points (a bench cannot detect less than it can)", () => {
    expect(minDetectablePoints(0.065)).toBe(7);
    expect(minDetectablePoints(0.07)).toBe(7);
    expect(minDetectablePoints(0.0944474416360213)).toBe(10);
  });

  it("writes a pass rate with its Wilson interval", () => {
    expect(formatRateInterval({ passed: 45, scored: 200, rate: 0.225, ci95: [0.1726236971508913, 0.2877] })).toBe("22.5 % (95 % CI 17.3–28.8)");
    expect(formatRateInterval({ passed: 0, scored: 0, rate: null, ci95: null })).toBe("—");
  });

  it("shows a pass rate whose interval cannot be computed (repeats of a single case) instead of hiding it as —", () => {
    // bench run --max-cost 0.01 on the scripted server: 2 trials of one case ran, 0 passed; the PR comment said "— 0/2".
    expect(formatRateInterval({ passed: 0, scored: 2, rate: 0, ci95: null })).toBe("0.0 % (no interval)");
  });
});

describe("withMinusSigns", () => {
  it("turns a hyphen before a number into U+2212 (text stored before), leaving words and ranges alone", () => {
    expect(withMinusSigns("pass rate over scored checks -0.1 points vs baseline")).toBe("pass rate over scored checks \u22120.1 points vs baseline");
    expect(withMinusSigns("-20% tokens")).toBe("\u221220% tokens");
    expect(withMinusSigns("(-5.0 points)")).toBe("(\u22125.0 points)");
    expect(withMinusSigns("gpt-4o-mini · 17.3–28.8 · case-12")).toBe("gpt-4o-mini · 17.3–28.8 · case-12");
  });
});
