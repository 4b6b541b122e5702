/**
 * Import benchmark (issue 3). Run from the project root:
 *
 *   npx tsx bench/import.ts            # all five cases
 *   npx tsx bench/import.ts csv-5k     # one case
 *
 * Generates into bench/.out/import/ (git-ignored), with a fixed seed:
 *   - csv-5k.csv    5,000 rows, ~4 MB (just under the 4 MB default limit)
 *   - xlsx-5k.xlsx  the same 5,000 rows as a workbook
 *   - csv-100k.csv  100,000 rows of the same shape (~78 MB; limits raised for this case)
 *   - xlsx-sst-62mb.xlsx  a hostile 2.2 MB workbook: two data rows, 62 MB of unused shared strings
 *                   (lib/import/fixtures/hostile-xlsx.ts; issue "Seal the server", item 9). It is
 *                   within the default byte, ratio and total-size limits; the importer must refuse
 *                   it quickly (the inflated size of xl/sharedStrings.xml is over its part limit)
 *                   instead of parsing it. "refused" in the table means it did.
 *   - xlsx-sst-15mb.xlsx  the same shape with 15.5 MB of shared strings, just under the default
 *                   16 MB part limit: the most such a file can still make the importer parse.
 * and measures each case 3 times, every run in a fresh `node` child process running the compiled
 * JavaScript (so each peak RSS and each cold start is its own, and the tsx loader is not counted):
 *   parse       = parseFile (bytes → table), wall time
 *   preview     = suggestMapping + applyMapping + previewRedaction (the mapping preview), wall time
 *   cpu         = user + system CPU time of parse + preview (the machine may be shared)
 *   peak RSS    = process.resourceUsage().maxRSS at the end of the child (the whole process:
 *                 Node itself, the loaded modules, the file's bytes, the table and the preview)
 * The first run's total and the median run's figures are printed; peak RSS is the highest of the 3.
 * Targets: csv-5k < 0.5 s, xlsx-5k < 2 s, csv-100k < 5 s (parse + preview), xlsx-sst-62mb refused in
 * < 0.5 s, xlsx-sst-15mb < 2 s; peak RSS < 400 MB.
 * Exit code 1 when a target is missed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
// The modules a server route for CSV/XLSX upload previews needs (not the index, which also loads
// every other part of the import core).
import { toCsv } from "../lib/import/export";
import type { ImportLimits } from "../lib/import/limits";
import { applyMapping } from "../lib/import/mapping";
import { parseFile } from "../lib/import/parse";
import { previewRedaction } from "../lib/import/redact/table";
import { suggestMapping } from "../lib/import/suggest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const OUT = argValue("--out") ?? fileURLToPath(new URL("./.out/import/", import.meta.url));
const BUILD = join(OUT, "build");
const MB = 1024 * 1024;

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Case {
  name: string;
  file: string;
  rows: number;
  targetSeconds: number;
  limits: Partial<ImportLimits>;
  /** The importer must refuse this file (a hostile one): the case passes when it does, in time. */
  refuse?: boolean;
}

const CASES: Case[] = [
  { name: "csv-5k", file: "csv-5k.csv", rows: 5000, targetSeconds: 0.5, limits: {} },
  { name: "xlsx-5k", file: "xlsx-5k.xlsx", rows: 5000, targetSeconds: 2, limits: {} },
  { name: "csv-100k", file: "csv-100k.csv", rows: 100_000, targetSeconds: 5, limits: { maxBytes: 120 * MB, maxRows: 100_000 } },
  { name: "xlsx-sst-62mb", file: "xlsx-sst-62mb.xlsx", rows: 0, targetSeconds: 0.5, limits: {}, refuse: true },
  { name: "xlsx-sst-15mb", file: "xlsx-sst-15mb.xlsx", rows: 2, targetSeconds: 2, limits: {} },
];
const RSS_TARGET_MB = 400;
const RUNS = 3;

// ---------------------------------------------------------------------------------------------
// Data generation (deterministic).

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the a customer order invoice refund card account payment transfer delivery parcel week month price total balance " +
  "statement branch online app password reset limit fee exchange rate currency travel abroad blocked pending " +
  "question answer model output reference check value number item store staff manager report daily weekly"
).split(" ");

