/**
 * Paired statistics speed (issue #16: "computing the statistics for a 20,000-trial bench adds
 * < 50 ms"): `npx tsx bench/paired-stats.ts [--runs 20]`
 *
 * 1. Pure core on synthetic trials (a fixed pseudo-random seed, 3 checks per trial, ~30 % of
 *    trials failing a check): tallies (one pass), case-level rates with Wilson and pass@k/pass^k,
 *    paired comparisons of every candidate against the baseline, and a regression status for every
 *    check that passed on all baseline trials and failed on some candidate trial. Two shapes of
 *    20,000 trials: 4 candidates × 1,000 cases × 5 repeats (paired t) and 2 × 10,000 × 1 (McNemar).
 * 2. The real path (`benchEvidence`: SQL case counts, checks parsed only for broken ones, compute) on
 *    the demo's GSM8K bench of 4 recorded candidates × 200 cases × 10 repeats = 8,000 trials (the
 *    largest the demo can make: 10 repeats is the cap), in an in-memory database; then the same
 *    bench with its trials copied as further repeats up to 20,000 stored trials.
 * Prints p50/p95/max over `--runs` runs after 3 warm-up runs.
 */
import { cpus, loadavg } from "node:os";
import { openMemoryDatabase } from "../db/client";
import { getBench } from "../db/queries/benches";
import { listPrompts } from "../db/queries/systems";
import { seedDemoWorkspace } from "../db/seed/demo";
import type { TrialFacts } from "../lib/bench/aggregate";
import { candidateRates } from "../lib/bench/stats/candidate-rates";
import { compareCandidates } from "../lib/bench/stats/paired";
import { classifyCheck } from "../lib/bench/stats/regression-status";
import { benchTallies, checkTally } from "../lib/bench/stats/tallies";
import { benchEvidence } from "../server/bench/comparisons";
import { launchFromRequest } from "../server/bench/prepare";
import { startBenchWorker } from "../server/worker";
import { describeTimes, timeMany } from "./stats";

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1] ?? 20) || 20;

/** Synthetic trials: candidate i fails each check with probability 0.1 + 0.03·i (fixed seed). */
function synthetic(candidates: number, cases: number, repeats: number): TrialFacts[] {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out: TrialFacts[] = [];
  for (let cand = 1; cand <= candidates; cand++)
    for (let cs = 0; cs < cases; cs++)
      for (let r = 1; r <= repeats; r++)
        out.push({
          candidateId: cand,
          caseRevisionId: cs + 1,
          caseKey: `case-${cs}`,
          repeat: r,
          status: "done",
          checks: ["e0:contains", "e1:exact", "c:12"].map((key) => ({
            key,
            kind: "contains",
            label: key,
            verdict: rnd() < 0.1 + 0.03 * cand ? ("failed" as const) : ("passed" as const),
          })),
          inputTokens: 100,
          outputTokens: 50,
          costUsd: null,
          latencyMs: 10,
        });
  return out;
}

/** The whole computation the bench's evidence needs, on trials already in memory. */
function computeAll(trials: TrialFacts[], candidates: number): number {
  const t = benchTallies(trials);
  const base = t.get(1)!;
  let n = 0;
  for (let id = 1; id <= candidates; id++) {
    const own = t.get(id)!;
    candidateRates(own.cases.values());
    if (id === 1) continue;
    n += compareCandidates(own.cases, base.cases).n;
    for (const [rev, refChecks] of base.checks)
      for (const [key, ref] of refChecks) {
        const c = checkTally(own.checks, rev, key);
        if (ref.passed === ref.scored && c && c.passed < c.scored) n += classifyCheck(ref, c).status.length;
      }
  }
  return n;
}

/** CPU time (user + system) per run since `since`: on a loaded machine, closer to an idle one's wall time than wall time is. */
function cpuMs(since: NodeJS.CpuUsage): string {
  const d = process.cpuUsage(since);
  return `CPU ${((d.user + d.system) / 1000 / runs).toFixed(2)} ms per run`;
}

async function main() {
  // The machine is often shared: the load says how far the figures are from an idle one.
  console.log(
    `${cpus().length} cores, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  for (const [candidates, cases, repeats] of [
    [4, 1_000, 5],
    [2, 10_000, 1],
  ]) {
    const trials = synthetic(candidates, cases, repeats);
    await timeMany(3, () => computeAll(trials, candidates));
    const cpu = process.cpuUsage();
    const ms = await timeMany(runs, () => computeAll(trials, candidates));
    console.log(
      `pure core, ${trials.length} trials (${candidates} candidates × ${cases} cases × ${repeats} repeats, 3 checks each): ${describeTimes(ms)}; ${cpuMs(cpu)}`,
    );
  }

  const db = openMemoryDatabase();
  await seedDemoWorkspace(db);
  const solver = (await listPrompts(db, "grade-school-math"))[0];
  const { id, plan } = await launchFromRequest(db, {
    systemId: "grade-school-math",
    promptId: solver.id,
    candidates: ["model-6b-finetuning", "model-6b-verification", "model-175b-finetuning", "model-175b-verification"].map((n) => ({
      kind: "recorded" as const,
      recordedName: n,
    })),
    baseline: { kind: "candidate", index: 0 },
    selection: { kind: "all" },
    budget: null,
    repeats: 10,
    concurrency: 16,
    timeoutSeconds: 30,
    maxSteps: 5,
    judgeModelConfigId: null,
    launchKey: "bench-paired-stats",
  });
  const worker = startBenchWorker(db, { env: {}, pollMs: 20 });
  for (;;) {
    const b = await getBench(db, id);
    if (b?.status === "finished") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await worker.stop(1000);
  // Computed, not read back: a finalized bench stores its evidence with its summary (that is what the finalize computes).
  const bench = (await getBench(db, id))!;
  const { evidence: _stored, ...bare } = bench.summary!;
  const compute = () => benchEvidence(db, id, { ...bench, summary: bare });
  const time = async (what: string) => {
    await timeMany(3, compute);
    const cpu = process.cpuUsage();
    const ms = await timeMany(runs, compute);
    const n = (db.$client.prepare("SELECT count(*) AS n FROM trials WHERE bench_id = ?").get(id) as { n: number }).n;
    console.log(`benchEvidence (SQL counts + broken checks + compute), ${what}, ${n} trials: ${describeTimes(ms)}; ${cpuMs(cpu)}`);
  };
  await time(`GSM8K ${plan.trialCount} trials as run`);
  // The demo cannot run more (8 candidates would need 8 recorded columns, 10 repeats is the cap):
  // copies of the finished trials as repeats 11–20 and 21–25 make it 20,000 stored trials.
  const cols =
    "bench_id, candidate_id, bench_case_id, status, attempts, latency_ms, input_tokens, output_tokens, cost_usd, finish_reason, output, record, checks, passed_checks, failed_checks, unscored_checks, error_checks, error";
  db.$client.prepare(`INSERT INTO trials (${cols}, repeat) SELECT ${cols}, repeat + 10 FROM trials WHERE bench_id = ?`).run(id);
  db.$client.prepare(`INSERT INTO trials (${cols}, repeat) SELECT ${cols}, repeat + 20 FROM trials WHERE bench_id = ? AND repeat <= 5`).run(id);
  await time("the same bench with copied repeats");
  console.log("target: < 50 ms for 20,000 trials");
}

void main();
