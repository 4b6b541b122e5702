/**
 * Is `patches/ai+6.0.326.patch` or the hand-written `nodeFetch` (server/http-fetch.ts) worth its
 * keep (issue #20: each stays only when it is worth more than 10 % of wall time at 50 ms latency)?
 * Runs bench/runner.ts — the real `npm run worker` process and its trial threads on a SQLite file
 * against the loopback model server — for four variants side by side, in one run:
 *
 *   { ai as published, ai with the patch } × { nodeFetch, Node's fetch (undici) with redirect: "manual" }
 *
 * Each variant is a copy of this checkout's tracked files under `bench/.out/ai-patch/<variant>/`
 * whose `node_modules` links every installed package except `ai`: that one is a real folder, the
 * published tarball of the installed version (`npm pack ai@<version>`, so never the installed,
 * possibly patched, copy) with or without the patch applied. For Node's fetch the copy's
 * server/http-fetch.ts is replaced by a module exporting the global fetch under the same name, so
 * the worker and its trial threads bundle exactly what they would use without nodeFetch. Nothing
 * in this checkout's own files or node_modules is changed.
 *
 * Variants run in turn within each round (the order rotates per round) and the table gives the
 * median and range over `--rounds`, with the 1-minute load average when each run started (the
 * machine is shared). "without it: +x %" is the wall time without the patch (or nodeFetch) over
 * the wall time with it, less one, with the other setting unchanged.
 *
 * Run: `npx tsx bench/ai-patch.ts [--trials 20000] [--concurrency 256] [--latencies 50,0]
 * [--rounds 3] [--warmup 2000] [--variants a,b] [--patch patches/ai+6.0.326.patch] [--node-fetch-from REV]`
 * (`--variants`: only the named ones, e.g. `patch+nodeFetch,no-patch+nodeFetch`).
 * `--patch` names the patch file (once dropped from the tree: `git show REV:patches/ai+6.0.326.patch`
 * into a file); `--node-fetch-from REV` takes server/http-fetch.ts and server/buffered-response.ts
 * from git revision REV for the nodeFetch variants (by default this checkout's files).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const arg = (name: string, def: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const TRIALS = Number(arg("trials", "20000"));
const CONCURRENCY = Number(arg("concurrency", "256"));
const LATENCIES = arg("latencies", "50,0").split(",").map(Number);
const ROUNDS = Number(arg("rounds", "3"));
const WARMUP = arg("warmup", "2000");
const PATCH = path.resolve(arg("patch", "patches/ai+6.0.326.patch"));
const NODE_FETCH_FROM = arg("node-fetch-from", "");
/** Only these variants (comma-separated names, e.g. "patch+nodeFetch,no-patch+nodeFetch"); default all four. */
const ONLY = arg("variants", "").split(",").filter(Boolean);

const root = process.cwd();
if (!existsSync(path.join(root, "package.json")) || !existsSync(path.join(root, "bench", "runner.ts")))
  throw new Error("bench/ai-patch.ts: run it from the project root (npx tsx bench/ai-patch.ts)");
if (!existsSync(PATCH)) throw new Error(`bench/ai-patch.ts: no patch file at ${PATCH} (pass --patch FILE)`);
const OUT = path.join(root, "bench", ".out", "ai-patch");
mkdirSync(OUT, { recursive: true });

