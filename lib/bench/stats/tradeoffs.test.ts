/**
 * Trade-off statistics against values computed independently with numpy 2.4.6 / scipy 1.17.1 by
 * docs/stats-references/tradeoffs.py (its own mulberry32, numpy's resampling and
 * `np.percentile(method="inverted_cdf")`, i.e. nearest rank; scipy's `ttest_rel(...).confidence_interval`).
 */
import { describe, expect, it } from "vitest";
import { bootstrapPercentileDifferences, compareTradeoffs, meanDifferenceT, mulberry32, nearestRank } from "./tradeoffs";

const candLat = [820, 910, 1300, 760, 990, 1500, 870, 2100, 940, 1010, 880, 1230];
const baseLat = [700, 720, 900, 650, 800, 1100, 690, 1300, 760, 800, 710, 950];
const candCost = [0.0021, 0.0025, 0.0019, 0.003, 0.0022, 0.0027, 0.0024, 0.0031, 0.002, 0.0023, 0.0026, 0.0028];
const baseCost = [0.0015, 0.0016, 0.0014, 0.002, 0.0017, 0.0018, 0.0016, 0.0021, 0.0015, 0.0016, 0.0017, 0.0019];

describe("trade-off statistics", () => {
  it("mulberry32(1) gives the published sequence", () => {
    const r = mulberry32(1);
    // The reference script's Python port gives the same three numbers.
    expect([r(), r(), r()]).toEqual([0.6270739405881613, 0.002735721180215478, 0.5274470399599522]);
  });

  it("t interval of the mean cost difference matches scipy ttest_rel", () => {
    const t = meanDifferenceT(candCost.map((x, i) => x - baseCost[i]));
    expect(t.mean).toBeCloseTo(0.0007666666666666668, 15); // numpy mean of d
    expect(t.ci95[0]).toBeCloseTo(0.0006415329032481054, 12); // scipy ttest_rel CI low
    expect(t.ci95[1]).toBeCloseTo(0.0008918004300852282, 12); // scipy ttest_rel CI high
    expect(() => meanDifferenceT([1])).toThrow(RangeError);
  });

  it("nearest-rank percentiles match numpy inverted_cdf", () => {
    const s = [...candLat].sort((a, b) => a - b);
    expect(nearestRank(s, 0.5)).toBe(940); // np.percentile(cand, 50, method="inverted_cdf")
    expect(nearestRank(s, 0.95)).toBe(2100); // np.percentile(cand, 95, method="inverted_cdf")
  });

  it("seeded bootstrap intervals of the p50 and p95 differences match the reference resampling", () => {
    // 1,000 replicates, seed 20161: numpy over the same index draws gives (170, 330) and (280, 800).
    expect(bootstrapPercentileDifferences(candLat, baseLat, [0.5, 0.95], { replicates: 1000, seed: 20161 })).toEqual([
      [170, 330],
      [280, 800],
    ]);
    // Percentiles given out of order come back in the order asked.
    expect(bootstrapPercentileDifferences(candLat, baseLat, [0.95, 0.5], { replicates: 1000, seed: 20161 })).toEqual([
      [280, 800],
      [170, 330],
    ]);
  });

  it("compares a candidate with the baseline over the paired cases only", () => {
    const cand = new Map(candLat.map((l, i) => [i, { latencyMs: l, costUsd: candCost[i] }]));
    const base = new Map(baseLat.map((l, i) => [i, { latencyMs: l, costUsd: baseCost[i] }]));
    cand.set(99, { latencyMs: 99_999, costUsd: 9 }); // no baseline trial: left out
    const t = compareTradeoffs(cand, base, { seed: 20161, replicates: 1000 });
    expect(t.latencyP95).toEqual({ n: 12, candidate: 2100, baseline: 1300, delta: 800, ci95: [280, 800], relative: 2100 / 1300 - 1 });
    expect(t.latencyP50).toMatchObject({ delta: 180, ci95: [170, 330] });
    expect(t.costPerCase!.n).toBe(12);
    expect(t.costPerCase!.delta).toBeCloseTo(0.0007666666666666668, 15);
    expect(t.costPerCase!.relative).toBeCloseTo(0.4509803921568627, 12); // Σ candidate 0.0296 / Σ baseline 0.0204 − 1 (python)
    expect(t.bootstrap).toEqual({ replicates: 1000, seed: 20161 });
  });

  it("gives no figure with fewer than 2 paired cases, or without costs (recorded candidates)", () => {
    const one = compareTradeoffs(new Map([[1, { latencyMs: 5, costUsd: null }]]), new Map([[1, { latencyMs: 4, costUsd: null }]]));
    expect(one).toEqual({ costPerCase: null, latencyP50: null, latencyP95: null, bootstrap: null });
  });
});
