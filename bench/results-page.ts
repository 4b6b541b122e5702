/**
 * Results page speed on a 20,000-trial bench (issue #16: "computing the statistics for a 20,000-trial
 * bench adds < 50 ms; the results page's first render stays < 200 ms"):
 *
 *   npx tsx bench/results-page.ts [--runs 20] [--serve PORT [--compare [--rounds N] [--before DIR]]] [--db PATH]
 *
 * 1. Seeds a temp SQLite file: a prompt with 2,000 cases, two priced model candidates × 5 repeats =
 *    20,000 trials (synthetic outcomes from a fixed seed: 3 checks each, latency and cost), with a
 *    spend cap and gate limits, stored through the real queue (claim + complete) and finalized.
 * 2. Times the statistics as the finalize computes them (issue #16: "adds < 50 ms"): one grouped
 *    query for the case tallies, costs and latencies, the trade-offs (cost t interval + latency
 *    bootstrap) and the paired evidence (comparisons, rates, regression statuses from the check
 *    outcomes the finalize has parsed anyway); the evidence recomputed from the trials (a summary
 *    stored before it was); and the flip table stored at finalize.
 * 3. Times the page's whole data phase in-process (every query and computation the results page
 *    makes), cold (a fresh connection) and warm.
 * 4. With `--serve PORT`: starts the production server (`scripts/start.mjs`, which builds when the
 *    bundle is stale) on that database and port, warms it on another page and loads the bench
 *    route's code (a 404), then times the first GET of the results page (its first server render)
 *    and `--runs` more.
 * 5. With `--compare` (and `--serve`): before and after side by side in this one run, each on a
 *    fresh server process over the same bench (`--rounds N` alternates them N times):
 *    - "before": the bench's summary without its stored evidence (as a bench finalized before it
 *      was stored: the page computes it on each render, the old code path) and every blocking
 *      regression and fix listed (`?list=all`; the old page listed up to 200 of each);
 *    - "stored, all listed": the stored evidence with every one listed;
 *    - "after": the stored evidence, 20 of each listed (the page as a user opens it).
 *    The in-process timings show `benchEvidence` stored and recomputed side by side too.
 *    With `--before DIR` the statistics also time that checkout's trade-offs (lib/bench/stats/tradeoffs.ts)
 *    against this one's on the same figures, alternated run by run (and check both give the same numbers).
 *    With `--before DIR` (a checkout of the older code, built: `git archive REV | tar -x -C DIR`, its own
 *    `node_modules` — a hard-linked copy works), the comparison is that checkout's server ("before")
 *    against this one's ("after"), both on the stored evidence and the page as a user opens it.
 * Prints p50/p95/max after 3 warm-up runs, with the load average.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase, type Db } from "../db/client";
import { addCases } from "../db/queries/cases";
import { createModelConfig } from "../db/queries/models";
import { createPrompt, createSystem } from "../db/queries/systems";
import { getBench, getBenchProgress } from "../db/queries/benches";
import { liveCandidateStats } from "../db/queries/bench-results";
import { matrixPage, matrixRows } from "../db/queries/bench-matrix";
import { benchCaseFigures, type CaseFigures } from "../db/queries/bench-tallies";
import { benchCases, trials } from "../db/schema";
import { sql } from "drizzle-orm";
import { computeBenchEvidence } from "../db/queries/bench-evidence";
import { candidateCheckOutcomes } from "../db/queries/bench-results";
import { checkTalliesFromOutcomes } from "../lib/bench/stats/tallies";
import { benchErrorBreakdown } from "../db/queries/bench-errors";
import { benchSpend } from "../db/queries/bench-budget";
import { benchTradeoffs } from "../db/queries/bench-costs";
import { compareTradeoffs } from "../lib/bench/stats/tradeoffs";
import { runQueuedTrials } from "../server/bench/test-support/queue-driver";
import { finalizeBench } from "../db/queries/bench-finalize";
import { flipTable, storedFlips } from "../lib/bench/evidence/flips";
import type { TrialOutcome } from "../lib/bench/queue";
import { emptyCaseContent } from "../lib/library/case-content";
import { benchEvidence } from "../server/bench/comparisons";
import { rerunOffers } from "../server/bench/reruns";
import { launchFromRequest } from "../server/bench/prepare";
import { describeTimes, percentile, timeMany } from "./stats";

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(opt("--runs") ?? 20) || 20;
const servePort = opt("--serve");
const compare = args.includes("--compare");
const rounds = Number(opt("--rounds") ?? 1) || 1;
const beforeDir = opt("--before");
const CASES = 2_000;
const REPEATS = 5;

/** Seeds the bench and runs it through the queue with synthetic outcomes; returns its id. */
async function seed(db: Db): Promise<number> {
  await createSystem(db, { id: "speed", name: "Results page speed" });
  const promptId = await createPrompt(db, { systemId: "speed", name: "answerer", systemPrompt: "Answer the question." });
  await addCases(
    db,
    Array.from({ length: CASES }, (_, i) => ({
      systemId: "speed",
      promptId,
      caseKey: `speed-${String(i).padStart(4, "0")}`,
      source: "custom" as const,
      content: { ...emptyCaseContent(), input: `Question ${i}?`, expected: "answer", evaluators: [{ kind: "contains" as const }] },
    })),
  );
  const model = (name: string) =>
    createModelConfig(db, {
      name,
      provider: "openai-compatible",
      modelId: name,
      baseUrl: "http://127.0.0.1:9/v1",
      inputPricePerMTok: 1,
      outputPricePerMTok: 4,
    });
  const ids = [await model("speed-base"), await model("speed-cand")];
  const { id } = await launchFromRequest(db, {
    systemId: "speed",
    promptId,
    candidates: ids.map((modelConfigId) => ({ kind: "model" as const, modelConfigId })),
    baseline: { kind: "candidate", index: 0 },
    selection: { kind: "all" },
    budget: null,
    repeats: REPEATS,
    concurrency: 64,
    timeoutSeconds: 30,
    maxSteps: 1,
    judgeModelConfigId: null,
    launchKey: "bench-results-page",
    spendCapUsd: 1_000,
    maxLatencyIncreasePct: 20,
    maxCostIncreasePct: 30,
  });
  const bench = (await getBench(db, id))!;
  const baseId = bench.candidates[0].id;
  let s = 7;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  await runQueuedTrials(
    db,
    id,
    (got): TrialOutcome[] =>
      got.map((t) => {
        const base = t.candidateId === baseId;
        const fails = base ? 0.3 : 0.25;
        const checks = ["e0:contains", "e1:exact", "c:1"].map((key) => {
          const passed = rnd() >= fails / 2;
          return { key, kind: "contains", label: key, verdict: passed ? ("passed" as const) : ("failed" as const), score: passed ? 1 : 0, message: "" };
        });
        const latency = Math.round((base ? 800 : 900) * (0.6 + rnd() * 0.8));
        const outTok = Math.round((base ? 200 : 240) * (0.7 + rnd() * 0.6));
        return {
          id: t.id,
          status: "done",
          startedAt: 1,
          finishedAt: 2,
          latencyMs: latency,
          inputTokens: 300,
          outputTokens: outTok,
          costUsd: (300 * 1 + outTok * 4) / 1e6,
          finishReason: "stop",
          output: "answer",
          record: null,
          checks,
          error: null,
        };
      }),
    { finalize: false },
  );

  const t0 = performance.now();
  await finalizeBench(db, id, Date.now());
  console.log(`finalize (aggregate, regressions, trade-offs, recommendation, retention): ${(performance.now() - t0).toFixed(0)} ms once`);
  return id;
}

