/**
 * Regressions and the recommendation (DESIGN.md §4 step 6). A regression is a check that passed
 * for the reference (the baseline candidate, or the last bench of the same suite) and fails for
 * the candidate on the same case revision. A candidate that breaks a previously passing check —
 * primary or secondary — is not recommended, even if its average pass rate is higher.
 */
import type { CandidateStats, CheckOutcomeRow } from "./aggregate";
import { formatPoints } from "./evidence/format";
import { isFix } from "./fix";
import { n as num } from "./progress-counts";

/** One broken check. */
export interface Regression {
  caseKey: string;
  caseRevisionId: number;
  key: string;
  label: string;
  priority?: "primary" | "secondary";
  /** What it passed in: the baseline candidate of this bench, or the last bench of the suite. */
  against: "baseline" | "last bench";
  /** Candidate outcome: failed in every scored repeat, or in some (mixed). */
  outcome: "failed" | "mixed";
  /** On a criterion whose judge was not calibrated at launch (issue 18): shown, never a blocker. */
  advisory?: true;
}

type Outcomes = Map<string, CheckOutcomeRow>;

/**
 * The regressions of a candidate against the baseline followed by those against the last bench,
 * each check (case revision × check key) once: a check that broke against both is one broken
 * check, listed against the baseline.
 */
export function mergeRegressions<T extends Pick<Regression, "caseRevisionId" | "key">>(baseline: readonly T[], lastBench: readonly T[]): T[] {
  const seen = new Set(baseline.map((r) => `${r.caseRevisionId}|${r.key}`));
  return [...baseline, ...lastBench.filter((r) => !seen.has(`${r.caseRevisionId}|${r.key}`))];
}

/**
 * Checks that passed in `reference` (every scored repeat) and fail in `candidate` (any scored
 * repeat), matched by case revision and check key, ordered by case then check.
 */
export function findRegressions(reference: Outcomes, candidate: Outcomes, against: Regression["against"]): Regression[] {
  const out: Regression[] = [];
  for (const [k, ref] of reference) {
    if (ref.outcome !== "passed") continue;
    const c = candidate.get(k);
    if (!c || (c.outcome !== "failed" && c.outcome !== "mixed")) continue;
    out.push({
      caseKey: c.caseKey,
      caseRevisionId: c.caseRevisionId,
      key: c.key,
      label: c.label,
      ...(c.priority ? { priority: c.priority } : {}),
      against,
      outcome: c.outcome,
    });
  }
  return out.sort((a, b) => a.caseKey.localeCompare(b.caseKey) || a.key.localeCompare(b.key));
}

/**
 * One fixed check: it failed for the reference in every scored repeat and passes for the candidate
 * in every scored repeat. A check whose reference repeats disagree is flaky on the reference, not a
 * fix (issue #16: the same definition as the flip table, lib/bench/evidence/flips.ts).
 */
export type Fix = Omit<Regression, "outcome">;

/**
 * Checks that failed in `reference` (every scored repeat) and pass in `candidate` (every scored
 * repeat), matched by case revision and check key, ordered by case then check: the improvements a
 * candidate brings, listed beside its regressions.
 */
export function findFixes(reference: Outcomes, candidate: Outcomes, against: Fix["against"]): Fix[] {
  const out: Fix[] = [];
  for (const [k, ref] of reference) {
    // The one definition (lib/bench/fix.ts): a reference whose repeats disagree is flaky there, and the candidate fixed nothing.
    const c = candidate.get(k);
    if (!c || !isFix(ref, c)) continue;
    out.push({ caseKey: c.caseKey, caseRevisionId: c.caseRevisionId, key: c.key, label: c.label, ...(c.priority ? { priority: c.priority } : {}), against });
  }
  return out.sort((a, b) => a.caseKey.localeCompare(b.caseKey) || a.key.localeCompare(b.key));
}

/** The verdict on one candidate. */
export interface CandidateVerdict {
  candidateId: number;
  label: string;
  isBaseline: boolean;
  rank: number;
  recommended: boolean;
  /** Regressions that block it (empty for an unblocked candidate). */
  blockers: Regression[];
  /** Checks it fixed against the baseline or the last bench (absent in recommendations stored before fixes were listed). */
  fixes?: Fix[];
  /** Differences from the baseline worth knowing (pass rate, cost, latency, tokens, errors). */
  tradeoffs: string[];
  /** Gate limits it exceeds (issue #16 §4), e.g. "p95 latency +34 % exceeds the +20 % limit": they block it too. Absent when none. */
  limitBlockers?: string[];
}

