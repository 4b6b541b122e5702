/**
 * Which trials a rerun inside a finished bench adds (issue #16 §3). Pure: the caller reads the
 * bench's trials and regression statuses and writes the returned trials.
 * - Confirm suspected regressions: for every case with a suspected regression of a candidate, new
 *   trials of that candidate and — when the regression was found against the bench's baseline —
 *   of the baseline, with new repeat indexes after the highest one of that candidate × case.
 * - Rerun errored trials: one new trial per errored trial not rerun yet, linked to it.
 */

/** The fewest trials per side and check a confirm round leaves (3/3 → 0/3 is the smallest table Fisher can confirm at p ≤ 0.05). */
export const CONFIRM_MIN_TOTAL = 3;

/** A trial a rerun adds. */
export interface RerunTrial {
  candidateId: number;
  benchCaseId: number;
  repeat: number;
  rerun: "confirm" | "error";
  /** The errored trial it reruns (error reruns only). */
  rerunOf: number | null;
}

/** One suspected regression: the candidate, the bench case it broke in, and what it passed against. */
export interface SuspectedRegression {
  candidateId: number;
  benchCaseId: number;
  against: "baseline" | "last bench";
}

/** The trials a candidate already has in a bench case: how many, and the highest repeat index. */
export interface SideTrials {
  count: number;
  maxRepeat: number;
}

const keyOf = (candidateId: number, benchCaseId: number) => `${candidateId}|${benchCaseId}`;

/**
 * How many trials one side of a suspected case gets: as many as the bench ran per case
 * (`repeats`), and at least enough for {@link CONFIRM_MIN_TOTAL} in all.
 * @param repeats the bench's trials per case (≥ 1)
 * @param existing the side's trials of that case so far
 */
export function confirmExtra(repeats: number, existing: number): number {
  return Math.max(repeats, CONFIRM_MIN_TOTAL - existing);
}

/**
 * The trials of a confirm round, grouped so each candidate × case appears once (a baseline case
 * broken by two candidates is rerun once), in the order given.
 * @param o.repeats the bench's trials per case
 * @param o.baselineCandidateId the bench's baseline candidate, or null
 * @param o.suspected the suspected regressions (only their candidate, case and reference are read)
 * @param o.existing the trials a candidate already has in a case (none: `{ count: 0, maxRepeat: 0 }`)
 * @returns the new trials with repeat indexes after `maxRepeat`; empty when nothing is suspected
 */
export function confirmTrials(o: {
  repeats: number;
  baselineCandidateId: number | null;
  suspected: readonly SuspectedRegression[];
  existing: (candidateId: number, benchCaseId: number) => SideTrials;
}): RerunTrial[] {
  const sides: { candidateId: number; benchCaseId: number }[] = [];
  const seen = new Set<string>();
  const add = (candidateId: number, benchCaseId: number) => {
    const k = keyOf(candidateId, benchCaseId);
    if (seen.has(k)) return;
    seen.add(k);
    sides.push({ candidateId, benchCaseId });
  };
  for (const s of o.suspected) {
    add(s.candidateId, s.benchCaseId);
    // A regression against the last bench has its reference in that bench: rerunning this bench's baseline tells nothing about it.
    if (s.against === "baseline" && o.baselineCandidateId !== null) add(o.baselineCandidateId, s.benchCaseId);
  }
  const out: RerunTrial[] = [];
  for (const side of sides) {
    const have = o.existing(side.candidateId, side.benchCaseId);
    const n = confirmExtra(o.repeats, have.count);
    // A plain literal, not a spread: thousands of trials on a large bench's results page.
    for (let i = 1; i <= n; i++)
      out.push({ candidateId: side.candidateId, benchCaseId: side.benchCaseId, repeat: have.maxRepeat + i, rerun: "confirm", rerunOf: null });
  }
  return out;
}

/** An errored trial of a bench. */
export interface ErroredTrial {
  id: number;
  candidateId: number;
  benchCaseId: number;
}

/**
 * One new trial per errored trial that no trial reruns yet, each linked to the one it reruns, with
 * repeat indexes after the highest of its candidate × case (the errored record stays as it was).
 * @param errored the bench's errored trials, in id order
 * @param rerunAlready ids of errored trials some trial already reruns (a rerun that errored again is itself in `errored`)
 * @param existing as in {@link confirmTrials}
 */
export function errorRerunTrials(
  errored: readonly ErroredTrial[],
  rerunAlready: ReadonlySet<number>,
  existing: (candidateId: number, benchCaseId: number) => SideTrials,
): RerunTrial[] {
  const next = new Map<string, number>();
  const out: RerunTrial[] = [];
  for (const t of errored) {
    if (rerunAlready.has(t.id)) continue;
    const k = keyOf(t.candidateId, t.benchCaseId);
    const repeat = (next.get(k) ?? existing(t.candidateId, t.benchCaseId).maxRepeat) + 1;
    next.set(k, repeat);
    out.push({ candidateId: t.candidateId, benchCaseId: t.benchCaseId, repeat, rerun: "error", rerunOf: t.id });
  }
  return out;
}

/** A bench's state as far as a rerun cares. */
export interface RerunableBench {
  id: number;
  status: "queued" | "running" | "finished" | "cancelled" | "failed";
}

/**
 * Why a confirm round leaves out the regressions that are deterministic replays (a recorded answer
 * against a recorded reference on a code check, see lib/bench/stats/deterministic.ts), or null
 * when there are none.
 * @param deterministic how many of the bench's regressions are deterministic replays
 */
export function deterministicNote(deterministic: number): string | null {
  if (deterministic <= 0) return null;
  return deterministic === 1
    ? "1 regression is a deterministic replay: a rerun cannot change it."
    : `${deterministic.toLocaleString("en-US")} regressions are deterministic replays: a rerun cannot change them.`;
}

/**
 * Why a rerun of `what` cannot start on this bench, or null when it can.
 * @param count how many suspected regressions (confirm) or errored trials not yet rerun (errors) it has
 * @param deterministic (confirm) how many regressions are deterministic replays: with nothing
 *   suspected, the refusal says why they are not rerun
 */
export function rerunRefusal(bench: RerunableBench, what: "confirm" | "errors", count: number, deterministic = 0): string | null {
  if (bench.status === "queued" || bench.status === "running")
    return `Bench #${bench.id} is still ${bench.status}: wait until it has finished before ${what === "confirm" ? "confirming its suspected regressions" : "rerunning its errored trials"}.`;
  if (bench.status !== "finished") return `Bench #${bench.id} was ${bench.status}: only a finished bench can be rerun into (launch a new bench instead).`;
  if (count === 0)
    return what === "confirm"
      ? (deterministicNote(deterministic) ?? `Bench #${bench.id} has no suspected regression to confirm (confirmed and cleared ones need no rerun).`)
      : `Bench #${bench.id} has no errored trial left to rerun.`;
  return null;
}