/**
 * The case figures as read before the covering index (commit 0dff6c6, issue #16's "before"): one
 * query joined to the manifest, grouped and sorted by case revision, reading every trial row. Run
 * on a copy of the database with `trials_matrix` as it was then ({@link OLD_MATRIX}).
 */
async function caseFiguresBefore(db: Db, benchId: number): Promise<Map<number, Map<number, CaseFigures>>> {
  const done = sql`${trials.status} = 'done'`;
  const countWhere = (cond: ReturnType<typeof sql>) => sql`coalesce(sum(CASE WHEN ${cond} THEN 1 ELSE 0 END), 0)`;
  const rows = db.all(
    sql`SELECT ${trials.candidateId} AS "c", ${benchCases.caseRevisionId} AS "r",
           ${countWhere(sql`${trials.passedChecks} + ${trials.failedChecks} > 0`)} AS "scored",
           ${countWhere(sql`${trials.passedChecks} + ${trials.failedChecks} > 0 AND ${trials.failedChecks} = 0`)} AS "passed",
           ${countWhere(done)} AS "done",
           avg(CASE WHEN ${done} THEN ${trials.costUsd} END) AS "cost",
           avg(CASE WHEN ${done} THEN ${trials.latencyMs} END) AS "latency"
        FROM ${trials} JOIN ${benchCases} ON ${benchCases.id} = ${trials.benchCaseId}
        WHERE ${trials.benchId} = ${benchId}
        GROUP BY ${trials.candidateId}, ${benchCases.caseRevisionId}
        ORDER BY ${trials.candidateId}, ${benchCases.caseRevisionId}`,
  ) as { c: number; r: number; scored: number; passed: number; done: number; cost: number | null; latency: number | null }[];
  const out = new Map<number, Map<number, CaseFigures>>();
  for (const x of rows) {
    let m = out.get(x.c);
    if (!m) out.set(x.c, (m = new Map()));
    m.set(x.r, { passed: x.passed, scored: x.scored, done: x.done, costUsd: x.cost, latencyMs: x.latency });
  }
  return out;
}