function sentence(r: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const w = WORDS[Math.floor(r() * WORDS.length)];
    out.push(r() < 0.08 ? String(Math.floor(r() * 5000)) : w);
  }
  const s = out.join(" ");
  return s[0].toUpperCase() + s.slice(1);
}

const PII = [
  () => "ann.lee@example.com",
  () => "+44 20 7946 0958",
  () => "(555) 123-4567",
  () => "4111 1111 1111 1111",
  () => "DE89 3704 0044 0532 0130 00",
  () => "192.168.10.25",
  () => "123-45-6789",
];

function makeRows(n: number): Record<string, string>[] {
  const r = rng(42);
  const rows: Record<string, string>[] = [];
  for (let i = 0; i < n; i++) {
    const pii = r() < 0.05 ? " Contact: " + PII[Math.floor(r() * PII.length)]() + "." : "";
    const question = sentence(r, 19) + "?" + pii;
    const history = JSON.stringify([
      { role: "user", content: sentence(r, 14) },
      { role: "assistant", content: sentence(r, 16) },
    ]);
    rows.push({
      id: `case-${String(i + 1).padStart(6, "0")}`,
      question,
      expected_answer: sentence(r, 10),
      history,
      model_a_output: sentence(r, 16) + "\n" + sentence(r, 7),
      model_b_output: sentence(r, 20),
      tags: ["billing", "cards", "travel", "security"].filter(() => r() < 0.5).join(", "),
      notes: r() < 0.3 ? sentence(r, 8) : "",
      category: WORDS[Math.floor(r() * WORDS.length)],
    });
  }
  return rows;
}

