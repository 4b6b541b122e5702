/**
 * Cases tab speed on a large library (issue #2): seeds 100,000 cases into one system and measures
 * the server time of the Cases tab for the first page, page 500, a source filter and a text search,
 * p50 and p95 over 50 requests each. Target: p95 under 50 ms for each.
 *
 * Two measurements:
 *  - "queries": the data the page loads (listCases + source counts + prompts), in process;
 *  - "http": full server render of the page by the production server (`next start`), when the
 *    production build is current (run `npm run build` first), GET over loopback.
 *
 * Run: `npx tsx bench/library.ts` (add `--keep` to reuse bench/.out/library.db).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { openDatabase, migrateDatabase } from "../db/client";
import { addCases, listCases, type NewCase } from "../db/queries/cases";
import { caseCountsBySource, createPrompt, createSystem, listPrompts } from "../db/queries/systems";
import { emptyCaseContent, type CaseSource } from "../lib/library/case-content";
import { describeTimes, percentile, timeMany } from "./stats";

const N = 100_000;
const RUNS = 50;
/** Requests before timing each scenario, so JIT warm-up of a fresh server is not measured. */
const WARMUP = 20;
const DB = "bench/.out/library.db";
const PORT = 3199;

mkdirSync("bench/.out", { recursive: true });
const keep = process.argv.includes("--keep") && existsSync(DB);
if (!keep) for (const s of ["", "-wal", "-shm"]) rmSync(DB + s, { force: true });
const db = openDatabase(DB);
migrateDatabase(db);

if (!keep) {
  const questions = readFileSync("db/seed/data/gsm8k_example_model_solutions_200.jsonl", "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { question: string; reference_answer: string });
  await createSystem(db, { id: "big", name: "Big library" });
  const prompts = [
    await createPrompt(db, { systemId: "big", name: "solver", systemPrompt: "Solve it." }),
    await createPrompt(db, { systemId: "big", name: "checker", systemPrompt: "Check it." }),
  ];
  const sources: CaseSource[] = ["dataset", "dataset", "dataset", "dataset", "dataset", "dataset", "custom", "custom", "retained", "generated", "code"];
  const t0 = performance.now();
  const CHUNK = 10_000;
  for (let start = 0; start < N; start += CHUNK) {
    const list: NewCase[] = [];
    for (let i = start; i < Math.min(N, start + CHUNK); i++) {
      const q = questions[i % questions.length];
      list.push({
        systemId: "big",
        promptId: prompts[i % 2],
        caseKey: `big-${String(i).padStart(6, "0")}`,
        source: sources[i % sources.length],
        status: i % 17 === 0 ? "paused" : "active",
        content: { ...emptyCaseContent(), input: `${q.question} (variant ${i})`, expected: q.reference_answer },
      });
    }
    await addCases(db, list);
  }
  console.log(`seeded ${N.toLocaleString("en-US")} cases in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  db.$client.exec("ANALYZE");
}

const scenarios: { name: string; query: Parameters<typeof listCases>[1]; url: string }[] = [
  { name: "first page", query: { systemId: "big" }, url: "/systems/big/library" },
  { name: "page 500", query: { systemId: "big", page: 500 }, url: "/systems/big/library?page=500" },
  { name: "source filter (retained)", query: { systemId: "big", source: "retained" }, url: "/systems/big/library?source=retained" },
  { name: "text search (“farmers”)", query: { systemId: "big", q: "farmers" }, url: "/systems/big/library?q=farmers" },
  { name: "text search, common (“how many”)", query: { systemId: "big", q: "how many" }, url: "/systems/big/library?q=how+many" },
];

console.log(`\nqueries (listCases + source counts + prompts), ${RUNS} runs each:`);
const results: Record<string, number> = {};
for (const s of scenarios) {
  let total = 0;
  const times = await timeMany(RUNS, async () => {
    const [page] = await Promise.all([listCases(db, s.query), caseCountsBySource(db, "big"), listPrompts(db, "big")]);
    total = page.total;
  });
  results[`q:${s.name}`] = percentile(times, 95);
  console.log(`  ${s.name.padEnd(28)} ${describeTimes(times)}  (${total.toLocaleString("en-US")} matching)`);
}
db.$client.close();

const buildOk = existsSync(".next/BUILD_ID");
if (!buildOk) {
  console.log("\nhttp: skipped (no production build; run `npm run build` first)");
} else {
  const server = spawn("node_modules/.bin/next", ["start", "--hostname", "127.0.0.1", "-p", String(PORT)], {
    env: { ...process.env, BENCHWORK_DB: DB, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${PORT}`;
  const stop = () => server.kill();
  process.on("exit", stop);
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(base + "/about")).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(`\nhttp (full server render by next start, GET over loopback), ${RUNS} runs each after ${WARMUP} warm-up requests:`);
  for (const s of scenarios) {
    for (let i = 0; i < WARMUP; i++) await (await fetch(base + s.url)).text();
    const times = await timeMany(RUNS, async () => {
      const r = await fetch(base + s.url);
      if (!r.ok) throw new Error(`${s.url}: HTTP ${r.status}`);
      await r.text();
    });
    results[`http:${s.name}`] = percentile(times, 95);
    console.log(`  ${s.name.padEnd(28)} ${describeTimes(times)}`);
  }
  server.kill();
}

const worst = Math.max(...Object.values(results));
console.log(`\nworst p95: ${worst.toFixed(2)} ms (target < 50 ms): ${worst < 50 ? "MET" : "NOT MET"}`);
