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
 * Runs in O(replicates · n) without sorting or allocating per replicate (see {@link bootstrapQuantileGroup}).
 * @param a candidate values, b baseline values, same length ≥ 1, paired by index
 * @param qs percentiles in (0, 1], e.g. [0.5, 0.95]
 */
export function bootstrapPercentileDifferences(
  a: readonly number[],
  b: readonly number[],
  qs: readonly number[],
  o: { replicates?: number; seed?: number } = {},
): [number, number][] {
  const replicates = o.replicates ?? BOOTSTRAP_REPLICATES;
  const seed = o.seed ?? BOOTSTRAP_SEED;
  // A replicate's draws depend on the seed only, so percentiles bootstrapped in separate groups (same
  // seed) give the same numbers as together; a group has at most 4 (its draws are tallied by 8-bit masks).
  const out: [number, number][] = [];
  for (let i = 0; i < qs.length; i += 4) out.push(...bootstrapQuantileGroup(a, b, qs.slice(i, i + 4), replicates, seed));
  return out;
}

/** The case indexes of `v` in ascending order of their values. */
function sortedOrder(v: Float64Array): Uint32Array {
  const order = new Uint32Array(v.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((i, j) => v[i] - v[j]);
}

/** `v`'s values in `order`. */
function valuesIn(v: readonly number[], order: Uint32Array): Float64Array {
  const out = new Float64Array(order.length);
  for (let place = 0; place < order.length; place++) out[place] = v[order[place]];
  return out;
}

/**
 * The value at rank r of a resample on one side, from the draws below pivot r (`drawsBelow`): walks
 * `counts` (draws per case) along the side's sorted `order` from the pivot.
 */
function valueAt(order: Uint32Array, sorted: Float64Array, counts: Uint32Array, r: number, drawsBelow: number): number {
  let seen = drawsBelow;
  if (seen > r) {
    // Below the pivot: walk down until the draws before a place are ≤ r.
    for (let place = r - 1; ; place--) {
      seen -= counts[order[place]];
      if (seen <= r) return sorted[place];
    }
  }
  // At or above it: walk up until the draws through a place exceed r.
  for (let place = r; ; place++) {
    seen += counts[order[place]];
    if (seen > r) return sorted[place];
  }
}

/**
 * {@link bootstrapPercentileDifferences} for up to 4 percentiles. A resample is counted, never sorted:
 * both sides' values are sorted once, and each percentile's rank r in a resample lies near place r of
 * that order (the resample's own quantile varies by about √(n·q·(1 − q)) places). So each side and
 * percentile gets a pivot place (r itself); per draw, the case's count goes up and one 8-bit mask
 * (bit j: the case sits below pivot j on its side) is tallied, which gives how many draws fell below
 * every pivot. The rank is then found walking the counts from the pivot: a few dozen places, not n.
 * Identical to sorting each resample: the value at rank r is at the one place whose draws before it
 * are ≤ r and whose draws through it are > r, whichever way it is found.
 */
function bootstrapQuantileGroup(a: readonly number[], b: readonly number[], qs: readonly number[], replicates: number, seed: number): [number, number][] {
  const n = a.length;
  const nq = qs.length;
  // Side 0 is the candidate, side 1 the baseline; per side its sorted case order and values.
  const orders = [sortedOrder(Float64Array.from(a)), sortedOrder(Float64Array.from(b))];
  const sorted = [valuesIn(a, orders[0]), valuesIn(b, orders[1])];
  const ranks = qs.map((q) => Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1)));
  // Bit s·nq + j of a case's mask: its place on side s is below pivot (= rank) j.
  const mask = new Uint8Array(n);
  for (let s = 0; s < 2; s++)
    for (let place = 0; place < n; place++) for (let j = 0; j < nq; j++) if (place < ranks[j]) mask[orders[s][place]] |= 1 << (s * nq + j);
  const diffs = drawReplicates(mask, 2 * nq, Int32Array.from(ranks), orders[0], sorted[0], orders[1], sorted[1], replicates, seed);
  return ranks.map((_, j) => {
    const d = diffs.subarray(j * replicates, (j + 1) * replicates).sort();
    return [nearestRank(d, 0.025), nearestRank(d, 0.975)];
  });
}

/**
 * The replicates of {@link bootstrapQuantileGroup}: per replicate n draws, tallied per case and per
 * mask, then each percentile's difference (candidate − baseline) at its rank.
 * Only typed arrays and numbers come in: V8 optimizes this loop once for every call (given arrays
 * of varying element kinds and closures made per call, it threw the optimized loop away and
 * recompiled it several times in a process's first runs: the statistics' p95, issue #16).
 * @returns the differences, percentile j's at [j · replicates, (j + 1) · replicates)
 */
function drawReplicates(
  mask: Uint8Array,
  bits: number,
  ranks: Int32Array,
  order0: Uint32Array,
  sorted0: Float64Array,
  order1: Uint32Array,
  sorted1: Float64Array,
  replicates: number,
  seed: number,
): Float64Array {
  const n = mask.length;
  const nq = ranks.length;
  const maskTally = new Uint32Array(1 << bits);
  const counts = new Uint32Array(n);
  const below = new Float64Array(bits);
  const diffs = new Float64Array(nq * replicates);
  // mulberry32 (see above) inlined: the same sequence as `mulberry32(seed)`, without a call per draw.
  let state = seed >>> 0;
  for (let rep = 0; rep < replicates; rep++) {
    counts.fill(0);
    maskTally.fill(0);
    for (let i = 0; i < n; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const k = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
      counts[k]++;
      maskTally[mask[k]]++;
    }
    below.fill(0);
    for (let m = 1; m < maskTally.length; m++) {
      const c = maskTally[m];
      if (c !== 0) for (let bit = 0; bit < bits; bit++) if (m & (1 << bit)) below[bit] += c;
    }
    for (let j = 0; j < nq; j++)
      diffs[j * replicates + rep] = valueAt(order0, sorted0, counts, ranks[j], below[j]) - valueAt(order1, sorted1, counts, ranks[j], below[nq + j]);
  }
  return diffs;
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
