/**
 * What `bench run` prints and writes once a bench has ended (issue #5, #16), computed on the server
 * side so the CLI on a database file and the CLI talking to a team server (`--server`, issue 19)
 * print the same: the results JSON (`--json-output`), the summary lines, the pull-request Markdown
 * (`--markdown`) and what decides the exit code.
 */
import { cancelTooLateNote } from "@/lib/bench/end-status";
import { partialReason } from "@/lib/bench/recommend";
import { counted } from "@/lib/bench/counted";
import type { Db } from "@/db/client";
import { getBench, getManifest, trialErrorReasons } from "@/db/queries/benches";
import { statsOf } from "@/lib/bench/aggregate";
import { blockerReasons, blockerStatuses } from "@/lib/bench/evidence/blockers";
import { evidenceSentence, primaryComparison } from "@/lib/bench/evidence/headline";
import { benchMarkdown } from "@/lib/bench/evidence/markdown";
import { candidateCounts } from "@/lib/bench/evidence/candidate-line";
import { failOnMessage, failOnReasons, type FailOn } from "@/lib/bench/evidence/fail-on";
import { reasonKind } from "@/lib/bench/plan";
import type { BenchPlan } from "@/lib/bench/types";
import { LibraryError } from "@/lib/library/errors";
import { benchEvidence } from "./comparisons";
import { benchSpend } from "@/db/queries/bench-budget";
import { benchFlips, type CandidateFlipReport } from "./flips";
import type { FlipCase } from "@/lib/bench/evidence/flips";
import { budgetSkipLine } from "@/lib/bench/budget";
import { tradeoffCells, tradeoffsMarkdown } from "@/lib/bench/evidence/tradeoff-format";

/** A candidate's flips and the baseline's flaky checks as the JSON writes them (null fields for the baseline, or without one). */
function flipJson(r: CandidateFlipReport | undefined) {
  if (!r) return { flips: null, flakyOnBaseline: null };
  const keys = (l: FlipCase[]) => l.map((x) => ({ caseKey: x.caseKey, candidate: x.candidate, baseline: x.baseline }));
  return {
    // `cleared`: regressed cases a confirm round cleared (issue #16), no longer under `regressed`.
    flips: {
      paired: r.flips.paired,
      regressed: keys(r.flips.regressed),
      fixed: keys(r.flips.fixed),
      flakyOnBaseline: keys(r.flips.flaky),
      cleared: keys(r.flips.cleared),
    },
    flakyOnBaseline: r.flakyOnBaseline.map((f) => ({ caseKey: f.caseKey, key: f.key, label: f.label, baseline: f.baseline })),
  };
}

/** The manifest block of the results JSON. */
export interface ManifestSummary {
  included: number;
  excluded: number;
  excludedBy: Record<string, number>;
  retainedJoined: number;
  includeRetained: boolean;
}

/** The manifest block from a plan (what the launch saw). */
export function manifestOfPlan(
  plan: Pick<BenchPlan, "includedCount" | "excludedCount" | "excludedBy" | "retainedJoined">,
  includeRetained: boolean,
): ManifestSummary {
  return { included: plan.includedCount, excluded: plan.excludedCount, excludedBy: plan.excludedBy, retainedJoined: plan.retainedJoined, includeRetained };
}

/** The report of an ended bench. */
export interface BenchRunReport {
  /** The results JSON (`--json-output`); `schemaVersion` is bumped when a field changes meaning or goes away. */
  result: Record<string, unknown> & { schemaVersion: 1; benchId: number; status: string; manifest: ManifestSummary };
  /** The lines printed after the progress line (a blank line first), in order. */
  lines: string[];
  /** The pull-request comment (`--markdown`). */
  markdown: string;
  /**
   * What decides the exit code; with `--fail-on`, also `worse` and `inconclusive` (why the primary
   * comparison fails that rule, or null; see lib/bench/evidence/fail-on.ts).
   */
  gate: {
    finished: boolean;
    /** Why the bench is partial (the stderr line of its exit 1), or null for a complete bench (issue #16). */
    partial?: string | null;
    allErrored: boolean;
    bestBlocked: boolean;
    worse: string | null;
    inconclusive: string | null;
  };
}

