/**
 * Before/after figures of the SQLite runner (issue 20: the job worker must not be slower than the
 * loop it replaced): bench/runner.ts run alternately from two checkouts — `--before DIR` (e.g. a
 * `git worktree` of main at the branch point, with its node_modules) and this one — in the same
 * session, so both sides see the same machine load. Prints each run's figure and the load average,
 * then the median of each side.
 *
 * Run: `npx tsx bench/runner-compare.ts --before DIR [--rounds 3] [--trials 10000] [--latency 50]
 * [--concurrency 64] [--warmup 2000]`. At latency > 0 the figure is wall time ÷ ideal (target ≤ 1.10);
 * at 0 ms it is trials per second (target ≥ 2,000).
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
const arg = (name: string, def: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const before = arg("before", "");
if (!before) {
  console.error("runner-compare: --before DIR (a checkout of the code to compare with) is required");
  process.exit(2);
}
const rounds = Number(arg("rounds", "3"));
const latency = Number(arg("latency", "50"));
const runArgs = [
  "--trials",
  arg("trials", "10000"),
  "--latency",
  String(latency),
  "--concurrency",
  arg("concurrency", "64"),
  "--warmup",
  arg("warmup", "2000"),
];
const sides = { before: path.resolve(before), after: process.cwd() };
const figures: Record<keyof typeof sides, number[]> = { before: [], after: [] };
/** The worker processes' CPU per trial in µs (all threads): on a loaded machine a steadier figure than the speed. */
const cpu: Record<keyof typeof sides, number[]> = { before: [], after: [] };
/** Bytes written to disk per trial (issue #5: ≤ 5,120): barely moved by the load. */
const bytes: Record<keyof typeof sides, number[]> = { before: [], after: [] };

for (let k = 0; k < rounds; k++) {
  for (const side of ["before", "after"] as const) {
    const load = loadavg()[0];
    const r = spawnSync(process.execPath, ["--import", "tsx", "bench/runner.ts", ...runArgs], { cwd: sides[side], stdio: ["ignore", "pipe", "inherit"] });
    const line = /^RESULT (.*)$/m.exec(r.stdout.toString());
    if (r.status !== 0 || !line) {
      console.error(`${side}: bench/runner.ts failed (exit ${r.status})\n${r.stdout.toString()}`);
      process.exit(1);
    }
    const res = JSON.parse(line[1]) as { rate: number; ratio: number; cpuUsPerTrial?: number; bytesPerTrial?: number };
    const figure = latency > 0 ? res.ratio : res.rate;
    figures[side].push(figure);
    if (res.cpuUsPerTrial !== undefined && Number.isFinite(res.cpuUsPerTrial)) cpu[side].push(res.cpuUsPerTrial);
    if (res.bytesPerTrial !== undefined && Number.isFinite(res.bytesPerTrial)) bytes[side].push(res.bytesPerTrial);
    console.log(
      `round ${k + 1} ${side.padEnd(6)}: ${latency > 0 ? `ratio ${figure.toFixed(3)}` : `${figure.toFixed(0)} trials/s`}, worker CPU ${res.cpuUsPerTrial?.toFixed(0) ?? "n/a"} µs per trial, ${res.bytesPerTrial?.toFixed(0) ?? "n/a"} bytes written per trial (load ${load.toFixed(1)} → ${loadavg()[0].toFixed(1)})`,
    );
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const side of ["before", "after"] as const) {
  const xs = figures[side];
  const f = (v: number) => (latency > 0 ? v.toFixed(3) : v.toFixed(0));
  console.log(
    `${side}: median ${f(median(xs))} [${f(Math.min(...xs))}–${f(Math.max(...xs))}] ${latency > 0 ? "× ideal (target ≤ 1.10)" : "trials/s (target ≥ 2,000)"}` +
      (cpu[side].length ? `; worker CPU median ${median(cpu[side]).toFixed(0)} µs per trial` : "") +
      (bytes[side].length ? `; median ${median(bytes[side]).toFixed(0)} bytes written per trial (≤ 5,120)` : ""),
  );
}
