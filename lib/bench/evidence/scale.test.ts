import { describe, expect, it } from "vitest";
import { differenceAxis, linearScale } from "./scale";

describe("chart scales", () => {
  it("maps a domain linearly onto pixels", () => {
    const x = linearScale([-0.2, 0.4], [100, 400]);
    expect(x(-0.2)).toBe(100);
    expect(x(0)).toBeCloseTo(200, 9);
    expect(x(0.4)).toBe(400);
    expect(linearScale([0, 0], [0, 10])(0)).toBe(5);
  });

  it("covers every interval and zero with whole steps", () => {
    // The intervals: +25.3 to +39.7 and −11.9 to +1.9 points.
    const a = differenceAxis([0.253, 0.397, -0.119, 0.019]);
    expect(a.domain[0]).toBeCloseTo(-0.2, 9);
    expect(a.domain[1]).toBeCloseTo(0.4, 9);
    expect(a.ticks.map((t) => Math.round(t * 100))).toEqual([-20, -10, 0, 10, 20, 30, 40]);
  });

  it("keeps zero on the axis when every interval is on one side, and stays within ±100 points", () => {
    const a = differenceAxis([0.087, 0.213]);
    expect(a.domain[0]).toBe(0);
    expect(a.ticks[0]).toBe(0);
    expect(a.ticks.at(-1)).toBeCloseTo(0.25, 9);
    const wide = differenceAxis([-1, 1]);
    expect(wide.domain).toEqual([-1, 1]);
  });

  it("gives a visible axis when nothing differs", () => {
    const a = differenceAxis([0, 0]);
    expect(a.domain[0]).toBeLessThan(0);
    expect(a.domain[1]).toBeGreaterThan(0);
    expect(a.ticks).toContain(0);
  });
});
