/** The job worker's background lane retirement: when a pass runs, how far it goes, and its stop. */
import { describe, expect, it } from "vitest";
import type { LaneRetirement } from "@/db/pg/lane-retirement";
import { BUSY_BACKOFF_MS, laneRetirer, type LaneRetirer } from "./lane-retirer";

/** A retire that answers `answers` in turn (then "nothing left"), counting its calls; `gate` holds each call until released. */
function scripted(answers: (LaneRetirement | Error)[]) {
  const calls: number[] = [];
  let release: (() => void)[] = [];
  let held = false;
  const retire = async (): Promise<LaneRetirement> => {
    calls.push(calls.length + 1);
    if (held) await new Promise<void>((r) => release.push(r));
    const a = answers.shift() ?? { retired: 0, more: false, busy: false };
    if (a instanceof Error) throw a;
    return a;
  };
  return {
    retire,
    calls,
    hold: () => void (held = true),
    releaseAll: () => {
      held = false;
      const r = release;
      release = [];
      for (const f of r) f();
    },
  };
}
const settle = () => new Promise((r) => setImmediate(r));
/** Kicks `r` and lets what it started run (the scripted retire only awaits promises). */
async function kicked(r: LaneRetirer): Promise<void> {
  r.kick();
  await settle();
}
const batch = (retired: number, more: boolean): LaneRetirement => ({ retired, more, busy: false });

describe("laneRetirer", () => {
  it("runs one pass at start, batch after batch until none is left, then only after a bench ends", async () => {
    const s = scripted([batch(50, true), batch(50, true), batch(3, false)]);
    const r = laneRetirer(s.retire);
    r.kick();
    r.kick(); // a pass is running: not a second one
    await settle();
    expect(s.calls).toHaveLength(3);
    await kicked(r);
    expect(s.calls).toHaveLength(3);
    r.due();
    await kicked(r);
    expect(s.calls).toHaveLength(4);
    await r.stop();
  });

  it("tries again after a back-off when a lock held lanes back, not at every kick", async () => {
    const s = scripted([{ retired: 0, more: false, busy: true }, batch(2, false)]);
    let clock = 0;
    const r = laneRetirer(s.retire, console.error, () => clock);
    await kicked(r);
    expect(s.calls).toHaveLength(1);
    clock = BUSY_BACKOFF_MS[0] - 1;
    await kicked(r);
    expect(s.calls).toHaveLength(1);
    clock = BUSY_BACKOFF_MS[0];
    await kicked(r);
    expect(s.calls).toHaveLength(2);
    await kicked(r);
    expect(s.calls).toHaveLength(2);
    await r.stop();
  });

  // A tester's outage: the pass at a bench's end failed, and the ended benches' lanes then waited for
  // the next bench to end (on a quiet team, days). Now a failed pass is tried again after the back-off.
  it("says in one line when passes start failing, tries again after a back-off without a bench's end, and says when one works again", async () => {
    const lines: string[] = [];
    const down = () => new Error("cannot connect to the PostgreSQL store");
    const s = scripted([down(), down(), batch(4, false)]);
    let clock = 0;
    const r = laneRetirer(
      s.retire,
      (l) => lines.push(l),
      () => clock,
    );
    await kicked(r);
    expect(lines).toEqual([
      "benchwork job worker: could not retire ended benches' queues (cannot connect to the PostgreSQL store); trying again in the background",
    ]);
    await kicked(r);
    expect(s.calls).toHaveLength(1);
    clock = BUSY_BACKOFF_MS[0];
    await kicked(r);
    expect(s.calls).toHaveLength(2);
    expect(lines).toHaveLength(1); // the same failure again: no second line
    clock += BUSY_BACKOFF_MS[1] - 1;
    await kicked(r);
    expect(s.calls).toHaveLength(2);
    clock += 1;
    await kicked(r);
    expect(s.calls).toHaveLength(3);
    expect(lines[1]).toBe("benchwork job worker: retiring ended benches' queues works again (4 retired)");
    await kicked(r);
    expect(s.calls).toHaveLength(3); // nothing due until a bench ends
    await r.stop();
  });

  it("stops after the batch it is running, and starts no pass once stopped", async () => {
    const s = scripted([batch(50, true), batch(50, true)]);
    const r = laneRetirer(s.retire);
    s.hold();
    await kicked(r);
    expect(s.calls).toHaveLength(1);
    const stopped = r.stop();
    s.releaseAll();
    await stopped;
    expect(s.calls).toHaveLength(1);
    r.due();
    await kicked(r);
    expect(s.calls).toHaveLength(1);
  });
});
