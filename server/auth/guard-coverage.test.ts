/**
 * Issue 19: every server action (app/**\/actions.ts) and route handler (app/api/**\/route.ts) goes
 * through the role wrapper (server/auth/guard.ts). Lists the files on disk, so a new action or
 * route without the wrapper fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exportGuards } from "@/lib/auth/guard-coverage";

const APP = path.resolve(__dirname, "../../app");

/** Route files that are not wrapped, each with the reason. */
const UNWRAPPED_ROUTES: Record<string, string> = {
  "api/auth/[...all]/route.ts": "better-auth's own sign-in/out endpoints: how one gets a session; each checks its own",
  "api/v1/openapi.json/route.ts": "the HTTP API's OpenAPI document: no data (the proxy still asks for a session or token once users exist)",
};

/** Actions and routes only an admin may call (users, model configurations and key names, deleting data). */
const ADMIN_ONLY = [
  "models/actions.ts:createModelConfigAction",
  "models/actions.ts:updateModelConfigAction",
  "models/actions.ts:deleteModelConfigAction",
  "models/actions.ts:testModelConfigAction",
  "systems/[systemId]/library/actions.ts:removeCaseAction",
  "users/actions.ts:addUserAction",
  "users/actions.ts:changeRoleAction",
  "users/actions.ts:removeUserAction",
  "users/actions.ts:signOutUserAction",
];

/** Pages that only change things: a viewer gets "needs the editor role" instead of a form that fails on submit. */
const EDITOR_PAGES = [
  "systems/[systemId]/benches/new/page.tsx",
  "systems/[systemId]/prompts/[promptName]/edit/page.tsx",
  "systems/[systemId]/datasets/upload/page.tsx",
  "systems/[systemId]/datasets/upload/[uploadId]/page.tsx",
  "systems/[systemId]/library/generate/page.tsx",
];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** A server-actions module, whatever its name (e.g. rerun-actions.ts): its first statement is "use server". */
function isActionsFile(f: string): boolean {
  if (!/\.tsx?$/.test(f) || f.startsWith("api/")) return false;
  return /^\s*(?:\/\*[\s\S]*?\*\/\s*|\/\/[^\n]*\n\s*)*["']use server["']/.test(readFileSync(path.join(APP, f), "utf8"));
}

const files = walk(APP)
  .map((f) => path.relative(APP, f).split(path.sep).join("/"))
  .filter((f) => isActionsFile(f) || (f.startsWith("api/") && f.endsWith("/route.ts")));

const guards = files.flatMap((file) =>
  exportGuards(readFileSync(path.join(APP, file), "utf8"), file.startsWith("api/") ? "route" : "action").map((g) => ({ file, ...g })),
);

describe("the role wrapper on every action and route", () => {
  it("finds the actions and routes (the listing works)", () => {
    expect(files).toContain("systems/[systemId]/benches/actions.ts");
    expect(files).toContain("api/systems/[systemId]/uploads/route.ts");
    // Actions modules are found by their "use server" directive, not by their name.
    expect(files).toContain("systems/[systemId]/benches/[benchId]/rerun-actions.ts");
    expect(files).toContain("api/v1/benches/route.ts");
    expect(guards.length).toBeGreaterThan(30);
  });

  it("wraps every exported action and handler", () => {
    const bare = guards.filter((g) => g.role === null && !UNWRAPPED_ROUTES[g.file]).map((g) => `${g.file}: ${g.name}`);
    expect(bare).toEqual([]);
  });

  it("serves only the better-auth endpoints the pages use (the admin plugin's would bypass the Users page and the activity log)", () => {
    const source = readFileSync(path.join(APP, "api/auth/[...all]/route.ts"), "utf8");
    for (const handler of ["GET", "POST"])
      expect(source).toMatch(new RegExp(`export async function ${handler}\\(request: Request\\): Promise<Response> \\{\\s*return handle\\(request\\);`));
    expect(source).toMatch(/if \(!isServedAuthEndpoint\(request\.method, new URL\(request\.url\)\.pathname\)\) return/);
  });

  it("checks the editor role on the server in every page that only changes things, before it reads anything", () => {
    const unchecked = EDITOR_PAGES.filter((file) => {
      const body = readFileSync(path.join(APP, file), "utf8").split(/export default async function \w+/)[1] ?? "";
      const check = body.search(/const refused = await pageRoleRefusal\("editor", "[^"]+"\);\s*if \(refused\) return <NeedsRole /);
      return check < 0 || body.slice(0, check).includes("getDb(");
    });
    expect(unchecked).toEqual([]);
  });

  it("keeps users, model configurations and deletions admin-only", () => {
    const roles = Object.fromEntries(guards.map((g) => [`${g.file}:${g.name}`, g.role]));
    expect(Object.fromEntries(ADMIN_ONLY.map((k) => [k, roles[k]]))).toEqual(Object.fromEntries(ADMIN_ONLY.map((k) => [k, "admin"])));
  });

  it("lets viewers call nothing that writes: only GET handlers are viewer-level", () => {
    const viewerLevel = guards.filter((g) => g.role === "viewer").map((g) => `${g.file}:${g.name}`);
    expect(viewerLevel.filter((k) => !k.endsWith(":GET") && k !== "account/actions.ts:signOutEverywhereAction" && !k.startsWith("tokens/"))).toEqual([]);
  });
});