/** Parent only. SheetJS and TypeScript are loaded lazily so that the measured child never loads them. */
async function generate(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  for (const [file, size] of [
    ["xlsx-sst-62mb.xlsx", 62 * MB],
    ["xlsx-sst-15mb.xlsx", 15.5 * MB],
  ] as const) {
    if (existsSync(OUT + file)) continue;
    const { sharedStringsBomb } = await import("../lib/import/fixtures/hostile-xlsx");
    writeFileSync(OUT + file, sharedStringsBomb(size));
  }
  const stamp = OUT + "generated-v2";
  if (existsSync(stamp) && CASES.every((c) => existsSync(OUT + c.file))) return;
  const t0 = performance.now();
  const XLSX = await import("xlsx");
  const rows5k = makeRows(5000);
  writeFileSync(OUT + "csv-5k.csv", toCsv(rows5k));
  const ws = XLSX.utils.json_to_sheet(rows5k);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, "Cases");
  writeFileSync(OUT + "xlsx-5k.xlsx", XLSX.write(wb, { type: "buffer", bookType: "xlsx", compression: true }) as Buffer);
  writeFileSync(OUT + "csv-100k.csv", toCsv(makeRows(100_000)));
  writeFileSync(stamp, new Date().toISOString());
  console.log(`generated inputs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

// ---------------------------------------------------------------------------------------------
// The measured runs execute compiled JavaScript in a plain `node` child, as production does (no
// tsx loader in the child: it adds ~40 MB RSS and a worker thread that are not the importer's).
// TypeScript's own transpiler writes bench/.out/import/build/ mirroring the project layout.

async function compileForChild(): Promise<string> {
  const ts = (await import("typescript")).default;
  const sources = [join(ROOT, "bench/import.ts"), join(ROOT, "lib/library/case-content.ts"), ...listTs(join(ROOT, "lib/import"))];
  for (const file of sources) {
    const out = join(BUILD, relative(ROOT, file)).replace(/\.ts$/, ".js");
    const js = ts.transpileModule(readFileSync(file, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      fileName: file,
    }).outputText;
    const fixed = js.replace(/(from\s+|import\s*\(\s*)"((?:\.{1,2}|@)\/[^"]+)"/g, (_m, pre: string, spec: string) => {
      const target = spec.startsWith("@/") ? join(BUILD, spec.slice(2)) : join(dirname(out), spec);
      let rel = relative(dirname(out), target);
      if (!rel.startsWith(".")) rel = "./" + rel;
      return `${pre}"${rel}.js"`;
    });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, fixed);
  }
  return join(BUILD, "bench/import.js");
}

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "fixtures") out.push(...listTs(path));
    } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// One case, measured in this process.

interface RunResult {
  parseMs: number;
  previewMs: number;
  totalMs: number;
  cpuMs: number;
  /** The importer's refusal (`code: message`), when it refused the file. */
  refused?: string;
}

async function runOnce(c: Case): Promise<RunResult & { rows: number; drafts: number; redacted: number; columns: number }> {
  // A Buffer is a Uint8Array: no copy. It is dropped after parsing, as an upload handler would.
  let bytes: Uint8Array | null = readFileSync(OUT + c.file);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let table;
  try {
    table = await parseFile(bytes, c.file, { limits: c.limits });
  } catch (e) {
    if (!c.refuse || (e as Error).name !== "ImportError") throw e;
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const refused = `${(e as { code: string }).code}: ${(e as Error).message}`;
    return { cpuMs: (cpu.user + cpu.system) / 1000, parseMs: ms, previewMs: 0, totalMs: ms, rows: 0, columns: 0, drafts: 0, redacted: 0, refused };
  }
  bytes = null;
  const t1 = performance.now();
  const mapping = suggestMapping(table.columns, { sampleRows: table.rows.slice(0, 20) });
  const mapped = applyMapping(table, mapping);
  const report = previewRedaction(table);
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    parseMs: t1 - t0,
    previewMs: t2 - t1,
    totalMs: t2 - t0,
    rows: table.rows.length,
    columns: table.columns.length,
    drafts: mapped.drafts.length,
    redacted: report.changedCells,
  };
}

/** Child process: one measured run of one case; prints one JSON line. */
async function child(name: string): Promise<void> {
  const c = CASES.find((x) => x.name === name);
  if (!c) throw new Error(`unknown case ${name}`);
  const run = await runOnce(c);
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ ...run, maxRssMb }) + "\n");
}

// ---------------------------------------------------------------------------------------------
// Parent: generate, run each case in a child, print the table.

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--out");
  if (process.argv.includes("--child")) return child(only[0]);
  await generate();
  const childScript = await compileForChild();
  const selected = only.length > 0 ? CASES.filter((c) => only.includes(c.name)) : CASES;
  let failed = false;
  const lines: string[] = [];
  lines.push(
    ["case", "file MB", "rows", "parse s", "preview s", "total s (run 1)", "total s (median)", "cpu s (median)", "target s", "peak RSS MB", "result"].join(
      " | ",
    ),
  );
  for (const c of selected) {
    const runs: (RunResult & { rows: number; columns: number; drafts: number; redacted: number; maxRssMb: number })[] = [];
    for (let i = 0; i < RUNS; i++) {
      const res = spawnSync(process.execPath, [childScript, "--child", c.name, "--out", OUT], { encoding: "utf8", maxBuffer: 16 * MB });
      if (res.status !== 0) {
        console.error(res.stderr || res.stdout);
        failed = true;
        break;
      }
      runs.push(JSON.parse(res.stdout.trim().split("\n").pop()!));
    }
    if (runs.length < RUNS) continue;
    const median = [...runs].sort((a, b) => a.totalMs - b.totalMs)[Math.floor(RUNS / 2)];
    const peak = Math.max(...runs.map((r) => r.maxRssMb));
    const ok = median.totalMs / 1000 < c.targetSeconds && peak < RSS_TARGET_MB && Boolean(c.refuse) === Boolean(median.refused);
    failed ||= !ok;
    lines.push(
      [
        c.name,
        (statSync(OUT + c.file).size / MB).toFixed(2),
        String(median.rows),
        (median.parseMs / 1000).toFixed(3),
        (median.previewMs / 1000).toFixed(3),
        (runs[0].totalMs / 1000).toFixed(3),
        (median.totalMs / 1000).toFixed(3),
        (median.cpuMs / 1000).toFixed(3),
        `< ${c.targetSeconds}`,
        peak.toFixed(0),
        ok ? "PASS" : "FAIL",
      ].join(" | "),
    );
    if (median.refused) lines.push(`  (refused: ${median.refused})`);
    else
      lines.push(
        `  (${median.columns} columns, ${median.drafts} case drafts, ${median.redacted} cells with personal data redacted${c.refuse ? "; accepted, but it should have been refused" : ""})`,
      );
  }
  console.log(
    `node ${process.version}, load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")} on ${cpus().length} CPUs`,
  );
  console.log(lines.join("\n"));
  console.log(`targets: total time per case as listed (median of ${RUNS} runs), peak RSS < ${RSS_TARGET_MB} MB per case; hostile cases must be refused`);
  process.exitCode = failed ? 1 : 0;
}

await main();
