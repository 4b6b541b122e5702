/**
 * The worker's bundles are built ahead (npm run build / npm start) into one folder with a stamp of
 * their sources; at run time a missing or stale bundle is rebuilt once, with one line saying so
 * (issue 20). Checked on a tiny project of its own, so the repository's sources are never touched.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUNDLE_DIR, ensureWorkerBundles } from "./worker-bundles.mjs";

let root: string;
let lines: string[];
const bundles = { probe: `import { word } from "./src/word.ts";\nconsole.log(word);\n` };
const options = () => ({ root, bundles, sources: ["src"], log: (line: string) => lines.push(line) });
const writeWord = (word: string, mtime: Date) => {
  const file = path.join(root, "src", "word.ts");
  writeFileSync(file, `export const word: string = ${JSON.stringify(word)};\n`);
  utimesSync(file, mtime, mtime);
};
/** What the bundle prints when run (it is an ES module of its own). */
const run = (file: string) => execFileSync(process.execPath, [file], { encoding: "utf8" }).trim();

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "benchwork-bundles-"));
  lines = [];
  writeFileSync(path.join(root, "tsconfig.json"), "{}\n");
  mkdirSync(path.join(root, "src"));
  writeWord("first", new Date("2026-01-01T00:00:00Z"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("worker bundles", () => {
  it("builds missing bundles into the bundle folder once, saying so on one line", async () => {
    const built = await ensureWorkerBundles(options());
    expect(lines).toEqual(["benchwork: worker bundles in dist/worker: probe missing; building them now, once (`npm run build` builds them ahead)"]);
    expect(path.dirname(built.probe)).toBe(path.join(root, BUNDLE_DIR));
    expect(run(built.probe)).toBe("first");
    const stamp = JSON.parse(readFileSync(path.join(root, BUNDLE_DIR, "manifest.json"), "utf8")) as { bundles: Record<string, { file: string }> };
    expect(stamp.bundles.probe.file).toBe(path.basename(built.probe));

    // Current: nothing is built or said again.
    const again = await ensureWorkerBundles(options());
    expect(again).toEqual(built);
    expect(lines).toHaveLength(1);
  });

  it("rebuilds a bundle whose sources changed after it was built", async () => {
    const before = await ensureWorkerBundles(options());
    writeWord("second", new Date("2026-01-02T00:00:00Z"));
    const after = await ensureWorkerBundles(options());
    expect(lines[1]).toBe(
      "benchwork: worker bundles in dist/worker: probe older than their sources; building them now, once (`npm run build` builds them ahead)",
    );
    expect(after.probe).not.toBe(before.probe);
    expect(run(after.probe)).toBe("second");
    await ensureWorkerBundles(options());
    expect(lines).toHaveLength(2);
  });

  it("rebuilds when a bundle named in the stamp is gone", async () => {
    const before = await ensureWorkerBundles(options());
    rmSync(before.probe);
    const after = await ensureWorkerBundles(options());
    expect(lines[1]).toMatch(/^benchwork: worker bundles in dist\/worker: probe missing;/);
    expect(run(after.probe)).toBe("first");
  });

  it("builds only the bundles a process asks for, and keeps the others' stamps", async () => {
    const two = { ...bundles, other: `console.log("other");\n` };
    const o = { ...options(), bundles: two };
    await ensureWorkerBundles({ ...o, names: ["other"] });
    const probe = await ensureWorkerBundles({ ...o, names: ["probe"] });
    expect(lines).toEqual([
      "benchwork: worker bundles in dist/worker: other missing; building them now, once (`npm run build` builds them ahead)",
      "benchwork: worker bundles in dist/worker: probe missing; building them now, once (`npm run build` builds them ahead)",
    ]);
    expect(Object.keys(probe)).toEqual(["probe"]);
    // Both are current now: asking for all builds nothing.
    const all = await ensureWorkerBundles(o);
    expect(lines).toHaveLength(2);
    expect(run(all.other)).toBe("other");
    expect(run(all.probe)).toBe("first");
  });

  it("names an unknown bundle", async () => {
    await expect(ensureWorkerBundles({ ...options(), names: ["nope"] })).rejects.toThrow("no worker bundle named nope");
  });
});
