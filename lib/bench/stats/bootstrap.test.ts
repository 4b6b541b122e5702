/**
 * The bootstrap of the latency trade-offs (tradeoffs.ts) against a plain implementation of its
 * definition: per replicate, draw n indexes with `mulberry32` (index = ⌊rand · n⌋), build both
 * resamples, sort them, take the nearest-rank percentiles and their difference; the interval is
 * the nearest-rank 2.5 % and 97.5 % of the replicate differences. The fast version counts draws
 * and walks them from a pivot near each percentile's rank (issue #16, speed): it must give exactly the
 * same numbers, for small and large n, ties, any order and any number of percentiles.
 */
import { describe, expect, it } from "vitest";
import { bootstrapPercentileDifferences, mulberry32, nearestRank } from "./tradeoffs";

function plainBootstrap(a: number[], b: number[], qs: number[], replicates: number, seed: number): [number, number][] {
  const n = a.length;
  const rand = mulberry32(seed);
  const diffs = qs.map(() => [] as number[]);
  for (let r = 0; r < replicates; r++) {
    const ra: number[] = [];
    const rb: number[] = [];
    for (let i = 0; i < n; i++) {
      const k = Math.floor(rand() * n);
      ra.push(a[k]);
      rb.push(b[k]);
    }
    ra.sort((x, y) => x - y);
    rb.sort((x, y) => x - y);
    qs.forEach((q, i) => diffs[i].push(nearestRank(ra, q) - nearestRank(rb, q)));
  }
  return diffs.map((d) => {
    d.sort((x, y) => x - y);
    return [nearestRank(d, 0.025), nearestRank(d, 0.975)];
  });
}

describe("bootstrapPercentileDifferences", () => {
  it("equals the plain resample-and-sort definition for sizes 1 to 500, with ties, for any percentiles in any order", () => {
    const rand = mulberry32(99);
    for (const n of [1, 2, 3, 4, 7, 20, 101, 500])
      for (const qs of [[0.5, 0.95], [0.95, 0.5], [0.01, 0.5, 0.99, 1], [0.025], [0.5, 0.5], [0.1, 0.25, 0.5, 0.75, 0.9, 0.95]]) {
        // Latencies rounded to tens of ms: many ties.
        const a = Array.from({ length: n }, () => Math.round(rand() * 100) * 10);
        const b = Array.from({ length: n }, () => Math.round(rand() * 100) * 10);
        expect(bootstrapPercentileDifferences(a, b, qs, { replicates: 150, seed: n })).toEqual(plainBootstrap(a, b, qs, 150, n));
      }
  });

  it("equals it on a bench-sized sample of mean latencies (2,000 cases, means of 5 repeats)", () => {
    const rand = mulberry32(7);
    const mean5 = (scale: number) => Array.from({ length: 5 }, () => Math.round(scale * (0.6 + rand() * 0.8))).reduce((s, x) => s + x, 0) / 5;
    const a = Array.from({ length: 2000 }, () => mean5(900));
    const b = Array.from({ length: 2000 }, () => mean5(800));
    expect(bootstrapPercentileDifferences(a, b, [0.5, 0.95], { replicates: 100, seed: 20161 })).toEqual(plainBootstrap(a, b, [0.5, 0.95], 100, 20161));
  });
});
