/**
 * `benchwork run` throughput and footprint (issue #6): a generated benchmark repository with one
 * eval over a CSV of N cases and a `contains` check, run by the real CLI (`node cli/bin.mjs run`,
 * its own process) against a loopback OpenAI-compatible server (its own process, fixed latency) —
 * the same model setup as bench/runner.ts. Prints the wall time of `compile` and of `run` (process
 * start to exit), the run phase as the CLI reports it, cases per second, and the peak RSS of the
 * CLI process.
 *
 * Run: `npx tsx bench/cli.ts [--cases 10000] [--latency 0] [--concurrency 64]`
 * or `npx tsx bench/cli.ts --suite` for 10,000 cases at 0 ms ×64, at 0 ms ×1 (sequential) and at 50 ms ×64.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const arg = (name: string, def: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};

if (args.includes("--suite")) {
  for (const [latency, conc] of [
    [0, 64],
    [0, 1],
    [50, 64],
  ]) {
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", "bench/cli.ts", "--cases", arg("cases", "10000"), "--latency", String(latency), "--concurrency", String(conc)],
      { stdio: "inherit" },
    );
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  process.exit(0);
}

const CASES = Number(arg("cases", "10000"));
const LATENCY = Number(arg("latency", "0"));
const CONCURRENCY = Number(arg("concurrency", "64"));
const PORT = Number(arg("port", String(4800 + Math.floor(Math.random() * 500))));
const OUT = path.resolve("bench/.out/cli");
const REPO = path.join(OUT, `repo-${CASES}`);

// The benchmark repository: one eval, one CSV, a contains check (expected text = the server's answer).
rmSync(REPO, { recursive: true, force: true });
mkdirSync(path.join(REPO, "evals"), { recursive: true });
writeFileSync(
  path.join(REPO, "benchmark.config.ts"),
  `export default { protocolVersion: 1, title: "CLI load", version: "1.0.0", license: "MIT", evals: ["evals/load.ts"] };\n`,
);
writeFileSync(
  path.join(REPO, "evals/load.ts"),
  `export default { id: "load", systemPrompt: "Answer briefly.", evaluate: { kind: "contains" }, cases: "./load.csv" };\n`,
);
const rows = ["id,prompt,expected"];
for (let i = 0; i < CASES; i++) rows.push(`load-${i},Question number ${i}: what is the answer?,Scripted answer`);
writeFileSync(path.join(REPO, "evals/load.csv"), rows.join("\n") + "\n");

// The model server, in its own process (default reply "Scripted answer.").
const server: ChildProcess = spawn(
  process.execPath,
  ["--import", "tsx", "e2e/fixtures/scripted-model-server.ts", "--port", String(PORT), "--latency", String(LATENCY)],
  { stdio: ["ignore", "pipe", "inherit"] },
);
await new Promise<void>((resolve, reject) => {
  server.stdout!.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
  server.on("exit", (c) => reject(new Error(`model server exited ${c}`)));
});
process.on("exit", () => server.kill());

/** Prints the process's peak RSS (KiB) to stderr on exit: preloaded into the CLI process. */
const RSS_PRELOAD = `data:text/javascript,process.on("exit",()=>process.stderr.write("benchwork-bench-maxrss "+process.resourceUsage().maxRSS+"\\n"))`;

/** Runs the CLI in its own process; returns wall time (ms), exit code, stdout and peak RSS (KiB). */
function cli(cliArgs: string[]): Promise<{ ms: number; code: number | null; stdout: string; maxRssKb: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ["--import", RSS_PRELOAD, "cli/bin.mjs", ...cliArgs], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => {
      const m = /benchwork-bench-maxrss (\d+)/.exec(stderr);
      if (code !== 0 && code !== 1) process.stderr.write(stderr);
      resolve({ ms: performance.now() - t0, code, stdout, maxRssKb: m ? Number(m[1]) : NaN });
    });
  });
}

const compiled = await cli(["compile", REPO, "--out", path.join(OUT, "release.json")]);
if (compiled.code !== 0) {
  console.error(compiled.stdout);
  process.exit(1);
}
const resultsFile = path.join(OUT, "results.json");
const run = await cli([
  "run",
  REPO,
  "--provider",
  "openai-compatible",
  "--base-url",
  `http://127.0.0.1:${PORT}/v1`,
  "--model-id",
  "scripted-1",
  "--concurrency",
  String(CONCURRENCY),
  "--json-output",
  resultsFile,
]);
const summary = /(\d+) passed, (\d+) failed.* of (\d+) in ([\d.]+) s — (PASS|FAIL)/.exec(run.stdout);
const json = JSON.parse(readFileSync(resultsFile, "utf8")) as { summary: { total: number; passed: number; durationSeconds: number } };
const runPhase = json.summary.durationSeconds;

console.log(`\n== benchwork run: ${CASES.toLocaleString("en-US")} CSV cases, contains check, latency ${LATENCY} ms, --concurrency ${CONCURRENCY} ==`);
console.log(`result: exit ${run.code}, ${json.summary.passed} of ${json.summary.total} passed (${summary?.[5] ?? "?"})`);
console.log(`compile (process start → exit): ${(compiled.ms / 1000).toFixed(2)} s, peak RSS ${(compiled.maxRssKb / 1024).toFixed(0)} MB`);
console.log(
  `run (process start → exit, incl. load, compile, JSON output): ${(run.ms / 1000).toFixed(2)} s → ${(CASES / (run.ms / 1000)).toFixed(0)} cases/s end to end`,
);
console.log(
  `run phase (first case → last case, as reported): ${runPhase.toFixed(2)} s → ${(CASES / runPhase).toFixed(0)} cases/s (target ≥ 2,000 at 0 ms latency)`,
);
if (LATENCY > 0) {
  const ideal = (CASES * LATENCY) / CONCURRENCY / 1000;
  console.log(`ideal run phase (cases × latency / concurrency): ${ideal.toFixed(2)} s → ratio ${(runPhase / ideal).toFixed(3)}`);
}
console.log(`peak RSS of the run process: ${(run.maxRssKb / 1024).toFixed(0)} MB`);
server.kill();
process.exit(run.code === 0 ? 0 : 1);
