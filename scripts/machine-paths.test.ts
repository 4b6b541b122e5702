/**
 * A clone on someone else's machine must pass its own tests: no code, test, script or benchmark
 * may read a path that exists only on the machine it was written on (a home folder, a shared
 * data folder). Data the tests need ships in the repository (db/seed/data/, test-data/).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Folders and files that hold the project's code, tests, scripts and settings. */
const SCANNED = [
  "app",
  "bench",
  "cli",
  "components",
  "db",
  "e2e",
  "examples",
  "lib",
  "scripts",
  "server",
  ".ci",
  "package.json",
  "playwright.config.ts",
  "vitest.config.ts",
  "next.config.ts",
  "drizzle.config.ts",
  "instrumentation.ts",
  "postcss.config.mjs",
  "tsconfig.json",
];
/** Generated or installed content, never written by hand. */
const SKIPPED = new Set(["node_modules", ".next", ".artifacts", ".test-results", "test-results", ".git"]);
/** Text files: these extensions, and extensionless scripts such as .ci/run. */
const TEXT = /\.(ts|tsx|mts|mjs|cjs|js|json|jsonc|md|sh|yml|yaml|csv|jsonl|txt)$|^[^.]+$/;
// Built from parts so this file does not name what it looks for.
const MACHINE_PATH = new RegExp(
  ["/" + "work/", "/" + "home/", "/" + "root/", "/" + "Users/", "C:" + "\\\\Users"].map((p) => p.replace(/[/\\]/g, "\\$&")).join("|"),
);

function files(p: string, out: string[]): string[] {
  const st = statSync(p, { throwIfNoEntry: false });
  if (!st) return out;
  if (st.isDirectory()) {
    for (const name of readdirSync(p)) if (!SKIPPED.has(name)) files(path.join(p, name), out);
  } else if (TEXT.test(path.basename(p))) out.push(p);
  return out;
}

describe("machine-specific paths", () => {
  it("no code, test, script, benchmark or setting names an absolute path of one machine", () => {
    const found: string[] = [];
    for (const f of SCANNED.flatMap((s) => files(path.join(ROOT, s), []))) {
      readFileSync(f, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (MACHINE_PATH.test(line)) found.push(`${path.relative(ROOT, f)}:${i + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("recognises such a path (the scan can fail)", () => {
    expect(MACHINE_PATH.test(`const DATA = "${"/" + "work"}/shared/datasets";`)).toBe(true);
    expect(MACHINE_PATH.test(`readFileSync("${"/" + "home"}/me/x.csv")`)).toBe(true);
    expect(MACHINE_PATH.test('readFileSync(path.join(ROOT, "db/seed/data/x.csv"))')).toBe(false);
  });
});
