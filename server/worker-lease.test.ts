import { describe, expect, it } from "vitest";
import { workerLeaseMs } from "./worker-lease";

describe("BENCHWORK_LEASE_MS", () => {
  it("is the queue's default when unset or blank, and the number of ms when set", () => {
    expect(workerLeaseMs({})).toBeUndefined();
    expect(workerLeaseMs({ BENCHWORK_LEASE_MS: " " })).toBeUndefined();
    expect(workerLeaseMs({ BENCHWORK_LEASE_MS: "3000" })).toBe(3000);
    expect(workerLeaseMs({ BENCHWORK_LEASE_MS: "3600000" })).toBe(3_600_000);
  });
  it("refuses anything but a whole number of ms from 1,000 to 3,600,000, naming the variable and the value", () => {
    for (const bad of ["999", "3600001", "soon", "-5000", "2000.5"])
      expect(() => workerLeaseMs({ BENCHWORK_LEASE_MS: bad })).toThrow(
        new RangeError(`BENCHWORK_LEASE_MS: expected a whole number of ms from 1000 to 3600000, got "${bad}"`),
      );
  });
});
