/** The job worker's settings from the environment: defaults, and one clear error naming the variable. */
import { describe, expect, it } from "vitest";
import { workerLeaseMs, workerSlots } from "./job-worker";

describe("job worker settings", () => {
  it("BENCHWORK_WORKER_SLOTS: 256 by default, a whole number from 1 to 4096", () => {
    expect(workerSlots({})).toBe(256);
    expect(workerSlots({ BENCHWORK_WORKER_SLOTS: " " })).toBe(256);
    expect(workerSlots({ BENCHWORK_WORKER_SLOTS: "16" })).toBe(16);
    for (const bad of ["0", "4097", "2.5", "many"])
      expect(() => workerSlots({ BENCHWORK_WORKER_SLOTS: bad })).toThrow(`BENCHWORK_WORKER_SLOTS: expected a whole number from 1 to 4096, got "${bad}"`);
  });

  it("BENCHWORK_WORKER_LEASE_MS: the queue's default when unset, else a whole number of ms from 1000 to 3600000", () => {
    expect(workerLeaseMs({})).toBeUndefined();
    expect(workerLeaseMs({ BENCHWORK_WORKER_LEASE_MS: "5000" })).toBe(5000);
    for (const bad of ["999", "3600001", "1e3.5", "soon"])
      expect(() => workerLeaseMs({ BENCHWORK_WORKER_LEASE_MS: bad })).toThrow(
        `BENCHWORK_WORKER_LEASE_MS: expected a whole number of ms from 1000 to 3600000, got "${bad}"`,
      );
  });
});
