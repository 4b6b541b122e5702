import { describe, expect, it } from "vitest";
import { UploadGate } from "./upload-gate";

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("UploadGate: uploads in flight", () => {
  it("admits up to maxInFlight at once and refuses the next at once with 503, a Retry-After and a message", () => {
    const c = clock();
    const gate = new UploadGate({ maxInFlight: 2, perMinute: 100 }, c.now);
    const a = gate.tryEnter();
    const b = gate.tryEnter();
    expect(a.ok && b.ok).toBe(true);
    expect(gate.inFlight).toBe(2);
    const refused = gate.tryEnter();
    expect(refused).toEqual({
      ok: false,
      reason: "busy",
      status: 503,
      retryAfterSeconds: 5,
      message: "The server is already reading 2 uploads (at most 2 at once). Nothing was stored; upload the file again in a few seconds.",
    });
    if (a.ok) a.release();
    expect(gate.inFlight).toBe(1);
    expect(gate.tryEnter().ok).toBe(true);
  });

  it("counts a release once, however often it is called", () => {
    const gate = new UploadGate({ maxInFlight: 1, perMinute: 100 }, clock().now);
    const a = gate.tryEnter();
    if (!a.ok) throw new Error("refused");
    a.release();
    a.release();
    expect(gate.inFlight).toBe(0);
    const b = gate.tryEnter();
    expect(b.ok).toBe(true);
    expect(gate.tryEnter().ok).toBe(false);
  });
});

describe("UploadGate: uploads per minute (all clients together)", () => {
  it("admits perMinute uploads in any 60 s and refuses the next with 429 until the oldest is a minute old", () => {
    const c = clock();
    const gate = new UploadGate({ maxInFlight: 10, perMinute: 3 }, c.now);
    const admitted = [gate.tryEnter()];
    c.advance(10_000);
    admitted.push(gate.tryEnter());
    c.advance(10_000);
    admitted.push(gate.tryEnter());
    expect(admitted.every((a) => a.ok)).toBe(true);
    for (const a of admitted) if (a.ok) a.release(); // finished uploads still count for the minute
    c.advance(15_500); // 35.5 s after the first
    expect(gate.tryEnter()).toEqual({
      ok: false,
      reason: "rate",
      status: 429,
      retryAfterSeconds: 25,
      message:
        "The server takes at most 3 uploads a minute (from everyone together), and 3 arrived in the last minute. Nothing was stored; upload the file again in 25 s.",
    });
    c.advance(24_499); // 59.999 s after the first: still inside its minute
    expect(gate.tryEnter()).toMatchObject({ ok: false, reason: "rate", retryAfterSeconds: 1 });
    c.advance(1); // exactly a minute after the first
    expect(gate.tryEnter().ok).toBe(true);
    expect(gate.tryEnter()).toMatchObject({ ok: false, reason: "rate", retryAfterSeconds: 10 });
  });

  it("does not count refused attempts against the minute", () => {
    const c = clock();
    const gate = new UploadGate({ maxInFlight: 1, perMinute: 2 }, c.now);
    const a = gate.tryEnter();
    expect(gate.tryEnter()).toMatchObject({ reason: "busy" });
    expect(gate.tryEnter()).toMatchObject({ reason: "busy" });
    if (a.ok) a.release();
    expect(gate.tryEnter().ok).toBe(true);
  });

  it("refuses limits that are not positive whole numbers", () => {
    expect(() => new UploadGate({ maxInFlight: 0, perMinute: 1 }, Date.now)).toThrow("maxInFlight must be a positive whole number, got 0");
    expect(() => new UploadGate({ maxInFlight: 1, perMinute: 1.5 }, Date.now)).toThrow("perMinute must be a positive whole number, got 1.5");
  });
});
