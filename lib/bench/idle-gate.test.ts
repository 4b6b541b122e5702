/** When an idle job worker may skip asking its store (lib/bench/idle-gate.ts). */
import { describe, expect, it } from "vitest";
import { IdleGate } from "./idle-gate";

describe("IdleGate", () => {
  it("asks at every poll until a look finds nothing, then only once `idleMs` passed, and again at once when woken", () => {
    const gate = new IdleGate(1_000, () => true);
    gate.beginPoll(0);
    expect(gate.asking).toBe(true);
    gate.afterLook(false, 0); // an open bench, or trials running here
    gate.beginPoll(250);
    expect(gate.asking).toBe(true);
    gate.afterLook(true, 250); // nothing anywhere: quiet from here
    gate.beginPoll(500);
    expect(gate.asking).toBe(false);
    gate.beginPoll(1_249);
    expect(gate.asking).toBe(false);
    gate.beginPoll(1_250);
    expect(gate.asking).toBe(true);
    gate.afterLook(true, 1_250); // still nothing: a new quiet spell
    gate.beginPoll(1_500);
    expect(gate.asking).toBe(false);
    gate.wake(); // a launch's notification
    expect(gate.asking).toBe(true);
    gate.beginPoll(1_600);
    expect(gate.asking).toBe(true);
  });

  it("never goes quiet while launches cannot wake it (not listening)", () => {
    let listening = false;
    const gate = new IdleGate(1_000, () => listening);
    gate.afterLook(true, 0);
    gate.beginPoll(10);
    expect(gate.asking).toBe(true);
    listening = true;
    gate.afterLook(true, 10);
    gate.beginPoll(20);
    expect(gate.asking).toBe(false);
    listening = false; // the connection dropped: ask at every poll again
    gate.beginPoll(30);
    expect(gate.asking).toBe(true);
  });
});
