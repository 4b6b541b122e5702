/**
 * Cost and latency trade-offs of a candidate against the baseline (issue #16 §4), pure, over the
 * cases both ran (paired):
 * - cost per case: the mean of the per-case differences dᵢ = costᵢ(candidate) − costᵢ(baseline),
 *   with Student's t interval (mean ± t₀.₉₇₅,ₙ₋₁ · sd/√n);
 * - latency p50 and p95: the difference of the percentiles of the per-case latencies, with a 95 %
 *   percentile-bootstrap interval over cases (both sides resample the same cases; a seeded
 *   generator, so the same bench always gives the same interval).
 * A case's cost and latency are the means over its finished trials (its repeats). Percentiles are
 * nearest-rank, as the bench page's latency p50/p95 (`percentile` in ../aggregate.ts).
 */
import { tQuantile } from "./distributions";

/** A case's figures for one candidate: mean cost in USD and mean latency in ms of its finished trials (null when unknown). */
export interface CaseCost {
  costUsd: number | null;
  latencyMs: number | null;
}

/** One difference, candidate minus baseline, with both sides' values and its 95 % interval. */
export interface TradeoffDifference {
  /** Paired cases the figure is computed over. */
  n: number;
  candidate: number;
  baseline: number;
  /** candidate − baseline (USD per case, or ms). */
  delta: number;
  ci95: [number, number];
  /** candidate / baseline − 1 (0.34 = +34 %); null when the baseline's figure is 0. */
  relative: number | null;
}

/** The trade-offs of one candidate against the baseline; a figure is null with fewer than 2 paired cases that have it. */
export interface Tradeoffs {
  costPerCase: TradeoffDifference | null;
  latencyP50: TradeoffDifference | null;
  latencyP95: TradeoffDifference | null;
  /** How the latency intervals were made (replicates and seed), to reproduce them. */
  bootstrap: { replicates: number; seed: number } | null;
}

/** Default bootstrap settings: 1,000 replicates, a fixed seed. */
export const BOOTSTRAP_REPLICATES = 1000;
export const BOOTSTRAP_SEED = 20_161;

/**
 * Mean of paired differences with Student's t 95 % interval.
 * @param d differences, at least 2
 * @returns mean and [lo, hi]; a zero spread gives a zero-width interval
 */
export function meanDifferenceT(d: readonly number[]): { mean: number; ci95: [number, number] } {
  const n = d.length;
  if (n < 2) throw new RangeError(`meanDifferenceT needs at least 2 differences (got ${n})`);
  let sum = 0;
  for (const x of d) sum += x;
  const mean = sum / n;
  let ss = 0;
  for (const x of d) ss += (x - mean) ** 2;
  const half = (tQuantile(0.975, n - 1) * Math.sqrt(ss / (n - 1))) / Math.sqrt(n);
  return { mean, ci95: [mean - half, mean + half] };
}

/**
 * Nearest-rank percentile of sorted values: the smallest value with at least q of them at or below it.
 * @param sorted ascending, not empty
 * @param q in (0, 1]
 */
