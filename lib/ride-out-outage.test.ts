/** Riding out a store's outage: retries with growing waits, one line at its start and end, gives up after the limit. */
import { describe, expect, it } from "vitest";
import { OutageTooLong, rideOutOutage } from "./ride-out-outage";

/** A fake clock whose sleep advances it, and the events seen. */
function harness() {
  let t = 0;
  const events: string[] = [];
  const o = {
    outageReason: (e: unknown) => ((e as Error).message.startsWith("down") ? (e as Error).message : null),
    giveUpMs: 20_000,
    now: () => t,
    sleep: async (ms: number) => {
      events.push(`wait ${ms}`);
      t += ms;
    },
    onLost: (reason: string) => events.push(`lost: ${reason}`),
    onBack: () => events.push("back"),
  };
  return { o, events };
}

describe("rideOutOutage", () => {
  it("retries through a short outage, waiting 1 s doubled up to 5 s, and says when it starts and ends", async () => {
    const { o, events } = harness();
    let fails = 5;
    const result = await rideOutOutage(async () => {
      if (fails-- > 0) throw new Error("down: connect ECONNREFUSED");
      return 42;
    }, o);
    expect(result).toBe(42);
    expect(events).toEqual(["lost: down: connect ECONNREFUSED", "wait 1000", "wait 2000", "wait 4000", "wait 5000", "wait 5000", "back"]);
  });

  it("gives up once the outage has lasted giveUpMs, with the last reason", async () => {
    const { o, events } = harness();
    const error = await rideOutOutage(() => Promise.reject(new Error("down: the database system is shutting down")), o).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutageTooLong);
    expect((error as OutageTooLong).message).toBe("unreachable for 22 s: down: the database system is shutting down");
    expect(events.filter((e) => e.startsWith("lost"))).toHaveLength(1);
  });

  it("rethrows at once an error that is no outage, and says nothing", async () => {
    const { o, events } = harness();
    await expect(rideOutOutage(() => Promise.reject(new Error("no such bench")), o)).rejects.toThrow("no such bench");
    expect(events).toEqual([]);
  });
});