/** `trials_matrix` before it covered the case figures (migration 0018 added cost, latency, rerun, finished_at). */
const OLD_MATRIX = "CREATE INDEX trials_matrix ON trials (bench_id, bench_case_id, candidate_id, status, passed_checks, failed_checks, error_checks)";

/** Everything the results page reads and computes for one render (app/systems/[systemId]/benches/[benchId]/page.tsx). */
async function pageData(db: Db, id: number) {
  const bench = (await getBench(db, id))!;
  await getBenchProgress(db, id);
  const stats = bench.summary
    ? bench.summary.candidates.map((c) => c.stats)
    : await liveCandidateStats(
        db,
        id,
        bench.candidates.map((c) => c.id),
      );
  // The default view: the first 50 matrix rows, the flip table as stored at finalize.
  await matrixPage(db, id, 1, 50);
  const evidence = await benchEvidence(db, id, bench);
  await rerunOffers(db, bench, evidence);
  await benchErrorBreakdown(db, id);
  await benchSpend(db, id);
  const flips = bench.summary!.flips;
  return { stats, evidence, flips };
}

/**
 * CPU time (user + system, ms) the server process has used so far, from /proc (Linux; null
 * elsewhere): on a loaded machine the wall time of a render depends on the other processes, its CPU time much less.
 * `next start` serves from the process `scripts/start.mjs` spawns: the child of `startPid`.
 */
