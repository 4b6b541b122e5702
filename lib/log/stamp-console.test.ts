import { describe, expect, it } from "vitest";
import { stampConsole } from "./stamp-console";

describe("stampConsole", () => {
  it("puts the UTC time before each line, keeping its arguments", () => {
    const lines: unknown[][] = [];
    const target = {
      log: (...a: unknown[]) => lines.push(["log", ...a]),
      info: () => {},
      warn: () => {},
      error: (...a: unknown[]) => lines.push(["error", ...a]),
    };
    stampConsole(target, () => new Date(Date.UTC(2026, 11, 3, 1, 2, 3, 456)));
    target.log("bench #4 finished");
    const e = new Error("down");
    target.error("benchwork job worker:", e);
    expect(lines).toEqual([
      ["log", "2026-12-03T01:02:03.456Z", "bench #4 finished"],
      ["error", "2026-12-03T01:02:03.456Z", "benchwork job worker:", e],
    ]);
  });
});