export function nearestRank(sorted: ArrayLike<number>, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** mulberry32: a small seeded generator of uniform numbers in [0, 1) (same seed, same sequence). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Percentile-bootstrap 95 % intervals of percentile differences of paired values, candidate minus
 * baseline. Each replicate draws n case indexes with replacement (the same for both sides, in the
 * order `rand` gives: index = ⌊rand · n⌋) and takes the nearest-rank percentiles of the resampled
 * values; the interval is the nearest-rank 2.5 % and 97.5 % of the replicate differences.
 * Runs in O(replicates · n) (a resample is counts over the values sorted once).
 * @param a candidate values, b baseline values, same length ≥ 1, paired by index
 * @param qs percentiles in (0, 1], e.g. [0.5, 0.95]
 */
export function bootstrapPercentileDifferences(
  a: readonly number[],
  b: readonly number[],
  qs: readonly number[],
  o: { replicates?: number; seed?: number } = {},
): [number, number][] {
  const n = a.length;
  const replicates = o.replicates ?? BOOTSTRAP_REPLICATES;
  // Each side's values sorted once, and each case's place in that order: a draw counts straight into
  // the sorted order of both sides, so a percentile is one walk over contiguous counts.
  const sortedOrder = (v: readonly number[]) => Uint32Array.from(v.keys()).sort((i, j) => v[i] - v[j]);
  const orderA = sortedOrder(a);
  const orderB = sortedOrder(b);
  const placeA = new Uint32Array(n);
  const placeB = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    placeA[orderA[i]] = i;
    placeB[orderB[i]] = i;
  }
  const sortedA = Float64Array.from(orderA, (i) => a[i]);
  const sortedB = Float64Array.from(orderB, (i) => b[i]);
  const countsA = new Uint32Array(n);
  const countsB = new Uint32Array(n);
  // The percentiles' ranks in the resample (nearest rank), ascending, with where each goes back.
  const byRank = qs.map((q, i) => [Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1)), i] as const).sort((x, y) => x[0] - y[0]);
  const ranks = Uint32Array.from(byRank, (r) => r[0]);
  // Ranks in the lower half are found walking the counts up from the smallest value, the others
  // walking down from the largest (the p95 is 5 % of the values from the top, not 95 % from the bottom).
  let low = 0;
  while (low < ranks.length && ranks[low] < n / 2) low++;
  const diffs = qs.map(() => new Float64Array(replicates));
  const va = new Float64Array(qs.length);
  const vb = new Float64Array(qs.length);
  const pick = (counts: Uint32Array, sorted: Float64Array, out: Float64Array) => {
    // Rank r is the value at the first place where the counts so far exceed r.
    let qi = 0;
    let seen = 0;
    for (let i = 0; i < n && qi < low; i++) {
      seen += counts[i];
      while (qi < low && seen > ranks[qi]) out[qi++] = sorted[i];
    }
    // From the top: the same place is the first (going down) where the counts from it up reach n − r.
    qi = ranks.length - 1;
    seen = 0;
    for (let i = n - 1; i >= 0 && qi >= low; i--) {
      seen += counts[i];
      while (qi >= low && seen >= n - ranks[qi]) out[qi--] = sorted[i];
    }
  };
  // mulberry32 (see above) inlined: the same sequence as `mulberry32(seed)`, without a call per draw.
  let state = (o.seed ?? BOOTSTRAP_SEED) >>> 0;
  for (let r = 0; r < replicates; r++) {
    countsA.fill(0);
    countsB.fill(0);
    for (let i = 0; i < n; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const k = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
      countsA[placeA[k]]++;
      countsB[placeB[k]]++;
    }
    pick(countsA, sortedA, va);
    pick(countsB, sortedB, vb);
    for (let k = 0; k < byRank.length; k++) diffs[byRank[k][1]][r] = va[k] - vb[k];
  }
  return diffs.map((d) => {
    d.sort();
    return [nearestRank(d, 0.025), nearestRank(d, 0.975)];
  });
}

function difference(n: number, candidate: number, baseline: number, ci95: [number, number]): TradeoffDifference {
  return { n, candidate, baseline, delta: candidate - baseline, ci95, relative: baseline !== 0 ? candidate / baseline - 1 : null };
}

/**
 * The trade-offs of a candidate against the baseline over the cases both have figures for.
 * @param candidate per case key, the candidate's figures; `baseline` the same for the baseline
 * @param o bootstrap replicates and seed (defaults {@link BOOTSTRAP_REPLICATES}, {@link BOOTSTRAP_SEED})
 */
export function compareTradeoffs<K>(
  candidate: ReadonlyMap<K, CaseCost>,
  baseline: ReadonlyMap<K, CaseCost>,
  o: { replicates?: number; seed?: number } = {},
): Tradeoffs {
  const costA: number[] = [];
  const costB: number[] = [];
  const latA: number[] = [];
  const latB: number[] = [];
  for (const [k, c] of candidate) {
    const b = baseline.get(k);
    if (!b) continue;
    if (c.costUsd != null && b.costUsd != null) {
      costA.push(c.costUsd);
      costB.push(b.costUsd);
    }
    if (c.latencyMs != null && b.latencyMs != null) {
      latA.push(c.latencyMs);
      latB.push(b.latencyMs);
    }
  }
  let costPerCase: TradeoffDifference | null = null;
  if (costA.length >= 2) {
    const t = meanDifferenceT(costA.map((x, i) => x - costB[i]));
    const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
    costPerCase = difference(costA.length, mean(costA), mean(costB), t.ci95);
  }
  let latencyP50: TradeoffDifference | null = null;
  let latencyP95: TradeoffDifference | null = null;
  const replicates = o.replicates ?? BOOTSTRAP_REPLICATES;
  const seed = o.seed ?? BOOTSTRAP_SEED;
  if (latA.length >= 2) {
    const [ci50, ci95] = bootstrapPercentileDifferences(latA, latB, [0.5, 0.95], { replicates, seed });
    const sa = Float64Array.from(latA).sort();
    const sb = Float64Array.from(latB).sort();
    latencyP50 = difference(latA.length, nearestRank(sa, 0.5), nearestRank(sb, 0.5), ci50);
    latencyP95 = difference(latA.length, nearestRank(sa, 0.95), nearestRank(sb, 0.95), ci95);
  }
  return { costPerCase, latencyP50, latencyP95, bootstrap: latencyP50 ? { replicates, seed } : null };
}
