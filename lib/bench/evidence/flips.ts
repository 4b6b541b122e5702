/**
 * The flip table (issue #16 §5), pure: per candidate against the baseline, the cases whose verdict
 * changed — regressed (the candidate passes fewer of its trials than the baseline), fixed (the
 * baseline failed every trial, the candidate passed every one: lib/bench/fix.ts) —
 * and the cases the baseline itself is flaky on (its trials disagree), where a change says little.
 * Case level: a trial passes when all its scored checks pass (as the paired statistics).
 * Also the checks the baseline is flaky on, for `bench run --json-output`.
 */
import { isFix } from "../fix";

/** A case's passing trials of scored trials for one candidate, and the trial to open. */
export interface FlipCell {
  passedTrials: number;
  scoredTrials: number;
  firstTrialId: number | null;
}

/** One case of the matrix (manifest order). */
export interface FlipRow {
  caseKey: string;
  caseRevisionId: number;
  cells: Record<number, FlipCell | undefined>;
}

/** A case in the flip table, with both sides' tallies and the candidate's trial to open. */
export interface FlipCase {
  caseKey: string;
  caseRevisionId: number;
  candidate: { passed: number; scored: number };
  baseline: { passed: number; scored: number };
  /** The candidate's first trial of the case (the trial view's id). */
  trialId: number | null;
}

/** One candidate's flips against the baseline. */
export interface CandidateFlips {
  candidateId: number;
  regressed: FlipCase[];
  fixed: FlipCase[];
  /** Cases whose baseline trials disagree (some passed, some failed): not counted as regressed or fixed. */
  flaky: FlipCase[];
  /** Cases that regressed, but every regression of which a confirm round resolved (issue #16: "flaky — cleared"). */
  cleared: FlipCase[];
  /** Cases both scored. */
  paired: number;
}

/**
 * Per candidate id, the case revisions whose regressions against the baseline a confirm round all
 * resolved (`cleared` or `flaky on baseline`): the flip table lists them as cleared, not regressed.
 * @param regressions the summary's regressions per candidate id (`against` and case revision read)
 * @param evidence the stored evidence per candidate id: `statuses[i]` is regression i's status first
 */
export function resolvedFlipCases(
  regressions: Record<string, readonly { caseRevisionId: number; against: string }[]>,
  evidence: Record<string, { statuses: readonly (readonly [string, ...unknown[]])[] } | undefined> | undefined,
): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  for (const [id, list] of Object.entries(regressions)) {
    const statuses = evidence?.[id]?.statuses ?? [];
    const resolved = new Set<number>();
    const standing = new Set<number>();
    list.forEach((r, i) => {
      if (r.against !== "baseline") return;
      const st = statuses[i]?.[0];
      (st === "cleared" || st === "flaky on baseline" ? resolved : standing).add(r.caseRevisionId);
    });
    for (const rev of standing) resolved.delete(rev);
    if (resolved.size) out.set(Number(id), resolved);
  }
  return out;
}

/**
 * The flips of every candidate except the baseline, over the cases both scored, in manifest order.
 * A case compares pass rates (passed / scored trials): with one trial per case that is pass vs fail.
 * @param rows the matrix rows; `candidateIds` in bench order
 * @param resolved per candidate id, cases a confirm round cleared ({@link resolvedFlipCases}): listed as `cleared`, not regressed
 */
