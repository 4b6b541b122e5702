/**
 * Results page speed on a 20,000-trial bench (issue #16: "computing the statistics for a 20,000-trial
 * bench adds < 50 ms; the results page's first render stays < 200 ms"):
 *
 *   npx tsx bench/results-page.ts [--runs 20] [--serve PORT] [--db PATH]
 *
 * 1. Seeds a temp SQLite file: a prompt with 2,000 cases, two priced model candidates × 5 repeats =
 *    20,000 trials (synthetic outcomes from a fixed seed: 3 checks each, latency and cost), with a
 *    spend cap and gate limits, stored through the real queue (claim + complete) and finalized.
 * 2. Times the statistics: the finalize step's trade-offs (cost t interval + latency bootstrap,
 *    stored in the summary), `benchEvidence` (paired comparisons, rates, regression statuses) and
 *    the flip table — what one render of the page computes.
 * 3. Times the page's whole data phase in-process (every query and computation the results page
 *    makes), cold (a fresh connection) and warm.
 * 4. With `--serve PORT`: starts the production server (`scripts/start.mjs`, which builds when the
 *    bundle is stale) on that database and port, warms it on another page and loads the bench
 *    route's code (a 404), then times the first GET of the results page (its first server render)
 *    and `--runs` more.
 * Prints p50/p95/max after 3 warm-up runs.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase, type Db } from "../db/client";
import { addCases } from "../db/queries/cases";
import { createModelConfig } from "../db/queries/models";
import { createPrompt, createSystem } from "../db/queries/systems";
import { getBench, getBenchProgress } from "../db/queries/benches";
import { liveCandidateStats } from "../db/queries/bench-results";
import { matrixRows, selectMatrix } from "../db/queries/bench-matrix";
import { benchErrorBreakdown } from "../db/queries/bench-errors";
import { benchSpend } from "../db/queries/bench-budget";
import { benchTradeoffs } from "../db/queries/bench-costs";
import { SqliteTrialQueue } from "../db/queries/trial-queue";
import { flipTable } from "../lib/bench/evidence/flips";
import type { TrialOutcome } from "../lib/bench/queue";
import { emptyCaseContent } from "../lib/library/case-content";
import { benchEvidence } from "../server/bench/comparisons";
import { launchFromRequest } from "../server/bench/prepare";
import { describeTimes, timeMany } from "./stats";

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(opt("--runs") ?? 20) || 20;
const servePort = opt("--serve");
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
  const q = new SqliteTrialQueue(db);
  await q.registerWorker("speed", process.pid);
  for (;;) {
    const got = await q.claim(id, "speed", 2_000, Date.now());
    if (got.length === 0) break;
    const outcomes: TrialOutcome[] = got.map((t) => {
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
    });
    await q.complete("speed", outcomes);
  }
  const t0 = performance.now();
  await q.finalize(id, Date.now());
  console.log(`finalize (aggregate, regressions, trade-offs, recommendation, retention): ${(performance.now() - t0).toFixed(0)} ms once`);
  await q.unregisterWorker("speed");
  return id;
}

/** Everything the results page reads and computes for one render (app/systems/[systemId]/benches/[benchId]/page.tsx). */
async function pageData(db: Db, id: number) {
  const bench = (await getBench(db, id))!;
  await getBenchProgress(db, id);
  const stats = bench.summary
    ? bench.summary.candidates.map((c) => c.stats)
    : liveCandidateStats(
        db,
        id,
        bench.candidates.map((c) => c.id),
      );
  const all = matrixRows(db, id);
  const regressionKeys = new Set(Object.values(bench.summary?.regressions ?? {}).flatMap((l) => l.map((r) => String(r.caseRevisionId))));
  selectMatrix(all, { filter: "all", sort: "position", page: 1, pageSize: 50, regressionCases: regressionKeys });
  const evidence = await benchEvidence(db, id, bench);
  benchErrorBreakdown(db, id);
  benchSpend(db, id);
  const flips = flipTable(
    all,
    bench.summary!.baselineCandidateId!,
    bench.candidates.map((c) => c.id),
  );
  return { stats, evidence, flips };
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
    await time("  trade-offs (per-case costs query + t interval + 1,000-replicate bootstrap), at finalize", () =>
      benchTradeoffs(db, id, baseId, bench.candidates),
    );
    await time("  benchEvidence (paired comparisons, rates, regression statuses)", () => benchEvidence(db, id, bench));
    const rows = matrixRows(db, id);
    await time("  flip table (from the matrix rows the page reads anyway)", () =>
      flipTable(
        rows,
        baseId,
        bench.candidates.map((c) => c.id),
      ),
    );

    // Cold: a new connection (no statement cache, no page cache of this process).
    const cold = openDatabase(file);
    let t = performance.now();
    await pageData(cold, id);
    console.log(`results page data phase, first on a fresh connection: ${(performance.now() - t).toFixed(1)} ms`);
    cold.$client.close();
    await time("results page data phase, warm", () => pageData(db, id));
    db.$client.close();

    if (servePort) {
      const env = { ...process.env, BENCHWORK_DB: file, PORT: servePort, NEXT_TELEMETRY_DISABLED: "1" };
      const child = spawn(process.execPath, ["scripts/start.mjs"], { env, stdio: ["ignore", "pipe", "inherit"], detached: false });
      const base = `http://127.0.0.1:${servePort}`;
      try {
        for (let i = 0; ; i++) {
          try {
            if ((await fetch(`${base}/systems/speed/benches`)).ok) break; // also warms the server on another page
          } catch {
            if (i > 1200) throw new Error("the server did not start in 10 minutes");
          }
          await new Promise((r) => setTimeout(r, 500));
        }
        const url = `${base}/systems/speed/benches/${id}`;
        // The route's code loads on its first request: time that apart (a bench that does not exist loads it too).
        t = performance.now();
        await (await fetch(`${base}/systems/speed/benches/999999`)).text();
        console.log(`route code load (GET of a bench that does not exist, 404): ${(performance.now() - t).toFixed(1)} ms`);
        t = performance.now();
        const first = await fetch(url);
        const html = await first.text();
        console.log(
          `results page over HTTP, first server render (GET ${url}): ${(performance.now() - t).toFixed(1)} ms, status ${first.status}, ${(html.length / 1024).toFixed(0)} KB`,
        );
        await time("results page over HTTP, later renders", async () => (await fetch(url)).text());
      } finally {
        child.kill("SIGTERM");
      }
    }
    console.log("targets: statistics < 50 ms, first render < 200 ms");
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

void main();
