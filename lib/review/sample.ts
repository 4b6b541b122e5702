/**
 * Which trials a review walks (issue 18): filters over the bench's trials and a seeded random
 * sample for calibration, so the same seed gives the same trials on every machine.
 */

/** The review filters. */
export type ReviewFilter = "all" | "failures" | "regressions" | "disagreements" | "unreviewed" | "sample";

export const REVIEW_FILTERS: readonly ReviewFilter[] = ["all", "failures", "regressions", "disagreements", "unreviewed", "sample"];

/** What the filters read of one trial. */
export interface ReviewableTrial {
  trialId: number;
  /** A scored check failed (as recorded, before human verdicts). */
  failed: boolean;
  /** One of its checks is a regression of the bench. */
  regressed: boolean;
  /** A human pass/fail contradicts the judge's recorded passed/failed on one of its checks. */
  disagrees: boolean;
  /** Some judged check of it has no human verdict yet. */
  unreviewed: boolean;
}

/** mulberry32: a small seeded generator (32-bit state), uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `size` trial ids drawn without replacement by a seeded Fisher–Yates shuffle, in drawn order.
 * @param ids the candidates for the sample, in a stable order (e.g. trial id)
 */
export function seededSample(ids: readonly number[], size: number, seed: number): number[] {
  const a = [...ids];
  const rnd = seededRandom(seed);
  const n = Math.min(size, a.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rnd() * (a.length - i));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n);
}

/**
 * The trial ids a review walks, in order.
 * @param trials the bench's reviewable trials in a stable order (trial id)
 * @param o for `sample`: how many (default 20) and the seed (default 1); for the other filters,
 *   `keep`: a trial id kept in the queue even when it no longer matches (the one on screen)
 */
export function reviewQueue(trials: readonly ReviewableTrial[], filter: ReviewFilter, o: { size?: number; seed?: number; keep?: number } = {}): number[] {
  if (filter === "sample")
    return seededSample(
      trials.map((t) => t.trialId),
      o.size ?? 20,
      o.seed ?? 1,
    );
  const tests: Record<Exclude<ReviewFilter, "sample">, (t: ReviewableTrial) => boolean> = {
    all: () => true,
    failures: (t) => t.failed,
    regressions: (t) => t.regressed,
    disagreements: (t) => t.disagrees,
    unreviewed: (t) => t.unreviewed,
  };
  const test = tests[filter];
  // The trial on screen stays in its place when a verdict takes it out of the filter, so "next"
  // goes on from where the reviewer is.
  return trials.filter((t) => test(t) || t.trialId === o.keep).map((t) => t.trialId);
}
