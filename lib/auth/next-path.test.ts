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

describe("safeNextPath against what a browser strips or rewrites (attacked for real: next=/%09/example.org signed in to http://example.org/)", () => {
  it.each([
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\t\\evil.example",
    "/x\\..\\..\\/evil.example",
    " //evil.example",
    "/\u0000/evil.example",
  ])("refuses %j", (value) => {
    expect(safeNextPath(value)).toBe("/");
  });
  it("refuses the sign-in page under another spelling", () => {
    expect(safeNextPath("/sign-in?next=/")).toBe("/");
    expect(safeNextPath("/x/../sign-in")).toBe("/");
  });
});
