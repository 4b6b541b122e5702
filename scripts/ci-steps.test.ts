/**
 * .ci/run's accounting (.ci/steps.sh): every step's closing line `tests: N passed, M failed` adds
 * up into the one last line; a step that ends without one, or fails with no failed test, counts as
 * a failure; the exit status is non-zero when anything failed.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Runs `script` in bash after sourcing .ci/steps.sh; returns its output lines and exit status. */
function ci(script: string) {
  const r = spawnSync("bash", ["-c", `set -uo pipefail; source .ci/steps.sh; ${script}`], { cwd: ROOT, encoding: "utf8" });
  return { lines: r.stdout.trimEnd().split("\n"), status: r.status };
}

describe(".ci/steps.sh", () => {
  it("sums the steps' closing lines into one last line, renaming theirs", () => {
    const r = ci(`step "npm test" printf 'x\\ntests: 1100 passed, 0 failed\\n'; step "node 24" printf 'tests: 1085 passed, 0 failed\\n'; finish`);
    expect(r.lines).toEqual(["x", "ci: npm test: tests: 1100 passed, 0 failed", "ci: node 24: tests: 1085 passed, 0 failed", "tests: 2185 passed, 0 failed"]);
    expect(r.lines.filter((l) => l.startsWith("tests:"))).toHaveLength(1);
    expect(r.status).toBe(0);
  });

  it("adds failed tests and exits non-zero", () => {
    const r = ci(`step a bash -c 'echo "tests: 10 passed, 2 failed"; exit 1'; step b printf 'tests: 5 passed, 0 failed\\n'; finish`);
    expect(r.lines.at(-1)).toBe("tests: 15 passed, 2 failed");
    expect(r.status).toBe(1);
  });

  it("counts a step without a closing line, or one that fails with none failed, as a failure", () => {
    const r = ci(`step build bash -c 'echo boom; exit 3'; step odd bash -c 'echo "tests: 4 passed, 0 failed"; exit 1'; finish`);
    expect(r.lines).toContain("ci: build: exited with 3 without a closing tests line");
    expect(r.lines).toContain("ci: odd: exited with 1 although no test failed");
    expect(r.lines.at(-1)).toBe("tests: 4 passed, 2 failed");
    expect(r.status).toBe(1);
  });
});
