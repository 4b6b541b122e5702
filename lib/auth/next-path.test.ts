import { describe, expect, it } from "vitest";
import { safeNextPath } from "./next-path";

describe("safeNextPath", () => {
  it("keeps a path of this server", () => {
    expect(safeNextPath("/systems/tool-use/library?tab=criteria")).toBe("/systems/tool-use/library?tab=criteria");
  });
  it("refuses other sites and odd values (open redirect)", () => {
    expect(safeNextPath("https://evil.example/")).toBe("/");
    expect(safeNextPath("//evil.example/")).toBe("/");
    expect(safeNextPath("/\\evil.example")).toBe("/");
    expect(safeNextPath("/sign-in")).toBe("/");
    expect(safeNextPath(null)).toBe("/");
  });
});