/** The earlier bench a bench was compared with: its id and the label of its reference candidate. */
export interface LastBenchReference {
  benchId: number;
  candidateLabel: string;
}

/**
 * How many cases one comparison of a partial bench covers: the cases both sides scored (the paired
 * statistics' `n`), of the cases the bench included.
 */
export interface PartialCoverage {
  /** The candidate compared. */
  label: string;
  against: "baseline" | "last";
  /** The last bench's id (against `last`). */
  againstBenchId?: number;
  /** Cases both sides scored. */
  n: number;
}

/**
 * A bench whose launched run did not run every trial: cancelled after `finished` of `total`
 * trials, or — with `budgetSkipped` — its spend cap kept that many trials from starting.
 */
export interface PartialRun {
  finished: number;
  total: number;
  budgetSkipped?: number;
  /** Cases the bench included (absent: not said). */
  cases?: number;
  /** Per comparison, the cases it covers (absent: not said). */
  coverage?: PartialCoverage[];
}

/** The bench's recommendation: at most one recommended candidate and a headline saying why. */
export interface Recommendation {
  recommendedCandidateId: number | null;
  headline: string;
  candidates: CandidateVerdict[];
  /** The last bench the candidates were compared with (absent in recommendations stored before it was kept, null when none). */
  lastBench?: LastBenchReference | null;
  /**
   * Set when the bench is partial (cancelled, or cut short by its spend cap; issue #16): then no
   * candidate is recommended. Absent on a complete bench, and on recommendations stored before
   * it was kept (their headline starts "Partial bench").
   */
  partial?: Omit<PartialRun, "coverage" | "cases">;
}

/**
 * Whether a stored recommendation is a partial bench's (issue #16): it recommends nothing, and one
 * stored before `partial` was kept (its headline starts "Partial bench") is shown as not recommending.
 */
export function isPartialRecommendation(rec: Pick<Recommendation, "partial"> & { headline?: string }): boolean {
  return rec.partial != null || (rec.headline ?? "").startsWith("Partial bench");
}

/** "Partial bench, the spend cap stopped it after 24 of 120 trials (96 skipped as budget)": why a bench is partial. */
export function partialReason(p: Pick<PartialRun, "finished" | "total" | "budgetSkipped">): string {
  // Issue #16: a bench the spend cap cut short is as partial as a cancelled one.
  return p.budgetSkipped
    ? `the spend cap stopped it after ${num(p.finished)} of ${num(p.total)} trials (${num(p.budgetSkipped)} skipped as budget)`
    : `cancelled after ${num(p.finished)} of ${num(p.total)} trials`;
}

/** "Its comparisons cover only the cases both sides scored, of 20: a vs the baseline 4, vs the last bench (#8) 4; …" */
function coverageText(p: PartialRun): string {
  if (!p.coverage?.length) return "";
  const by = new Map<string, string[]>();
  for (const c of p.coverage) {
    const list = by.get(c.label) ?? [];
    list.push(
      `vs ${c.against === "baseline" ? "the baseline" : `the last bench${c.againstBenchId === undefined ? "" : ` (#${c.againstBenchId})`}`} ${num(c.n)}`,
    );
    by.set(c.label, list);
  }
  const parts = [...by].map(([label, list]) => `${label} ${list.join(", ")}`);
  return ` Its comparisons cover only the cases both sides scored${p.cases === undefined ? "" : `, of ${num(p.cases)}`}: ${parts.join("; ")}.`;
}

const pct = (r: number | null) => (r === null ? "n/a" : `${(r * 100).toFixed(1)}%`);

/**
 * Relative differences in cost and in median latency that the trade-offs mention, and below which
 * they do not rank candidates of equal pass rate and errors: a few ms or cents are noise (a bench
 * recommended switching to a twin of the baseline for a p50 4 ms lower).
 */
const COST_WORTH_KNOWING = 0.05;
const LATENCY_WORTH_KNOWING = 0.1;

