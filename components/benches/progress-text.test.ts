import { describe, expect, it } from "vitest";
import { cancelRefusal, clockText, duration } from "./progress-text";

describe("the progress clock's words", () => {
  it("says the time left while it can estimate it, and that it cannot yet while a candidate has finished no trial", () => {
    expect(clockText({ elapsedMs: 10_000, leftMs: 27_500, rerun: false }, false)).toBe("elapsed 10s · about 28s left");
    // A live candidate beside recorded ones that all ended at once: no figure from their rate.
    expect(clockText({ elapsedMs: 10_000, leftMs: null, rerun: false }, false)).toBe("elapsed 10s · time left not known yet");
    expect(clockText({ elapsedMs: 65_000, leftMs: null, rerun: true }, true)).toBe("rerun: elapsed 1m 5s");
  });

  it("writes the bench's own elapsed time beside a rerun's (it showed only 'rerun: elapsed 0s')", () => {
    expect(clockText({ elapsedMs: 400, leftMs: null, rerun: true, launchElapsedMs: 65_000 }, true)).toBe("elapsed 1m 5s · rerun: elapsed 0.4s");
    expect(clockText({ elapsedMs: 3_000, leftMs: 6_000, rerun: true, launchElapsedMs: 65_000 }, false)).toBe(
      "elapsed 1m 5s · rerun: elapsed 3s · about 6s left",
    );
  });

  it("writes durations in seconds, minutes, hours; under a second with a decimal, not '0s'", () => {
    expect([duration(0), duration(400), duration(59_600), duration(185_000), duration(7_440_000)]).toEqual(["0s", "0.4s", "1m 0s", "3m 5s", "2h 4m"]);
  });
  it("says 'finishing' rather than 'about 0s left' when the clock has no time left but the bench still runs (issue #16)", () => {
    expect(clockText({ elapsedMs: 6_000, leftMs: null, finishing: true, rerun: false }, false)).toBe("elapsed 6s · finishing");
  });
});

describe("a refused Cancel", () => {
  it("of a bench that ended meanwhile is a neutral notice and the page shows the ended bench (it was a red error toast: issue #16)", () => {
    expect(cancelRefusal({ code: "not_allowed", message: "Bench #6 has already finished; there is nothing to cancel." })).toEqual({
      tone: "ok",
      refresh: true,
    });
    // A bench removed meanwhile: an error, and the page re-read.
    expect(cancelRefusal({ code: "not_found", message: "Bench #6 does not exist." })).toEqual({ tone: "error", refresh: true });
    // No right to cancel: an error; nothing changed on the page.
    expect(cancelRefusal({ code: "forbidden", message: "Viewers cannot cancel a bench." })).toEqual({ tone: "error", refresh: false });
  });
});