/**
 * The report of bench `id`, which must have ended.
 * @param manifest the manifest block as the launch planned it; default: rebuilt from the stored
 *   manifest (a retained case that a user's correction stands in for counts as joined there)
 * @throws LibraryError `not_found`; `conflict` while the bench is still queued or running
 */
export async function benchRunReport(db: Db, id: number, manifest?: ManifestSummary): Promise<BenchRunReport> {
  const bench = await getBench(db, id);
  if (!bench) throw new LibraryError("not_found", `Bench #${id} does not exist.`);
  if (bench.status === "queued" || bench.status === "running" || !bench.recommendation || !bench.summary)
    throw new LibraryError("conflict", `Bench #${id} is still ${bench.status}; its results come when it has ended.`);
  const rec = bench.recommendation;
  const summary = bench.summary;
  const evidence = (await benchEvidence(db, id)) ?? [];
  const spend = await benchSpend(db, id);
  const flipReports = await benchFlips(db, bench);
  const errors = await trialErrorReasons(db, id, 5);
  let m = manifest;
  if (!m) {
    const rows = await getManifest(db, id);
    const excludedBy: Record<string, number> = {};
    for (const r of rows) if (!r.included && r.reason) excludedBy[reasonKind(r.reason)] = (excludedBy[reasonKind(r.reason)] ?? 0) + 1;
    m = {
      included: rows.filter((r) => r.included).length,
      excluded: rows.filter((r) => !r.included).length,
      excludedBy,
      retainedJoined: rows.filter((r) => r.included && r.source === "retained").length,
      includeRetained: bench.settings.includeRetained !== false,
    };
  }
  const result = {
    // Bumped when a field changes meaning or goes away (new fields may be added without a bump).
    schemaVersion: 1 as const,
    benchId: id,
    status: bench.status,
    manifest: m,
    candidates: bench.candidates.map((c) => {
      const s = statsOf(summary, c.id)!;
      const ev = evidence.find((e) => e.candidateId === c.id);
      return {
        index: c.position,
        label: c.label,
        kind: c.kind,
        baseline: summary.baselineCandidateId === c.id,
        trials: s.trials,
        scored: s.checks.scored,
        passed: s.checks.passed,
        failed: s.checks.failed,
        unscored: s.checks.unscored,
        error: s.checks.error,
        passRate: s.passRate.rate,
        regressions: ev?.regressions ?? summary.regressions[String(c.id)] ?? [],
        // Issue #16: paired statistics (see README "Statistics in bench run --json-output").
        casePassRate: ev?.rates.trialPassRate ?? null,
        passAtK: ev?.rates.passAt ?? null,
        passHatK: ev?.rates.passHat ?? null,
        comparisons: ev?.comparisons ?? [],
        fixes: summary.fixes?.[String(c.id)] ?? [],
        // Issue #16 §4: trials the spend cap kept from starting (also counted in trials.skipped).
        skippedForBudget: spend.budgetSkipped.get(c.id) ?? 0,
        // Issue #16 §5: the cases that flipped against the baseline, and the checks the baseline is flaky on (null for the baseline itself).
        ...flipJson(flipReports.find((f) => f.candidateId === c.id)),
      };
    }),
    errors,
    // Issue #16: a bench that did not run every trial of its launched run (cut short by its spend cap, or cancelled)
    // recommends nothing; null for a complete bench.
    partial: rec.partial
      ? {
          reason: rec.partial.budgetSkipped ? ("budget" as const) : ("cancelled" as const),
          finished: rec.partial.finished,
          total: rec.partial.total,
          skippedForBudget: rec.partial.budgetSkipped ?? 0,
        }
      : null,
    // Issue #16 §4: the spend cap (null = none), what the bench spent, and the gate limits.
    budget: {
      spendCapUsd: bench.settings.spendCap?.usd ?? null,
      // The cap before a rerun raised it (its budget skips were made under it); null when never raised.
      spendCapRaisedFromUsd: bench.settings.spendCap?.raisedFromUsd ?? null,
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
  const lines: string[] = [""];
  result.candidates.forEach((c, i) => {
    // Issue #16: what blocks it counted like the headline (the gate's blockers by status), the cleared flakes apart, and the gate limits.
    const cid = bench.candidates[i].id;
    const verdict = rec.candidates.find((v) => v.candidateId === cid);
    const classified = evidence.find((e) => e.candidateId === cid)?.regressions ?? [];
    const counts = candidateCounts({
      blockers: blockerStatuses(verdict?.blockers ?? [], classified),
      blockerReasons: blockerReasons(verdict?.blockers ?? [], classified),
      regressions: classified.map((r) => r.regressionStatus),
      fixes: c.fixes.length,
      limits: verdict?.limitBlockers ?? [],
    });
    lines.push(
      `${c.label}${c.baseline ? " (baseline)" : ""}: ${c.passRate === null ? "—" : `${(c.passRate * 100).toFixed(1)}%`} of ${c.scored} scored checks · ${c.unscored} unscored · ${counted(c.error, "check error")} · trials ${c.trials.done} done / ${c.trials.error} error / ${c.trials.skipped} skipped${counts}`,
    );
  });
  // Cost and latency against the baseline, with their intervals (issue #16 §4).
  for (const c of bench.candidates) {
    const t = evidence.find((e) => e.candidateId === c.id)?.comparisons.find((x) => x.against === "baseline")?.tradeoffs;
    if (!t || !(t.costPerCase || t.latencyP50)) continue;
    const f = tradeoffCells(t);
    lines.push(`  ${c.label} vs baseline: cost per case ${f.cost} · latency p50 ${f.p50} · p95 ${f.p95}`);
  }
  if (spend.budgetSkippedTotal)
    lines.push(
      // Not "reached": a cap raised later for a rerun is above what was spent when these were skipped.
      `\n${budgetSkipLine(bench.settings.spendCap!, spend.spentUsd, spend.budgetSkippedTotal)}`,
    );
  if (result.errors.length) {
    lines.push("\nTrials that ended as errors, most common reasons:");
    for (const e of result.errors) lines.push(`  ${e.trials} × ${e.message}`);
  }
  // The evidence sentence over the recommendation's ranking (the gate's blockers, each with its status).
  const evOf = (cid: number) => evidence.find((e) => e.candidateId === cid);
  const ranked = rec.candidates.map((c) => {
    const statuses = blockerStatuses(c.blockers, evOf(c.candidateId)?.regressions ?? []);
    // Issue #16: why a blocker is confirmed without repeats ("deterministic replay"), shown in the sentence and the comment.
    const reasons = blockerReasons(c.blockers, evOf(c.candidateId)?.regressions ?? []);
    return {
      candidateId: c.candidateId,
      label: c.label,
      isBaseline: c.isBaseline,
      comparisons: evOf(c.candidateId)?.comparisons ?? [],
      blockers: statuses,
      blockerReasons: reasons,
      blockerList: c.blockers.map((b, i) => ({ caseKey: b.caseKey, label: b.label, against: b.against, status: statuses[i], reason: reasons[i] })),
    };
  });
  const primary = primaryComparison(ranked);
  const sentence = primary ? evidenceSentence(primary) : null;
  if (sentence) lines.push(`\n${sentence}`);
  lines.push(`${sentence ? "" : "\n"}${rec.headline}`);
  // A cancel (Ctrl-C) that reached the bench after its last result cancelled nothing: said, the bench is finished (issue #16).
  if (bench.summary.cancelTooLate) lines.push(cancelTooLateNote(bench.summary.cancelTooLate.byEmail));
  const markdownSummary = benchMarkdown({
    benchId: id,
    status: bench.status,
    headline: sentence,
    recommendation: rec.headline,
    // Bench order in the table, as in the JSON and the page.
    candidates: bench.candidates.map((c) => ({
      label: c.label,
      baseline: summary.baselineCandidateId === c.id,
      casePassRate: evOf(c.id)?.rates.trialPassRate ?? null,
      comparisons: evOf(c.id)?.comparisons ?? [],
      blockers: ranked.find((r) => r.candidateId === c.id)?.blockerList ?? [],
      // Issue #16: the flakes a rerun cleared and the errored trials belong in the comment too.
      cleared: (evOf(c.id)?.regressions ?? [])
        .filter((r) => r.regressionStatus === "cleared")
        .map((r) => ({ caseKey: r.caseKey, label: r.label, against: r.against, status: r.regressionStatus })),
      erroredTrials: statsOf(summary, c.id)?.trials.error ?? 0,
      trials: statsOf(summary, c.id)?.trials.total ?? 0,
    })),
    errors,
  });
  const markdown =
    markdownSummary +
    tradeoffsMarkdown(
      rec.candidates.map((c) => ({
        label: c.label,
        tradeoffs: evOf(c.candidateId)?.comparisons.find((x) => x.against === "baseline")?.tradeoffs,
        limitBlockers: c.limitBlockers ?? [],
      })),
    );
  // Issue #16: what `--fail-on worse|inconclusive` fails on — the primary comparison and what blocks its candidate.
  const primaryId = ranked.find((r) => r === primary?.candidate)?.candidateId;
  const primaryVerdict = rec.candidates.find((c) => c.candidateId === primaryId);
  const failOn = failOnReasons(primary, { regressions: primary?.candidate.blockers.length ?? 0, limits: primaryVerdict?.limitBlockers ?? [] });
  return {
    result,
    lines,
    markdown,
    gate: {
      finished: bench.status === "finished",
      partial: rec.partial
        ? `benchwork: bench #${id} ${rec.partial.budgetSkipped ? "is partial: " : "was "}${partialReason(rec.partial)}, so no candidate is recommended${rec.partial.budgetSkipped ? "; raise --max-cost and run it again" : ""}.`
        : null,
      allErrored: result.candidates.every((c) => c.trials.total > 0 && c.trials.error === c.trials.total),
      // A gate limit (issue #16 §4) blocks the best candidate like a regression does.
      bestBlocked: (rec.candidates[0]?.blockers.length ?? 0) > 0 || (rec.candidates[0]?.limitBlockers?.length ?? 0) > 0,
      ...failOn,
    },
  };
}

/**
 * The exit code of `bench run` from a report: 1 when the bench is partial (cut short by its spend
 * cap, or cancelled: `gate.partial` is the stderr line) or did not finish; with `--fail-on`, 1
 * (and the reason on stderr) when the primary comparison fails a listed rule (`worse`: its verdict
 * is worse or its candidate is blocked; `inconclusive`: that, or it is inconclusive, or nothing was
 * compared); 1 when every trial errored or the best candidate is blocked (by a regression or a gate
 * limit); else 0.
 */
export function benchRunExit(gate: BenchRunReport["gate"], failOn: readonly FailOn[]): { code: 0 | 1; stderr: string | null } {
  // A partial bench (issue #16) recommends nothing: CI must not take it for a pass.
  if (gate.partial) return { code: 1, stderr: gate.partial };
  if (!gate.finished) return { code: 1, stderr: null };
  const failed = failOnMessage({ worse: gate.worse ?? null, inconclusive: gate.inconclusive }, failOn);
  if (failed) return { code: 1, stderr: failed };
  return { code: gate.allErrored || gate.bestBlocked ? 1 : 0, stderr: null };
}