function tradeoffs(s: CandidateStats, base: CandidateStats | undefined): string[] {
  // A candidate (or baseline) with no finished trial has no tokens, cost or latency to compare ("-100% tokens").
  if (!base || base.candidateId === s.candidateId || s.trials.done === 0 || base.trials.done === 0) return [];
  const out: string[] = [];
  if (s.passRate.rate !== null && base.passRate.rate !== null) {
    const d = (s.passRate.rate - base.passRate.rate) * 100;
    // Over every scored check, unlike the evidence headline's Δ over paired cases (issue #16): say which, so the two figures on one card do not read as one.
    if (Math.abs(d) >= 0.05) out.push(`pass rate over scored checks ${formatPoints(d / 100)} points vs baseline (the evidence's Δ is over paired cases)`);
  }
  if (s.costUsd !== null && base.costUsd !== null && base.costUsd > 0) {
    const r = s.costUsd / base.costUsd;
    if (Math.abs(r - 1) >= COST_WORTH_KNOWING) out.push(`cost ${r > 1 ? `${r.toFixed(2)}× higher` : `${(1 / r).toFixed(2)}× lower`}`);
  }
  if (s.latencyMs.p50 !== null && base.latencyMs.p50 !== null && base.latencyMs.p50 > 0) {
    const r = s.latencyMs.p50 / base.latencyMs.p50;
    if (Math.abs(r - 1) >= LATENCY_WORTH_KNOWING) out.push(`median latency ${r > 1 ? `${r.toFixed(1)}× slower` : `${(1 / r).toFixed(1)}× faster`}`);
  }
  const tok = s.tokens.input + s.tokens.output;
  const btok = base.tokens.input + base.tokens.output;
  if (btok > 0 && Math.abs(tok / btok - 1) >= 0.1) out.push(`${tok > btok ? "+" : "\u2212"}${Math.abs(Math.round((tok / btok - 1) * 100))}% tokens`);
  return out;
}

/**
 * A bench of one candidate that is its own baseline (the default for one candidate): that candidate
 * is the pick by default, not by comparison, so pages do not present it as "recommended".
 * @param candidates the recommendation's (or a history row's) candidates, with their baseline flag
 */
export function soleBaseline(candidates: readonly { isBaseline: boolean }[]): boolean {
  return candidates.length === 1 && candidates[0].isBaseline;
}

/** When nothing passed, the checks that passed before and broke still deserve a mention: " It also breaks 5 previously passing checks (bad: 5)." */
function brokeNote(verdicts: readonly CandidateVerdict[]): string {
  const broke = verdicts.filter((v) => v.blockers.length > 0);
  if (broke.length === 0) return "";
  const n = broke.reduce((a, v) => a + v.blockers.length, 0);
  return ` ${broke.length === 1 ? "It also breaks" : "They also break"} ${num(n)} previously passing check${n > 1 ? "s" : ""} (${broke.map((v) => `${v.label}: ${num(v.blockers.length)}`).join(", ")}).`;
}

/** −1 when `a` is lower than `b` by at least `share` of the larger, 1 when higher, else 0 (a tie). */
function clearlyLower(a: number, b: number, share: number): number {
  const larger = Math.max(Math.abs(a), Math.abs(b));
  if (larger === 0 || Math.abs(a - b) < share * larger) return 0;
  return a < b ? -1 : 1;
}

/** What blocks a candidate, regressions and gate limits: "1 broken check, and cost per case +50 % exceeds the +30 % limit". */
function blockedBy(v: CandidateVerdict): string {
  const n = v.blockers.length;
  return [n ? `${num(n)} broken check${n === 1 ? "" : "s"}` : "", ...(v.limitBlockers ?? [])].filter(Boolean).join(", and ");
}

/** Why a candidate ranked above the pick is not it: "b scores higher but breaks 2 previously passing checks". */
function whyAbove(v: CandidateVerdict): string {
  return v.blockers.length
    ? `${v.label} scores higher but breaks ${num(v.blockers.length)} previously passing check${v.blockers.length > 1 ? "s" : ""}${v.limitBlockers ? `, and ${v.limitBlockers.join("; ")}` : ""}`
    : `${v.label} scores higher but ${v.limitBlockers!.join("; ")}`;
}

