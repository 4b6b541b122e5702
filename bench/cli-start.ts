/**
 * Startup of the `benchwork` command (issue 20), before vs after, side by side in one run: the same
 * commands through the command's bundle built ahead (cli/bin.mjs, plain JavaScript) and through tsx
 * (esbuild at run time: the launcher cli/bin.mjs was before, written to bench/.out/), alternated run
 * by run so that the machine's load falls on both alike. Commands: `--help`, and the README's
 * offline `benchwork run` of examples/support-tool-use (27 cases) against the scripted model server
 * (its own process). Prints the wall time (process start → exit: median, mean, min, max) and the
 * peak RSS of the command's process, with the load average; then, once each, what `npx benchwork
 * --help` costs on top (npm's own start) and what building the bundles costs (`npm install`'s last
 * step, `npm run build`'s second half, or the first command after a change of the sources).
 *
 * Run: `npx tsx bench/cli-start.ts [--runs 10]`
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { ensureWorkerBundles } from "../scripts/worker-bundles.mjs";

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1] || 10) || 10;
const ROOT = path.resolve(".");
const OUT = path.resolve("bench/.out/cli-start");
mkdirSync(OUT, { recursive: true });

// The launcher as it was before the bundle: tsx's loader (esbuild) compiles cli/main.ts and what it imports.
const TSX_BIN = path.join(OUT, "tsx-bin.mjs");
writeFileSync(
  TSX_BIN,
  [
    `import { register } from "tsx/esm/api";`,
    `process.env.BENCHWORK_ROOT ||= ${JSON.stringify(ROOT)};`,
    `register({ tsconfig: ${JSON.stringify(path.join(ROOT, "tsconfig.json"))} });`,
    `const { main } = await import(${JSON.stringify(path.join(ROOT, "cli", "main.ts"))});`,
    `const code = await main(process.argv.slice(2));`,
    `await Promise.all([process.stdout, process.stderr].map((s) => new Promise((r) => s.write("", r))));`,
    `process.exit(code);`,
  ].join("\n") + "\n",
);
const LAUNCHERS = { bundle: path.join(ROOT, "cli", "bin.mjs"), tsx: TSX_BIN } as const;

// The bundle is current before timing (what `npm install` / `npm run build` leave).
await ensureWorkerBundles({ root: ROOT, names: ["cli"] });

// The scripted model server of the README's offline run, in its own process.
const script = path.join(ROOT, "e2e/fixtures/model-scripts/support-tool-use.json");
const server: ChildProcess = spawn(process.execPath, ["--import", "tsx", "e2e/fixtures/scripted-model-server.ts", "--port", "0", "--script", script], {
  stdio: ["ignore", "pipe", "inherit"],
});
const baseUrl = await new Promise<string>((resolve, reject) => {
  let out = "";
  server.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    const m = /listening on (\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
  server.on("exit", (c) => reject(new Error(`model server exited ${c}`)));
});
process.on("exit", () => server.kill());

const resultsFile = path.join(OUT, "results.json");
const COMMANDS = {
  "--help": ["--help"],
  "run (27 cases)": [
    "run",
    "examples/support-tool-use",
    "--provider",
    "openai-compatible",
    "--base-url",
    baseUrl,
    "--model-id",
    "scripted-1",
    "--json-output",
    resultsFile,
  ],
} as const;

/** Prints the process's peak RSS (KiB) to stderr on exit: preloaded into the command's process. */
const RSS_PRELOAD = `data:text/javascript,process.on("exit",()=>process.stderr.write("benchwork-bench-maxrss "+process.resourceUsage().maxRSS+"\\n"))`;

/** Runs one command; returns its wall time (ms) and peak RSS (KiB); fails the bench on an unexpected exit. */
function once(bin: string, cliArgs: readonly string[]): { ms: number; rssKb: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["--import", RSS_PRELOAD, bin, ...cliArgs], { encoding: "utf8", cwd: ROOT });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${bin} ${cliArgs.join(" ")} exited ${r.status}:\n${r.stderr}`);
  return { ms, rssKb: Number(/benchwork-bench-maxrss (\d+)/.exec(r.stderr)?.[1] ?? NaN) };
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { median: s[Math.floor(s.length / 2)], mean, min: s[0], max: s[s.length - 1] };
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

for (const [label, cliArgs] of Object.entries(COMMANDS)) {
  const times: Record<keyof typeof LAUNCHERS, number[]> = { bundle: [], tsx: [] };
  const rss: Record<keyof typeof LAUNCHERS, number[]> = { bundle: [], tsx: [] };
  // One unmeasured run each (file cache, tsx's own cache), then alternated: tsx, bundle, bundle, tsx, …
  for (const bin of Object.values(LAUNCHERS)) once(bin, cliArgs);
  const loadBefore = load();
  for (let i = 0; i < RUNS; i++) {
    const order = (i % 2 ? ["bundle", "tsx"] : ["tsx", "bundle"]) as (keyof typeof LAUNCHERS)[];
    for (const which of order) {
      const r = once(LAUNCHERS[which], cliArgs);
      times[which].push(r.ms);
      rss[which].push(r.rssKb);
    }
  }
  if (label.startsWith("run")) {
    const json = JSON.parse(readFileSync(resultsFile, "utf8")) as { summary: { total: number; passed: number } };
    if (json.summary.passed !== 27) throw new Error(`the run passed ${json.summary.passed} of ${json.summary.total}`);
  }
  console.log(`\n== benchwork ${label}: ${RUNS} runs each, alternated (load average ${loadBefore} → ${load()}) ==`);
  for (const which of ["tsx", "bundle"] as const) {
    const t = stats(times[which]);
    const m = stats(rss[which]);
    console.log(
      `${which === "tsx" ? "before (tsx, esbuild at run time)" : "after (bundle built ahead)      "}: wall median ${t.median.toFixed(0)} ms, mean ${t.mean.toFixed(0)} ms (${t.min.toFixed(0)}–${t.max.toFixed(0)}); peak RSS median ${(m.median / 1024).toFixed(0)} MB (${(m.min / 1024).toFixed(0)}–${(m.max / 1024).toFixed(0)})`,
    );
  }
  console.log(`after / before (median wall): ${(stats(times.bundle).median / stats(times.tsx).median).toFixed(2)}`);
}

// npm's own start on top of the command: `npx benchwork --help` (the bundle), once per run.
const npx: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  const r = spawnSync("npx", ["benchwork", "--help"], { encoding: "utf8", cwd: ROOT });
  if (r.status !== 0) throw new Error(`npx benchwork --help exited ${r.status}:\n${r.stderr}`);
  npx.push(performance.now() - t0);
}
const n = stats(npx);
console.log(`\n== npx benchwork --help (after): median ${n.median.toFixed(0)} ms (${n.min.toFixed(0)}–${n.max.toFixed(0)}), load average ${load()} ==`);

// What building costs: every bundle (npm install's last step, `npm run build`'s second half).
const t0 = performance.now();
const b = spawnSync(process.execPath, ["scripts/build-worker.mjs"], { encoding: "utf8", cwd: ROOT });
if (b.status !== 0) throw new Error(b.stderr);
console.log(`== building every bundle (node scripts/build-worker.mjs): ${((performance.now() - t0) / 1000).toFixed(1)} s, load average ${load()} ==`);
server.kill();