export function flipTable(
  rows: readonly FlipRow[],
  baselineId: number,
  candidateIds: readonly number[],
  resolved: ReadonlyMap<number, ReadonlySet<number>> = new Map(),
): CandidateFlips[] {
  return candidateIds
    .filter((id) => id !== baselineId)
    .map((id) => {
      const out: CandidateFlips = { candidateId: id, regressed: [], fixed: [], flaky: [], cleared: [], paired: 0 };
      const cleared = resolved.get(id);
      for (const r of rows) {
        const b = r.cells[baselineId];
        const c = r.cells[id];
        if (!b || !c || b.scoredTrials === 0 || c.scoredTrials === 0) continue;
        out.paired++;
        const flip: FlipCase = {
          caseKey: r.caseKey,
          caseRevisionId: r.caseRevisionId,
          candidate: { passed: c.passedTrials, scored: c.scoredTrials },
          baseline: { passed: b.passedTrials, scored: b.scoredTrials },
          trialId: c.firstTrialId,
        };
        if (b.passedTrials > 0 && b.passedTrials < b.scoredTrials) out.flaky.push(flip);
        else {
          // Cross-multiplied rates: no division, exact for whole counts.
          const diff = c.passedTrials * b.scoredTrials - b.passedTrials * c.scoredTrials;
          if (diff < 0) (cleared?.has(r.caseRevisionId) ? out.cleared : out.regressed).push(flip);
          // A fix as everywhere (lib/bench/fix.ts): the candidate passes every trial the baseline failed (0/3 → 1/3 is none).
          else if (isFix(flip.baseline, flip.candidate)) out.fixed.push(flip);
        }
      }
      return out;
    });
}

/** Cases of each kind the results page shows per candidate (the rest are counted: "… and N more"). */
export const FLIP_CASES_SHOWN = 40;

/**
 * One candidate's flips as stored with the bench summary (issue #16, speed: the page reads these
 * instead of every case's matrix row): how many cases of each kind, and the first
 * {@link FLIP_CASES_SHOWN} of each, in manifest order.
 */
export interface StoredFlips {
  candidateId: number;
  paired: number;
  /** `cleared` absent in summaries stored before it existed. */
  counts: { regressed: number; fixed: number; flaky: number; cleared?: number };
  regressed: FlipCase[];
  fixed: FlipCase[];
  flaky: FlipCase[];
  cleared?: FlipCase[];
}

/**
 * The flip table as stored: counts, and the first `shown` cases of each kind.
 * @param flips from {@link flipTable}
 */
export function storedFlips(flips: readonly CandidateFlips[], shown = FLIP_CASES_SHOWN): StoredFlips[] {
  return flips.map((f) => ({
    candidateId: f.candidateId,
    paired: f.paired,
    counts: { regressed: f.regressed.length, fixed: f.fixed.length, flaky: f.flaky.length, cleared: f.cleared.length },
    regressed: f.regressed.slice(0, shown),
    fixed: f.fixed.slice(0, shown),
    flaky: f.flaky.slice(0, shown),
    cleared: f.cleared.slice(0, shown),
  }));
}

/** How many cases of `kind` a candidate's flips hold (all of them, or as stored: the counts). */
export function flipCount(f: CandidateFlips | StoredFlips, kind: "regressed" | "fixed" | "flaky" | "cleared"): number {
  return "counts" in f ? (f.counts[kind] ?? 0) : f[kind].length;
}

/** A check the baseline is flaky on: its trials of the check disagree. */
export interface FlakyCheck {
  caseKey: string;
  caseRevisionId: number;
  key: string;
  label: string;
  baseline: { passed: number; scored: number };
}

/**
 * The checks whose baseline trials disagree (0 < passed < scored), ordered by case key then check key.
 * @param trials the baseline's trials with their checks (verdicts other than passed/failed are left out)
 */
export function flakyChecks(
  trials: Iterable<{ caseKey: string; caseRevisionId: number; checks: readonly { key: string; label: string; verdict: string }[] | null }>,
): FlakyCheck[] {
  const by = new Map<string, FlakyCheck>();
  for (const t of trials)
    for (const c of t.checks ?? []) {
      if (c.verdict !== "passed" && c.verdict !== "failed") continue;
      const k = `${t.caseRevisionId}\u0000${c.key}`;
      let f = by.get(k);
      if (!f) by.set(k, (f = { caseKey: t.caseKey, caseRevisionId: t.caseRevisionId, key: c.key, label: c.label, baseline: { passed: 0, scored: 0 } }));
      f.baseline.scored++;
      if (c.verdict === "passed") f.baseline.passed++;
    }
  return [...by.values()]
    .filter((f) => f.baseline.passed > 0 && f.baseline.passed < f.baseline.scored)
    .sort((a, b) => a.caseKey.localeCompare(b.caseKey) || a.key.localeCompare(b.key));
}