function serverCpuMs(startPid: number): number | null {
  try {
    const kids = readFileSync(`/proc/${startPid}/task/${startPid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    let total = 0;
    for (const pid of kids) {
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th (clock ticks, 100 per second).
      const rest = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      total += (Number(rest[11]) + Number(rest[12])) * 10;
    }
    return kids.length ? total : null;
  } catch {
    return null;
  }
}

/**
 * Starts the production server on `file`, warms it on another page, loads the bench route's code
 * (a 404), then times the first GET of bench `id`'s results page (`query` appended) and `runs` more.
 */
async function serveAndTime(file: string, port: string, id: number, query: string, cwd?: string) {
  const env = { ...process.env, BENCHWORK_DB: file, PORT: port, NEXT_TELEMETRY_DISABLED: "1" };
  const child = spawn(process.execPath, ["scripts/start.mjs"], { env, cwd, stdio: ["ignore", "ignore", "inherit"], detached: false });
  const exited = new Promise((r) => child.once("exit", r));
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/systems/speed/benches`)).ok) break; // also warms the server on another page
      } catch {
        if (i > 1200) throw new Error("the server did not start in 10 minutes");
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    const url = `${base}/systems/speed/benches/${id}${query}`;
    // The route's code loads on its first request: time that apart (a bench that does not exist loads it too).
    let t = performance.now();
    await (await fetch(`${base}/systems/speed/benches/999999`)).text();
    const routeLoad = performance.now() - t;
    const cpu0 = serverCpuMs(child.pid!);
    t = performance.now();
    const res = await fetch(url);
    const html = await res.text();
    const first = performance.now() - t;
    const cpu1 = serverCpuMs(child.pid!);
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
    console.log(`route code load (GET of a bench that does not exist, 404): ${routeLoad.toFixed(1)} ms; first GET ${url}: ${first.toFixed(1)} ms`);
    await timeMany(3, async () => (await fetch(url)).text());
    const cpu2 = serverCpuMs(child.pid!);
    const later = await timeMany(runs, async () => (await fetch(url)).text());
    const cpu3 = serverCpuMs(child.pid!);
    return {
      first,
      later,
      firstCpu: cpu0 !== null && cpu1 !== null ? cpu1 - cpu0 : null,
      laterCpu: cpu2 !== null && cpu3 !== null ? (cpu3 - cpu2) / runs : null,
      kb: html.length / 1024,
      load: loadavg()
        .map((x) => x.toFixed(1))
        .join(" "),
    };
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

async function main() {
  console.log(
    `${cpus().length} cores, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  // `--db PATH` keeps the seeded database (a fresh file) for a look afterwards; else a temp file, removed.
  const keep = opt("--db");
  const dir = keep ? path.dirname(path.resolve(keep)) : mkdtempSync(path.join(tmpdir(), "benchwork-results-page-"));
  const file = keep ? path.resolve(keep) : path.join(dir, "speed.db");
  try {
    const db = openDatabase(file);
    migrateDatabase(db);
    const id = await seed(db);
    const bench = (await getBench(db, id))!;
    const n = (db.$client.prepare("SELECT count(*) AS n FROM trials WHERE bench_id = ?").get(id) as { n: number }).n;
    console.log(`bench #${id}: ${n} trials (2 candidates × ${CASES} cases × ${REPEATS} repeats); ${bench.recommendation!.headline}`);

    // CPU time (user + system) per run beside wall time: on a shared, loaded machine it is closer to an idle one's wall time.
    const time = async (what: string, fn: () => unknown) => {
      await timeMany(3, fn);
      const cpu = process.cpuUsage();
      const ms = await timeMany(runs, fn);
      const d = process.cpuUsage(cpu);
      console.log(`${what}: ${describeTimes(ms)}; CPU ${((d.user + d.system) / 1000 / runs).toFixed(2)} ms per run`);
    };
    const baseId = bench.summary!.baselineCandidateId!;
    console.log("statistics (target < 50 ms in all):");
    // The finalize parses every candidate's check outcomes anyway (to find the regressions): read once here, outside the timing.
    const outcomes = new Map(
      await Promise.all(bench.candidates.map(async (c) => [c.id, checkTalliesFromOutcomes((await candidateCheckOutcomes(db, id, c.id)).values())] as const)),
    );
    await time("  statistics at finalize (case tallies + costs query, trade-offs with the 1,000-replicate bootstrap, paired evidence)", async () => {
      const figures = await benchCaseFigures(db, id, { neverRerun: true }); // as the finalize reads it: no rerun added trials to this bench
      await benchTradeoffs(db, id, baseId, bench.candidates, figures);
      return computeBenchEvidence(db, id, bench.candidates, bench.summary!, figures, { bench: (c) => Promise.resolve(outcomes.get(c)!) });
    });
    // Its parts, each on the figures read once (the query apart).
    const figures = await benchCaseFigures(db, id, { neverRerun: true });
    await time("    of which the case figures query", () => benchCaseFigures(db, id, { neverRerun: true }));
    await time("    of which the trade-offs (the 1,000-replicate latency bootstrap and the cost t interval)", () =>
      benchTradeoffs(db, id, baseId, bench.candidates, figures),
    );
    await time("    of which the paired evidence", () =>
      computeBenchEvidence(db, id, bench.candidates, bench.summary!, figures, { bench: (c) => Promise.resolve(outcomes.get(c)!) }),
    );
    if (beforeDir) {
      // The older checkout's trade-offs (a pure module: its own relative imports only) on the same figures,
      // alternated run by run with this one's so both see the same load.
      type Compare = typeof compareTradeoffs;
      const older = (await import(path.resolve(beforeDir, "lib/bench/stats/tradeoffs.ts"))) as { compareTradeoffs: Compare };
      const base = figures.get(baseId)!;
      const others = [...figures].filter(([c]) => c !== baseId);
      const run = (compareFn: Compare) => others.map(([, own]) => compareFn(own, base));
      if (JSON.stringify(run(older.compareTradeoffs)) !== JSON.stringify(run(compareTradeoffs)))
        throw new Error("the trade-offs differ from the older checkout's");
      const both: Record<string, number[]> = { before: [], after: [] };
      const cpuOf: Record<string, number> = { before: 0, after: 0 };
      for (let i = 0; i < runs + 3; i++)
        for (const [k, fn] of [
          ["before", older.compareTradeoffs],
          ["after", compareTradeoffs],
        ] as const) {
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          run(fn);
          const dt = performance.now() - t0;
          const dc = process.cpuUsage(c0);
          if (i >= 3) {
            both[k].push(dt);
            cpuOf[k] += (dc.user + dc.system) / 1000;
          }
        }
      for (const k of ["before", "after"])
        console.log(
          `    trade-offs, ${k === "before" ? `before (${beforeDir})` : "after (this checkout)"}, same results: ${describeTimes(both[k])}; CPU ${(cpuOf[k] / runs).toFixed(2)} ms per run`,
        );
    }
    // Before and after side by side, alternated run by run: the statistics at finalize with the case
    // figures read as before on a copy of the database with the old trials_matrix (and, with
    // `--before DIR`, that checkout's trade-offs), and as now. The warm-up runs are shown too: the
    // p95 outliers were in a process's first runs (V8 recompiling the bootstrap loop).
    {
      const beforeFile = path.join(dir, "before.db");
      db.$client.exec(`VACUUM INTO '${beforeFile}'`);
      const beforeDb = openDatabase(beforeFile);
      beforeDb.$client.exec(`DROP INDEX trials_matrix; ${OLD_MATRIX};`);
      type Compare = typeof compareTradeoffs;
      const olderTradeoffs = beforeDir
        ? ((await import(path.resolve(beforeDir, "lib/bench/stats/tradeoffs.ts"))) as { compareTradeoffs: Compare }).compareTradeoffs
        : compareTradeoffs;
      const model = bench.candidates.filter((c) => c.kind === "model" && c.id !== baseId);
      const sides = {
        before: async () => {
          const f = await caseFiguresBefore(beforeDb, id);
          for (const c of model) olderTradeoffs(f.get(c.id)!, f.get(baseId)!);
          return computeBenchEvidence(db, id, bench.candidates, bench.summary!, f, { bench: (c) => Promise.resolve(outcomes.get(c)!) });
        },
        after: async () => {
          const f = await benchCaseFigures(db, id, { neverRerun: true });
          await benchTradeoffs(db, id, baseId, bench.candidates, f);
          return computeBenchEvidence(db, id, bench.candidates, bench.summary!, f, { bench: (c) => Promise.resolve(outcomes.get(c)!) });
        },
      };
      if (JSON.stringify(await sides.before()) !== JSON.stringify(await sides.after())) throw new Error("the statistics differ before and after");
      const figuresOf = { before: () => caseFiguresBefore(beforeDb, id), after: () => benchCaseFigures(db, id, { neverRerun: true }) };
      const got = { before: { ms: [] as number[], cpu: 0, warm: [] as number[] }, after: { ms: [] as number[], cpu: 0, warm: [] as number[] } };
      const query = { before: { ms: [] as number[], cpu: 0 }, after: { ms: [] as number[], cpu: 0 } };
      for (let i = 0; i < runs + 3; i++)
        for (const k of ["before", "after"] as const) {
          let c0 = process.cpuUsage();
          let t0 = performance.now();
          await sides[k]();
          let dt = performance.now() - t0;
          let dc = process.cpuUsage(c0);
          if (i < 3) got[k].warm.push(dt);
          else {
            got[k].ms.push(dt);
            got[k].cpu += (dc.user + dc.system) / 1000;
          }
          c0 = process.cpuUsage();
          t0 = performance.now();
          await figuresOf[k]();
          dt = performance.now() - t0;
          dc = process.cpuUsage(c0);
          if (i >= 3) {
            query[k].ms.push(dt);
            query[k].cpu += (dc.user + dc.system) / 1000;
          }
        }
      console.log(
        `  before/after side by side, alternated (same results; load average ${loadavg()
          .map((x) => x.toFixed(1))
          .join(" ")}):`,
      );
      for (const k of ["before", "after"] as const) {
        const what = k === "before" ? `before (old query and trials_matrix${beforeDir ? `, ${beforeDir}'s trade-offs` : ""})` : "after (this checkout)";
        console.log(
          `    statistics at finalize, ${what}: ${describeTimes(got[k].ms)}; CPU ${(got[k].cpu / runs).toFixed(2)} ms per run; warm-up runs ${got[k].warm.map((x) => x.toFixed(0)).join(", ")} ms`,
        );
        console.log(`      of which the case figures query: ${describeTimes(query[k].ms)}; CPU ${(query[k].cpu / runs).toFixed(2)} ms per run`);
      }
      beforeDb.$client.close();
    }
    await time("  benchEvidence as the page reads it (stored with the summary at finalize)", () => benchEvidence(db, id, bench));
    const { evidence: _stored, ...unstored } = bench.summary!;
    await time("  benchEvidence recomputed from the trials (a summary stored before the evidence was)", () =>
      benchEvidence(db, id, { ...bench, summary: unstored }),
    );
    await time("  flip table at finalize (every matrix row + the table, stored)", async () =>
      storedFlips(
        flipTable(
          await matrixRows(db, id),
          baseId,
          bench.candidates.map((c) => c.id),
        ),
      ),
    );

    // Cold: a new connection (no statement cache, no page cache of this process).
    const cold = openDatabase(file);
    const t = performance.now();
    await pageData(cold, id);
    console.log(`results page data phase, first on a fresh connection: ${(performance.now() - t).toFixed(1)} ms`);
    cold.$client.close();
    await time("results page data phase, warm", () => pageData(db, id));
    const summaryJson = (db.$client.prepare("SELECT summary FROM benches WHERE id = ?").get(id) as { summary: string }).summary;
    db.$client.close();

    if (servePort) {
      type Mode = { name: string; storedEvidence: boolean; query: string; cwd?: string };
      const modes: Mode[] = !compare
        ? [{ name: "results page", storedEvidence: true, query: "" }]
        : beforeDir
          ? [
              { name: `before: ${beforeDir}`, storedEvidence: true, query: "", cwd: path.resolve(beforeDir) },
              { name: "after: this checkout", storedEvidence: true, query: "" },
            ]
          : [
              { name: "before: evidence computed per render, every list shown (?list=all)", storedEvidence: false, query: "?list=all" },
              { name: "stored evidence, every list shown (?list=all)", storedEvidence: true, query: "?list=all" },
              { name: "after: stored evidence, 20 per list", storedEvidence: true, query: "" },
            ];
      const results: { mode: Mode; first: number; later: number[]; firstCpu: number | null; laterCpu: number | null; kb: number; load: string }[] = [];
      const cpu = (ms: number | null) => (ms === null ? "?" : ms.toFixed(0));
      for (let round = 0; round < (compare ? rounds : 1); round++)
        for (const mode of modes) {
          // The summary as a bench finalized before the evidence was stored, or as stored now.
          const w = openDatabase(file);
          const { evidence: _e, ...bare } = JSON.parse(summaryJson) as Record<string, unknown>;
          w.$client.prepare("UPDATE benches SET summary = ? WHERE id = ?").run(mode.storedEvidence ? summaryJson : JSON.stringify(bare), id);
          w.$client.close();
          const r = await serveAndTime(file, servePort, id, mode.query, mode.cwd);
          results.push({ mode, ...r });
          console.log(
            `[${mode.name}] first server render ${r.first.toFixed(1)} ms, server CPU ${cpu(r.firstCpu)} ms (${r.kb.toFixed(0)} KB); later renders ${describeTimes(r.later)}, server CPU ${cpu(r.laterCpu)} ms each; load average ${r.load}`,
          );
        }
      if (compare) {
        console.log("\nside by side (wall ms [server CPU ms]; each a fresh server; CPU in 10 ms ticks):");
        for (const mode of modes) {
          const mine = results.filter((r) => r.mode === mode);
          console.log(
            `  ${mode.name.padEnd(70)} first ${mine.map((r) => `${r.first.toFixed(0)} [${cpu(r.firstCpu)}]`).join(", ")} · later p50 ${mine
              .map((r) => `${percentile(r.later, 50).toFixed(0)} [${cpu(r.laterCpu)}]`)
              .join(", ")} · ${mine[0].kb.toFixed(0)} KB`,
          );
        }
      }
    }
    console.log("targets: statistics < 50 ms, first render < 200 ms");
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

void main();
