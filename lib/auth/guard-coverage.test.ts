import { describe, expect, it } from "vitest";
import { exportGuards } from "./guard-coverage";

describe("exportGuards", () => {
  it("reads the role of wrapped actions and flags bare ones", () => {
    const src = [
      '"use server";',
      'export const a = guardedAction("editor", async (input: unknown) => {',
      "});",
      "export async function b(input: unknown) {",
      "}",
      "export type T = number;",
      "export { c } from './c';",
    ].join("\n");
    expect(exportGuards(src, "action")).toEqual([
      { name: "a", role: "editor" },
      { name: "b", role: null },
      { name: "export { c } from './c';", role: null },
    ]);
  });
  it("skips route settings and flags a bare handler", () => {
    const src = [
      'export const dynamic = "force-dynamic";',
      'export const GET = guardedRoute("viewer", async (req) => {',
      "export async function POST(req: Request) {",
    ].join("\n");
    expect(exportGuards(src, "route")).toEqual([
      { name: "GET", role: "viewer" },
      { name: "POST", role: null },
    ]);
  });
  it("does not take a route setting computed by a call for a setting", () => {
    expect(exportGuards("export const runtime = makeHandler();", "route")).toEqual([{ name: "runtime", role: null }]);
  });
});

describe("exportGuards on wrapped long signatures", () => {
  it("reads the role when prettier put it on the next line", () => {
    const src = ["export const removeCaseAction = guardedAction(", '  "admin",', "  async (systemId: string, input: unknown) => {"].join("\n");
    expect(exportGuards(src, "action")).toEqual([{ name: "removeCaseAction", role: "admin" }]);
  });
});
