import { describe, expect, it } from "vitest";
import { OutageLines } from "./outage-lines";

// The web server's log said when the store could not be reached (one line per 10 s) but never that it
// was back: a reader of the log could not tell when pages worked again (a tester's 27 s outage).
describe("OutageLines", () => {
  it("says the outage at once and every 10 s while it lasts, then once that the store is back, with how long it was down", () => {
    const o = new OutageLines(10_000);
    expect(o.reachable(0)).toBeNull();
    expect(o.unreachable("connection refused", 1_000)).toBe("benchwork: cannot reach the store: connection refused (pages say so until it is back)");
    expect(o.unreachable("connection refused", 5_000)).toBeNull();
    expect(o.unreachable("connection refused", 11_000)).toBe("benchwork: cannot reach the store: connection refused (pages say so until it is back)");
    expect(o.reachable(28_400)).toBe("benchwork: the store is reachable again (unreachable for 27 s)");
    expect(o.reachable(29_000)).toBeNull();
    // A second outage starts its own count.
    expect(o.unreachable("timeout", 30_000)).toBe("benchwork: cannot reach the store: timeout (pages say so until it is back)");
    expect(o.reachable(30_200)).toBe("benchwork: the store is reachable again (unreachable for 0 s)");
  });
});
