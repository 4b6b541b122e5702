/**
 * Every route handler of the HTTP API for the CLI goes through the one wrapper that checks the
 * role (server/api/handler.ts `apiRoute`), and the test server knows every one of them. A new
 * route file without the wrapper fails here. The OpenAPI document is the one public route.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { V1_ROUTES } from "./test-support/v1-server";

const ROOT = path.resolve("app/api/v1");
const PUBLIC = new Set(["openapi.json/route.ts"]);

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(path.join(dir, e.name)) : e.name === "route.ts" ? [path.relative(ROOT, path.join(dir, e.name))] : [],
  );
}

describe("the /api/v1 route handlers", () => {
  const files = routeFiles(ROOT);

  it("every exported method is made by apiRoute with a role (except the public OpenAPI document)", () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const f of files.filter((x) => !PUBLIC.has(x))) {
      const src = readFileSync(path.join(ROOT, f), "utf8");
      const methods = [...src.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]);
      expect(methods.length, f).toBeGreaterThan(0);
      for (const m of methods) expect(src, `${f} ${m}`).toMatch(new RegExp(`export const ${m} = apiRoute(<[^>]*>)?\\(\\s*\\{ role: "(viewer|editor|admin)"`));
    }
  });

  it("the test server routes every file", () => {
    const patterns = new Set(V1_ROUTES.map(([, p]) => `${p.replace(/^\/api\/v1\//, "").replace(/:(\w+)/g, "[$1]")}/route.ts`));
    expect([...patterns].sort()).toEqual([...files].sort());
  });
});
