/**
 * `benchwork bench run --system ID --prompt NAME --candidate SPEC [--candidate SPEC …]
 *   [--baseline INDEX] [--cases all|tag:T|source:S|dataset:NAME] [--no-retained] [--budget N] [--repeats N]
 *   [--concurrency N] [--timeout SECONDS] [--judge CONFIG] [--generate-criteria N] [--generate-scenarios M]
 *   [--generator CONFIG] [--json-output PATH] [--markdown PATH] [--fail-on inconclusive]
 *   [--max-cost USD] [--max-latency-increase PCT] [--max-cost-increase PCT]`
 * Plans, launches and waits for a bench on BENCHWORK_DB with the same worker code as the app,
 * showing progress; then prints the summary and the recommendation (issue #5).
 * SPEC: `recorded:COLUMN` or `model:CONFIG[@REVISION]` (a model configuration name, optionally a
 * prompt revision: `3`, `r3`, `current` or `previous`). Exit 0 when the bench finished; 1 when it finished but the best
 * candidate is blocked by a regression or every trial errored, the generator's answer was unusable
 * (then nothing is stored), or with `--fail-on inconclusive` when the primary comparison (see
 * lib/bench/evidence/headline.ts) is inconclusive; 2 on a usage error.
 */
import { randomUUID } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";
import { databasePath, migrateDatabase, openDatabase, type Db } from "@/db/client";
import { getBench, getBenchProgress, requestCancel, trialErrorReasons } from "@/db/queries/benches";
import { getModelConfigByName } from "@/db/queries/models";
import { recordedNames } from "@/db/queries/prompt-facets";
import { listPromptRevisions } from "@/db/queries/prompt-revisions";
import { getSystem, listPrompts, listSystems } from "@/db/queries/systems";
import { statsOf } from "@/lib/bench/aggregate";
import { benchRequestSchema, type CandidateRequest } from "@/lib/bench/request";
import { CASE_SOURCES } from "@/lib/library/case-content";
import { LibraryError } from "@/lib/library/errors";
import { benchEvidence } from "@/server/bench/comparisons";
import { benchSpend } from "@/db/queries/bench-budget";
import { benchFlips, type CandidateFlipReport } from "@/server/bench/flips";
import type { FlipCase } from "@/lib/bench/evidence/flips";
import { resolveRevisionRef } from "@/lib/prompts/revision-ref";
import { launchFromRequest } from "@/server/bench/prepare";
import { GenerationFailed } from "@/server/generate/with-config";
import { startBenchWorker } from "@/server/worker";
import { blockerStatuses } from "@/lib/bench/evidence/blockers";
import { evidenceSentence, primaryComparison } from "@/lib/bench/evidence/headline";
import { benchMarkdown } from "@/lib/bench/evidence/markdown";
import { usd } from "@/lib/bench/budget";
import { tradeoffCells, tradeoffsMarkdown } from "@/lib/bench/evidence/tradeoff-format";
import { CliError, usage, writeJsonFile, writeTextFile, type Io } from "../io";

export interface BenchRunOptions {
  system: string;
  prompt: string;
  candidate: string[];
  baseline?: string;
  cases?: string;
  /** False with `--no-retained`: retained regression cases do not join the selection. */
  retained?: boolean;
  budget?: string;
  repeats?: string;
  concurrency?: string;
  timeout?: string;
  judge?: string;
  /** `--generate-criteria N` / `--generate-scenarios M`: generate at launch (issue 17). */
  generateCriteria?: string;
  generateScenarios?: string;
  /** `--generator CONFIG`: the generator model (default: the first model candidate's, else the judge's). */
  generator?: string;
  jsonOutput?: string;
  /** Where to write the pull-request comment (Markdown). */
  markdown?: string;
  /** `inconclusive`: exit 1 when the primary comparison is inconclusive. */
  failOn?: string;
  /** `--max-cost USD`: the bench's spend cap (issue #16 §4). */
  maxCost?: string;
  /** `--max-latency-increase PCT` / `--max-cost-increase PCT`: gate limits over the baseline. */
  maxLatencyIncrease?: string;
  maxCostIncrease?: string;
}

function parseCases(s: string | undefined) {
  if (!s || s === "all") return { kind: "all" as const };
  const [kind, ...rest] = s.split(":");
  const value = rest.join(":");
  if (kind === "tag" && value) return { kind: "tag" as const, tag: value };
  if (kind === "source" && (CASE_SOURCES as readonly string[]).includes(value))
    return { kind: "source" as const, source: value as (typeof CASE_SOURCES)[number] };
  if (kind === "dataset" && value) return { kind: "dataset" as const, dataset: value };
  throw usage(`--cases must be all, tag:TAG, source:${CASE_SOURCES.join("|")} or dataset:NAME (got "${s}")`);
}