/** Runs a command, throwing with its output when it fails. */
function run(cmd: string, argv: string[], cwd: string): string {
  const r = spawnSync(cmd, argv, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(" ")} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

// The published ai package of the installed version, unpacked, and a patched copy of it.
const version = (JSON.parse(readFileSync(path.join(root, "node_modules", "ai", "package.json"), "utf8")) as { version: string }).version;
const pristine = path.join(OUT, `ai-${version}`);
const patched = path.join(OUT, `ai-${version}-patched`);
rmSync(pristine, { recursive: true, force: true });
rmSync(patched, { recursive: true, force: true });
const tgz = run("npm", ["pack", `ai@${version}`, "--pack-destination", OUT, "--silent"], root)
  .trim()
  .split("\n")
  .pop()!;
mkdirSync(pristine);
run("tar", ["-xzf", path.join(OUT, tgz), "-C", pristine, "--strip-components=1"], root);
cpSync(pristine, patched, { recursive: true });
run("patch", ["-p3", "--forward", "--silent", "-i", PATCH], patched); // a/node_modules/ai/dist/… → dist/…

/** True when the built ESM file skips the span attributes with telemetry off (the patch's mark). */
const carriesPatch = (dir: string) => readFileSync(path.join(dir, "dist", "index.mjs"), "utf8").includes("telemetry.isEnabled) !== true ? {} :");
if (carriesPatch(pristine) || !carriesPatch(patched)) throw new Error("bench/ai-patch.ts: the published and patched copies of ai are not what they should be");

/** server/http-fetch.ts for the "Node's fetch" variants: the global fetch, never following redirects. */
const GLOBAL_FETCH = `/** Benchmark variant (bench/ai-patch.ts): Node's own fetch in place of nodeFetch. */
export const nodeFetch: typeof fetch = (input, init) => fetch(input, { ...init, redirect: "manual" });
`;

const tracked = run("git", ["ls-files", "-z"], root).split("\0").filter(Boolean);
const installed = readdirSync(path.join(root, "node_modules")).filter((n) => n !== "ai" && n !== ".cache");

interface Variant {
  name: string;
  patch: boolean;
  fetch: "nodeFetch" | "fetch";
  dir: string;
}
const variants: Variant[] = [];
for (const patch of [true, false])
  for (const fetch of ["nodeFetch", "fetch"] as const) {
    const name = `${patch ? "patch" : "no-patch"}+${fetch}`;
    if (ONLY.length && !ONLY.includes(name)) continue;
    const dir = path.join(OUT, name);
    rmSync(dir, { recursive: true, force: true });
    for (const f of tracked) {
      if (!existsSync(path.join(root, f))) continue; // deleted in the working tree
      mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      cpSync(path.join(root, f), path.join(dir, f));
    }
    mkdirSync(path.join(dir, "node_modules"));
    for (const n of installed) symlinkSync(path.join(root, "node_modules", n), path.join(dir, "node_modules", n));
    cpSync(patch ? patched : pristine, path.join(dir, "node_modules", "ai"), { recursive: true });
    if (fetch === "fetch") writeFileSync(path.join(dir, "server", "http-fetch.ts"), GLOBAL_FETCH);
    else if (NODE_FETCH_FROM)
      for (const f of ["server/http-fetch.ts", "server/buffered-response.ts"])
        writeFileSync(path.join(dir, f), run("git", ["show", `${NODE_FETCH_FROM}:${f}`], root));
    variants.push({ name, patch, fetch, dir });
  }

/**
 * Checks that the bundles the variant's worker ran (its worker and trial-thread bundles) hold the
 * variant's ai build and fetch: the patch's `modelMessagesSchema` and nodeFetch's error text
 * appear in them exactly when they should.
 */
function checkBundles(v: Variant): void {
  const dir = path.join(v.dir, "node_modules", ".cache", "benchwork");
  const files = readdirSync(dir).filter((f) => /^(worker|trial-thread)-.*\.mjs$/.test(f));
  for (const prefix of ["worker-", "trial-thread-"]) if (!files.some((f) => f.startsWith(prefix))) throw new Error(`${v.name}: no ${prefix}bundle in ${dir}`);
  for (const f of files.filter((f) => f.startsWith("trial-thread-"))) {
    const code = readFileSync(path.join(dir, f), "utf8");
    if (code.includes("modelMessagesSchema") !== v.patch || code.includes("nodeFetch: unsupported protocol") !== (v.fetch === "nodeFetch"))
      throw new Error(`${v.name}: ${f} does not hold the variant's ai build and fetch`);
  }
}

interface Result {
  variant: string;
  latency: number;
  wallS: number;
  rate: number;
  cpuS: number;
  cpuUsPerTrial: number;
  load: number;
}
const results: Result[] = [];
const loadavg = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
const env = { ...process.env };
delete env.BENCHWORK_ROOT; // each copy's worker bundles its own files
console.log(`ai ${version}; ${TRIALS.toLocaleString("en-US")} trials, concurrency ${CONCURRENCY}, latencies ${LATENCIES.join(", ")} ms, ${ROUNDS} rounds`);
for (let round = 0; round < ROUNDS; round++)
  for (const latency of LATENCIES)
    for (let k = 0; k < variants.length; k++) {
      const v = variants[(k + round) % variants.length];
      const load = loadavg();
      const r = spawnSync(
        process.execPath,
        [
          "--import",
          "tsx",
          "bench/runner.ts",
          "--trials",
          String(TRIALS),
          "--latency",
          String(latency),
          "--concurrency",
          String(CONCURRENCY),
          "--warmup",
          WARMUP,
        ],
        { cwd: v.dir, env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
      );
      const line = /^RESULT (.*)$/m.exec(r.stdout ?? "");
      if (r.status !== 0 || !line) throw new Error(`${v.name} @ ${latency} ms: bench/runner.ts failed (${r.status}):\n${r.stdout}`);
      if (!/trials: (\d+) done, 0 errors, 0 skipped/.test(r.stdout)) throw new Error(`${v.name} @ ${latency} ms: not every trial passed:\n${r.stdout}`);
      checkBundles(v);
      const x = JSON.parse(line[1]) as { rate: number; cpuUsPerTrial: number };
      const res = {
        variant: v.name,
        latency,
        wallS: TRIALS / x.rate,
        rate: x.rate,
        cpuS: (x.cpuUsPerTrial * TRIALS) / 1e6,
        cpuUsPerTrial: x.cpuUsPerTrial,
        load,
      };
      results.push(res);
      console.log(
        `round ${round + 1} ${v.name.padEnd(18)} @ ${latency} ms: wall ${res.wallS.toFixed(2)} s, ${res.rate.toFixed(0)} trials/s, worker CPU ${res.cpuS.toFixed(2)} s (${res.cpuUsPerTrial.toFixed(0)} µs/trial), load ${load.toFixed(2)}`,
      );
    }

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const cell = (xs: number[], d: number) => `${median(xs).toFixed(d)} [${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)}]`;
const medWall = (name: string, latency: number) => median(results.filter((r) => r.variant === name && r.latency === latency).map((r) => r.wallS));
const pct = (without: number, withIt: number) => `${without >= withIt ? "+" : ""}${((without / withIt - 1) * 100).toFixed(1)} %`;

for (const latency of LATENCIES) {
  const ideal = latency > 0 ? ` (ideal: trials × latency / concurrency = ${((TRIALS * latency) / CONCURRENCY / 1000).toFixed(2)} s)` : "";
  console.log(`\n== ${TRIALS.toLocaleString("en-US")} trials @ ${latency} ms, concurrency ${CONCURRENCY}: median [min–max] of ${ROUNDS} rounds${ideal} ==`);
  console.log(`| variant | wall s | trials/s | worker CPU s | worker CPU µs/trial | load avg (1 min) at start |`);
  console.log(`|---|---|---|---|---|---|`);
  for (const v of variants) {
    const rs = results.filter((r) => r.variant === v.name && r.latency === latency);
    const col = (k: "wallS" | "rate" | "cpuS" | "cpuUsPerTrial" | "load", d: number) =>
      cell(
        rs.map((r) => r[k]),
        d,
      );
    console.log(`| ${v.name} | ${col("wallS", 2)} | ${col("rate", 0)} | ${col("cpuS", 2)} | ${col("cpuUsPerTrial", 0)} | ${col("load", 2)} |`);
  }
  const has = (name: string) => variants.some((v) => v.name === name);
  for (const fetch of ["nodeFetch", "fetch"])
    if (has(`no-patch+${fetch}`) && has(`patch+${fetch}`))
      console.log(`patch, with ${fetch}: wall time without it ${pct(medWall(`no-patch+${fetch}`, latency), medWall(`patch+${fetch}`, latency))}`);
  for (const p of ["patch", "no-patch"])
    if (has(`${p}+fetch`) && has(`${p}+nodeFetch`))
      console.log(`nodeFetch, with ${p}: wall time without it (Node's fetch) ${pct(medWall(`${p}+fetch`, latency), medWall(`${p}+nodeFetch`, latency))}`);
}
