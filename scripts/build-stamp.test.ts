/**
 * `npm run build` leaves a build `npm start` takes as current (found by a tester: `npm run build`
 * did not write the fingerprint, so the next `npm start` built the whole app again, ~2 min on two
 * cores). The build script's steps are run here on a folder of their own with `next build` left
 * out (a fake BUILD_ID stands for it): what is checked is that they stamp the build.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Whether `npm start` (scripts/build-state.mjs) would take the build in `cwd` as current. */
function buildIsCurrentIn(cwd: string): boolean {
  const stateUrl = new URL(`file://${path.join(root, "scripts", "build-state.mjs")}`).href;
  const r = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", `import { buildIsCurrent } from ${JSON.stringify(stateUrl)}; process.exit(buildIsCurrent() ? 0 : 3);`],
    { cwd },
  );
  return r.status === 0;
}

describe("npm run build", () => {
  it("stamps the build after next build, so that npm start does not build it again", () => {
    const script = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.build;
    const steps = script.split("&&").map((s) => s.trim());
    expect(steps[0]).toBe("next build");
    const dir = mkdtempSync(path.join(tmpdir(), "benchwork-build-stamp-"));
    dirs.push(dir);
    mkdirSync(path.join(dir, "app"));
    writeFileSync(path.join(dir, "app", "page.tsx"), "export default function Page() { return null; }\n");
    mkdirSync(path.join(dir, ".next"));
    writeFileSync(path.join(dir, ".next", "BUILD_ID"), "fake\n"); // what `next build` leaves
    expect(buildIsCurrentIn(dir)).toBe(false);
    // The steps after `next build` that stamp it (the worker bundles' step is left out: it builds real bundles).
    for (const step of steps.slice(1).filter((s) => !s.includes("build-worker"))) {
      const [cmd, ...args] = step.split(/\s+/);
      expect(cmd).toBe("node");
      const r = spawnSync(process.execPath, [path.join(root, args[0]), ...args.slice(1)], { cwd: dir, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
    }
    expect(buildIsCurrentIn(dir)).toBe(true);
    // A source changed after the build: no longer current.
    writeFileSync(path.join(dir, "app", "page.tsx"), "export default function Page() { return 1; }\n");
    expect(buildIsCurrentIn(dir)).toBe(false);
  });
});