/**
 * The database of BENCHWORK_DB, migrated. A bench needs a system and cases, so a missing file is a
 * usage error (creating an empty one would only lead to "no system"), as is a file SQLite cannot open.
 * @throws CliError (exit 2) naming the path and the problem, in one line
 */
function openExisting(): Db {
  const file = databasePath();
  if (file !== ":memory:" && !existsSync(file))
    throw usage(`no database at ${path.resolve(file)}: create one with \`npm run db:seed\` (the demo workspace) or set BENCHWORK_DB to yours`);
  try {
    const db = openDatabase(file);
    migrateDatabase(db);
    return db;
  } catch (e) {
    throw usage(`cannot open the database ${path.resolve(file)}: ${(e as Error).message}`);
  }
}

/**
 * Checks, before anything runs, that `file` can be written (its folder is created as the write
 * would create it); a file the check creates is removed again.
 * @throws CliError (exit 2) naming the option, the path and the reason
 */
function checkWritable(file: string, option: string): void {
  const target = path.resolve(file);
  try {
    if (existsSync(target) && statSync(target).isDirectory()) throw usage(`${option} ${file}: is a directory`);
    const existed = existsSync(target);
    mkdirSync(path.dirname(target), { recursive: true });
    closeSync(openSync(target, "a"));
    if (!existed) unlinkSync(target);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw usage(`${option} ${file}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** A candidate's flips and the baseline's flaky checks as the JSON writes them (null fields for the baseline, or without one). */
function flipJson(r: CandidateFlipReport | undefined) {
  if (!r) return { flips: null, flakyOnBaseline: null };
  const keys = (l: FlipCase[]) => l.map((x) => ({ caseKey: x.caseKey, candidate: x.candidate, baseline: x.baseline }));
  return {
    flips: { paired: r.flips.paired, regressed: keys(r.flips.regressed), fixed: keys(r.flips.fixed), flakyOnBaseline: keys(r.flips.flaky) },
    flakyOnBaseline: r.flakyOnBaseline.map((f) => ({ caseKey: f.caseKey, key: f.key, label: f.label, baseline: f.baseline })),
  };
}

/** Runs the command; returns the exit code. */
export async function benchRunCommand(o: BenchRunOptions, io: Io): Promise<number> {
  if (o.failOn !== undefined && o.failOn !== "inconclusive") throw usage(`--fail-on must be inconclusive (got "${o.failOn}")`);
  if (o.jsonOutput) checkWritable(o.jsonOutput, "--json-output");
  if (o.markdown) checkWritable(o.markdown, "--markdown");
  const db = openExisting();
  const system = await getSystem(db, o.system);
  if (!system) {
    const ids = (await listSystems(db)).map((x) => x.id);
    throw usage(
      `--system: no system "${o.system}" in ${databasePath()} (${ids.length ? `it has ${ids.join(", ")}` : "it has none: `npm run db:seed` adds the demo workspace"})`,
    );
  }
  const prompts = await listPrompts(db, system.id);
  const prompt = prompts.find((p) => p.name === o.prompt);
  if (!prompt) throw usage(`--prompt: system "${system.id}" has no prompt "${o.prompt}" (it has ${prompts.map((p) => p.name).join(", ")})`);
  if (!o.candidate?.length) throw usage("give at least one --candidate recorded:COLUMN or model:CONFIG[@REVISION]");
  const revisions = await listPromptRevisions(db, prompt.id);
  const recorded = recordedNames(db, prompt.id).map((r) => r.name);
  const candidates: CandidateRequest[] = [];
  for (const spec of o.candidate) {
    const m = /^(recorded|model):(.+)$/.exec(spec);
    if (!m) throw usage(`--candidate "${spec}": write recorded:COLUMN or model:CONFIG[@REVISION]`);
    if (m[1] === "recorded") {
      // A mistyped column would otherwise run as a bench of skipped trials and pass.
      if (!recorded.includes(m[2]))
        throw usage(
          `--candidate "${spec}": prompt ${prompt.name} has no recorded outputs named "${m[2]}" (it has ${recorded.length ? recorded.join(", ") : "none"})`,
        );
      candidates.push({ kind: "recorded", recordedName: m[2] });
      continue;
    }
    const parts = m[2].split("@");
    if (parts.length > 2 || !parts[0]) throw usage(`--candidate "${spec}": write model:CONFIG or model:CONFIG@REVISION (one @)`);
    const [name, rev] = parts;
    const config = await getModelConfigByName(db, name);
    if (!config) throw usage(`--candidate "${spec}": no model configuration named "${name}"`);
    let promptRevisionId: number | undefined;
    if (rev !== undefined) {
      const r = resolveRevisionRef(rev, revisions, prompt.revision?.id ?? 0);
      if ("error" in r) throw usage(`--candidate "${spec}": prompt ${prompt.name} has ${r.error}`);
      promptRevisionId = r.id;
    }
    candidates.push({ kind: "model", modelConfigId: Number(config.id), promptRevisionId });
  }
  let judgeModelConfigId: number | null = null;
  if (o.judge) {
    const j = await getModelConfigByName(db, o.judge);
    if (!j) throw usage(`--judge: no model configuration named "${o.judge}"`);
    judgeModelConfigId = Number(j.id);
  }
  let generate: { modelConfigId: number; criteria: string; scenarios: string } | null = null;
  if (o.generateCriteria !== undefined || o.generateScenarios !== undefined) {
    let generatorId: number | null = null;
    if (o.generator) {
      const g = await getModelConfigByName(db, o.generator);
      if (!g) throw usage(`--generator: no model configuration named "${o.generator}"`);
      generatorId = Number(g.id);
    } else generatorId = candidates.find((c) => c.kind === "model")?.modelConfigId ?? judgeModelConfigId;
    if (generatorId === null)
      throw usage("--generate-criteria/--generate-scenarios need a generator model: give --generator CONFIG (a model configuration of the app)");
    generate = { modelConfigId: generatorId, criteria: o.generateCriteria ?? "0", scenarios: o.generateScenarios ?? "0" };
  }
  if (o.baseline !== undefined && !["last", "none"].includes(o.baseline) && !/^\d+$/.test(o.baseline))
    throw usage(`--baseline must be a candidate's index (0 for the first --candidate), last or none (got "${o.baseline}")`);
  const parsed = benchRequestSchema.safeParse({
    systemId: system.id,
    promptId: prompt.id,
    candidates,
    baseline:
      o.baseline === undefined
        ? { kind: "candidate", index: 0 }
        : o.baseline === "last"
          ? { kind: "last-bench" }
          : o.baseline === "none"
            ? { kind: "none" }
            : { kind: "candidate", index: Number(o.baseline) },
    selection: parseCases(o.cases),
    includeRetained: o.retained !== false,
    budget: o.budget ?? null,
    repeats: o.repeats ?? 1,
    concurrency: o.concurrency ?? 8,
    timeoutSeconds: o.timeout ?? 60,
    maxSteps: 5,
    judgeModelConfigId,
    launchKey: `cli-${randomUUID()}`,
    generate,
    spendCapUsd: o.maxCost ?? null,
    maxLatencyIncreasePct: o.maxLatencyIncrease ?? null,
    maxCostIncreasePct: o.maxCostIncrease ?? null,
  });
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    const flag: Record<string, string> = {
      spendCapUsd: "--max-cost",
      maxLatencyIncreasePct: "--max-latency-increase",
      maxCostIncreasePct: "--max-cost-increase",
    };
    throw usage(`${flag[i.path.join(".")] ?? (i.path.join(".") || "options")}: ${i.message}`);
  }
  let launched;
  try {
    launched = await launchFromRequest(db, parsed.data, { env: process.env });
  } catch (e) {
    if (e instanceof LibraryError) throw usage(e.message);
    // The generator's answer was unusable or its call failed: nothing stored, no bench.
    if (e instanceof GenerationFailed) throw new CliError(e.message, 1);
    throw e;
  }
  const { id, plan } = launched;
  const g = parsed.data.generate ? (await getBench(db, id))?.settings.generated : undefined;
  if (g) {
    const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
    io.out(
      `generated ${n(g.criterionIds.length, "criterion", "criteria")} and ${n(g.caseIds.length, "scenario", "scenarios")} with ${g.model} (run ${g.runId}), accepted as generated items of the library${g.dropped ? `; ${g.dropped} dropped` : ""}${g.refused.length ? `; ${g.refused.length} refused (already in the rubric)` : ""}`,
    );
  }
  io.out(
    `bench #${id}: ${plan.includedCount} cases included (${o.retained === false ? "retained regression cases left out" : `${plan.retainedJoined} retained regression cases joined`}), ${plan.excludedCount} excluded, ${plan.trialCount} trials (${plan.modelCallsUpperBound ? "at most " : ""}${plan.modelCalls} model calls, ${plan.judgeCalls} judge calls)`,
  );
  for (const w of plan.warnings) io.out(`  note: ${w}`);

  const worker = startBenchWorker(db, { pollMs: 50 });
  let cancelled = false;
  const onInt = () => {
    if (cancelled) process.exit(130);
    cancelled = true;
    io.err("cancelling: running trials stop, unrun trials are skipped (Ctrl-C again to quit now)");
    void requestCancel(db, id).then(() => worker.wake());
  };
  process.on("SIGINT", onInt);
  let last = "";
  let printed = "";
  let printedAt = Date.now();
  for (;;) {
    const p = (await getBenchProgress(db, id))!;
    const line = `  ${p.done + p.error + p.skipped}/${p.total} trials · ${p.done} done · ${p.error} errors · ${p.skipped} skipped`;
    const ended = p.status !== "queued" && p.status !== "running";
    if (io.tty) {
      if (line !== last) process.stdout.write(`\r${line}`);
    } else if (line !== printed && (ended || Date.now() - printedAt >= 5_000)) {
      // Not a terminal (a CI log): a line every 5 s, so a long bench does not look stuck.
      io.out(line);
      printed = line;
      printedAt = Date.now();
    }
    last = line;
    if (ended) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  if (io.tty) process.stdout.write("\n");
  process.off("SIGINT", onInt);
  await worker.stop(2_000);

  const bench = (await getBench(db, id))!;
  const rec = bench.recommendation!;
  const evidence = (await benchEvidence(db, id)) ?? [];
  const spend = benchSpend(db, id);
  const flipReports = benchFlips(db, bench);
  const result = {
    // Bumped when a field changes meaning or goes away (new fields may be added without a bump).
    schemaVersion: 1,
    benchId: id,
    status: bench.status,
    manifest: {
      included: plan.includedCount,
      excluded: plan.excludedCount,
      excludedBy: plan.excludedBy,
      retainedJoined: plan.retainedJoined,
      includeRetained: o.retained !== false,
    },
    candidates: bench.candidates.map((c) => {
      const s = statsOf(bench.summary, c.id)!;
      const ev = evidence.find((e) => e.candidateId === c.id);
      return {
        index: c.position,
        label: c.label,
        kind: c.kind,
        baseline: bench.summary!.baselineCandidateId === c.id,
        trials: s.trials,
        scored: s.checks.scored,
        passed: s.checks.passed,
        failed: s.checks.failed,
        unscored: s.checks.unscored,
        error: s.checks.error,
        passRate: s.passRate.rate,
        regressions: ev?.regressions ?? bench.summary!.regressions[String(c.id)] ?? [],
        // Issue #16: paired statistics (see README "Statistics in bench run --json-output").
        casePassRate: ev?.rates.trialPassRate ?? null,
        passAtK: ev?.rates.passAt ?? null,
        passHatK: ev?.rates.passHat ?? null,
        comparisons: ev?.comparisons ?? [],
        fixes: bench.summary!.fixes?.[String(c.id)] ?? [],
        // Issue #16 §4: trials the spend cap kept from starting (also counted in trials.skipped).
        skippedForBudget: spend.budgetSkipped.get(c.id) ?? 0,
        // Issue #16 §5: the cases that flipped against the baseline, and the checks the baseline is flaky on (null for the baseline itself).
        ...flipJson(flipReports.find((f) => f.candidateId === c.id)),
      };
    }),
    errors: trialErrorReasons(db, id, 5),
    // Issue #16 §4: the spend cap (null = none), what the bench spent, and the gate limits.
    budget: {
      spendCapUsd: bench.settings.spendCap?.usd ?? null,
      spentUsd: spend.spentUsd,
      skippedTrials: spend.budgetSkippedTotal,
      maxLatencyIncreasePct: bench.settings.gate?.maxLatencyIncreasePct ?? null,
      maxCostIncreasePct: bench.settings.gate?.maxCostIncreasePct ?? null,
    },
    recommendation: {
      recommended: bench.candidates.find((c) => c.id === rec.recommendedCandidateId)?.label ?? null,
      headline: rec.headline,
      lastBench: rec.lastBench ?? null,
      ranking: rec.candidates.map((c) => ({
        label: c.label,
        rank: c.rank,
        recommended: c.recommended,
        blockers: c.blockers.length,
        fixes: c.fixes?.length ?? 0,
        tradeoffs: c.tradeoffs,
        // Issue #16 §4: the gate limits it exceeds (they block it like a regression).
        limitBlockers: c.limitBlockers ?? [],
      })),
    },
  };
  io.out("");
  for (const c of result.candidates) {
    io.out(
      `${c.label}${c.baseline ? " (baseline)" : ""}: ${c.passRate === null ? "—" : `${(c.passRate * 100).toFixed(1)}%`} of ${c.scored} scored checks · ${c.unscored} unscored · ${c.error} check errors · trials ${c.trials.done} done / ${c.trials.error} error / ${c.trials.skipped} skipped${c.regressions.length ? ` · ${c.regressions.length} regressions` : ""}${c.fixes.length ? ` · ${c.fixes.length} fixes` : ""}`,
    );
  }
  // Cost and latency against the baseline, with their intervals (issue #16 §4).
  for (const c of bench.candidates) {
    const t = evidence.find((e) => e.candidateId === c.id)?.comparisons.find((x) => x.against === "baseline")?.tradeoffs;
    if (!t || !(t.costPerCase || t.latencyP50)) continue;
    const f = tradeoffCells(t);
    io.out(`  ${c.label} vs baseline: cost per case ${f.cost} · latency p50 ${f.p50} · p95 ${f.p95}`);
  }
  if (spend.budgetSkippedTotal)
    io.out(`\nSpend cap ${usd(bench.settings.spendCap!.usd)} reached: ${spend.budgetSkippedTotal} trials skipped as budget (${usd(spend.spentUsd)} spent).`);
  if (result.errors.length) {
    io.out("\nTrials that ended as errors, most common reasons:");
    for (const e of result.errors) io.out(`  ${e.trials} × ${e.message}`);
  }
  // The evidence sentence over the recommendation's ranking (the gate's blockers, each with its status).
  const evOf = (id: number) => evidence.find((e) => e.candidateId === id);
  const ranked = rec.candidates.map((c) => {
    const statuses = blockerStatuses(c.blockers, evOf(c.candidateId)?.regressions ?? []);
    return {
      candidateId: c.candidateId,
      label: c.label,
      isBaseline: c.isBaseline,
      comparisons: evOf(c.candidateId)?.comparisons ?? [],
      blockers: statuses,
      blockerList: c.blockers.map((b, i) => ({ caseKey: b.caseKey, label: b.label, against: b.against, status: statuses[i] })),
    };
  });
  const primary = primaryComparison(ranked);
  const sentence = primary ? evidenceSentence(primary) : null;
  if (sentence) io.out(`\n${sentence}`);
  io.out(`${sentence ? "" : "\n"}${rec.headline}`);
  if (o.jsonOutput) writeJsonFile(o.jsonOutput, result);
  if (o.markdown) {
    const md = benchMarkdown({
      benchId: id,
      status: bench.status,
      headline: sentence,
      recommendation: rec.headline,
      // Bench order in the table, as in the JSON and the page.
      candidates: bench.candidates.map((c) => ({
        label: c.label,
        baseline: bench.summary!.baselineCandidateId === c.id,
        casePassRate: evOf(c.id)?.rates.trialPassRate ?? null,
        comparisons: evOf(c.id)?.comparisons ?? [],
        blockers: ranked.find((r) => r.candidateId === c.id)?.blockerList ?? [],
      })),
    });
    const costs = tradeoffsMarkdown(
      rec.candidates.map((c) => ({
        label: c.label,
        tradeoffs: evOf(c.candidateId)?.comparisons.find((x) => x.against === "baseline")?.tradeoffs,
        limitBlockers: c.limitBlockers ?? [],
      })),
    );
    writeTextFile(o.markdown, md + costs);
  }
  if (bench.status !== "finished") return 1;
  const allErrored = result.candidates.every((c) => c.trials.total > 0 && c.trials.error === c.trials.total);
  const bestBlocked = (rec.candidates[0]?.blockers.length ?? 0) > 0;
  if (o.failOn === "inconclusive" && (!primary || primary.comparison.verdict === "inconclusive")) {
    io.err(
      primary
        ? `--fail-on inconclusive: ${primary.candidate.label} vs ${primary.comparison.againstCandidate} is inconclusive (the 95 % interval spans 0 or the test is not significant)`
        : "--fail-on inconclusive: nothing was compared (one candidate and no earlier bench)",
    );
    return 1;
  }
  return allErrored || bestBlocked ? 1 : 0;
}