/**
 * Ranks candidates (pass rate over scored checks, then fewer errors, cost lower by ≥ 5 %, median
 * latency lower by ≥ 10 %, then the baseline before the others, then bench order),
 * and recommends the best-ranked one with no blocking regression and at least one passed check: a
 * candidate that passed nothing is never recommended, and when nothing passed the headline says so.
 * @param candidates in bench order, with labels
 * @param baselineId the baseline candidate, or null when the reference is only the last bench
 * @param blockers regressions per candidate id (vs baseline and vs the last bench)
 * @param context `partial`: the bench was cancelled after `finished` of `total` trials, or — with
 *   `budgetSkipped` — its spend cap kept that many trials from starting (said first): then no
 *   candidate is recommended, the headline names the leader on the cases that ran and how many
 *   cases each comparison covers (`coverage`), and never claims "no regression" (issue #16);
 *   `lastBench`: the earlier bench of the prompt the candidates were also compared with (its id and
 *   the label of its candidate used as the reference), absent when there was none; `fixes`: checks
 *   each candidate fixed (see {@link findFixes}), listed on its verdict
 */
export function recommend(
  candidates: { id: number; label: string; stats: CandidateStats }[],
  baselineId: number | null,
  blockers: Map<number, Regression[]>,
  context: {
    partial?: PartialRun;
    lastBench?: LastBenchReference | null;
    fixes?: Map<number, Fix[]>;
    /** Per candidate id, the gate limits it exceeds (see lib/bench/stats/gate-limits.ts). */
    limits?: Map<number, string[]>;
  } = {},
): Recommendation {
  const base = candidates.find((c) => c.id === baselineId)?.stats;
  const ranked = [...candidates].sort(
    (a, b) =>
      (b.stats.passRate.rate ?? -1) - (a.stats.passRate.rate ?? -1) ||
      a.stats.trials.error - b.stats.trials.error ||
      clearlyLower(a.stats.costUsd ?? 0, b.stats.costUsd ?? 0, COST_WORTH_KNOWING) ||
      clearlyLower(a.stats.latencyMs.p50 ?? 0, b.stats.latencyMs.p50 ?? 0, LATENCY_WORTH_KNOWING) ||
      Number(b.id === baselineId) - Number(a.id === baselineId),
  );
  const verdicts: CandidateVerdict[] = ranked.map((c, i) => ({
    candidateId: c.id,
    label: c.label,
    isBaseline: c.id === baselineId,
    rank: i + 1,
    recommended: false,
    blockers: blockers.get(c.id) ?? [],
    fixes: context.fixes?.get(c.id) ?? [],
    tradeoffs: tradeoffs(c.stats, base),
    ...(context.limits?.get(c.id)?.length ? { limitBlockers: context.limits.get(c.id) } : {}),
  }));
  const stat = (id: number) => candidates.find((c) => c.id === id)!.stats;
  const passedAny = (v: CandidateVerdict) => stat(v.candidateId).passRate.passed > 0;
  const best = verdicts.find((v) => v.blockers.length === 0 && !v.limitBlockers && passedAny(v));
  // A partial bench recommends nothing (issue #16): the cases it did not run could hide a regression, and which
  // cases ran is the plan's order (or what the cap let start), not a sample. Its leader is named, as such.
  const partial = context.partial;
  const pick = partial ? undefined : best;
  // What "no regression" was checked against; with neither, the headline must say so.
  const last = context.lastBench ?? null;
  const lastText = last ? `the last bench (#${last.benchId}, ${last.candidateLabel})` : null;
  const baseScored = baselineId !== null && (stat(baselineId).passRate.scored ?? 0) > 0;
  const against = [baseScored ? "the baseline" : null, lastText].filter((x): x is string => x !== null).join(" or ");
  const noCheck = `on pass rate alone: no regression check was possible (${baselineId === null ? "no baseline candidate" : "the baseline has no scored check"} and no earlier finished bench of this prompt to compare with)`;
  let headline: string;
  if (partial && best) {
    const blockedAbove = verdicts.filter((v) => v.rank < best.rank && (v.blockers.length || v.limitBlockers));
    const rateText = `${pct(stat(best.candidateId).passRate.rate)} of ${num(stat(best.candidateId).passRate.scored)} scored checks`;
    headline = `No candidate is recommended: the cases it did not run could hide a regression.${coverageText(partial)} On the cases that ran, ${best.label} ranks first (${rateText})${blockedAbove.length ? `; ${blockedAbove.map(whyAbove).join("; ")}` : ""}.`;
  } else if (!pick) {
    const scored = verdicts.filter((v) => stat(v.candidateId).passRate.scored > 0);
    const passedNone = scored.filter((v) => !passedAny(v));
    if (scored.length === 0) headline = "No candidate is recommended: no check was scored.";
    else if (passedNone.length === scored.length)
      headline = `Nothing passed: every scored check failed (${scored.map((v) => `${v.label}: 0 of ${num(stat(v.candidateId).passRate.scored)}`).join(", ")}). No candidate is recommended.${brokeNote(verdicts)}`;
    else {
      // Every candidate that passed something is blocked, or it would be the pick: name each one (issue #16), in rank order.
      const blocked = verdicts.filter((v) => passedAny(v));
      const others = passedNone.length ? "; the others passed none" : "";
      if (blocked.every((v) => v.blockers.length === 0))
        headline = `No candidate is recommended: ${blocked.map((v) => `${v.label} passes the gate's regression check but ${v.limitBlockers!.join("; ")}`).join("; ")}.`;
      else if (blocked.every((v) => !v.limitBlockers))
        headline = `No candidate is recommended: every candidate that passed a check breaks a previously passing check (${blocked.map((v) => `${v.label}: ${num(v.blockers.length)}`).join(", ")})${others}.`;
      else
        headline = `No candidate is recommended: every candidate that passed a check is blocked (${blocked.map((v) => `${v.label}: ${blockedBy(v)}`).join("; ")})${others}.`;
    }
  } else {
    pick.recommended = true;
    // Ranked above the pick: blocked by a regression, or held back by a gate limit (issue #16 §4).
    const blockedAbove = verdicts.filter((v) => v.rank < pick.rank && (v.blockers.length || v.limitBlockers));
    const why = whyAbove;
    const rateText = `${pct(stat(pick.candidateId).passRate.rate)} of ${num(stat(pick.candidateId).passRate.scored)} scored checks`;
    if (pick.isBaseline && blockedAbove.length) {
      headline = `Keep the baseline ${pick.label} (${rateText}): ${blockedAbove.map(why).join("; ")}.`;
    } else if (pick.isBaseline) {
      // A lone candidate that is its own baseline wins by default: say so rather than "Recommended".
      headline = !soleBaseline(verdicts)
        ? `Keep the baseline ${pick.label}: it has the best pass rate (${rateText}).`
        : lastText
          ? `Only one candidate, ${pick.label} (${rateText}): it breaks no check that passed in ${lastText}.`
          : `Only one candidate, ${pick.label} (${rateText}): there was nothing to compare it with, so no regression could be checked. Add a second candidate, or choose the last bench as the baseline, for a recommendation.`;
    } else if (blockedAbove.length) {
      headline = `Recommended: ${pick.label} (${rateText}). ${blockedAbove.map(why).join("; ")}.`;
    } else if (!against) {
      headline = `Recommended: ${pick.label} (${rateText}), ${noCheck}.`;
    } else if (candidates.length === 1) {
      headline = `Recommended: ${pick.label} (${rateText}); it breaks no check that passed in ${against}.`;
    } else {
      headline = `Recommended: ${pick.label} (${rateText}), with no regression against ${against}.`;
    }
  }
  // Say what the verdict rests on when it rests on less than a full, scored comparison.
  const baseStats = baselineId !== null ? stat(baselineId) : undefined;
  const notes: string[] = [];
  if (baseStats && baseStats.passRate.scored === 0) {
    const label = candidates.find((c) => c.id === baselineId)!.label;
    notes.push(
      `The baseline ${label} has no scored check${baseStats.trials.error ? ` (${num(baseStats.trials.error)} of ${num(baseStats.trials.total)} trials errored)` : ""}, so regressions against it could not be checked.`,
    );
  }
  for (const v of verdicts) {
    const s = stat(v.candidateId);
    if (s.trials.error && !(v.candidateId === baselineId && s.passRate.scored === 0))
      v.tradeoffs.push(`${num(s.trials.error)} of ${num(s.trials.total)} trials errored (not counted as failures)`);
  }
  if (partial && !best) headline += coverageText(partial);
  if (partial) headline = `Partial bench, ${partialReason(partial)}. ${headline}`;
  if (notes.length) headline = `${headline} ${notes.join(" ")}`;
  return {
    recommendedCandidateId: pick?.candidateId ?? null,
    headline,
    candidates: verdicts,
    lastBench: last,
    ...(partial
      ? { partial: { finished: partial.finished, total: partial.total, ...(partial.budgetSkipped ? { budgetSkipped: partial.budgetSkipped } : {}) } }
      : {}),
  };
}
