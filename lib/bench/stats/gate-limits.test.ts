import { describe, expect, it } from "vitest";
import { gateLimitBlocks } from "./gate-limits";
import type { TradeoffDifference, Tradeoffs } from "./tradeoffs";

const diff = (candidate: number, baseline: number): TradeoffDifference => ({
  n: 10,
  candidate,
  baseline,
  delta: candidate - baseline,
  ci95: [0, 0],
  relative: baseline ? candidate / baseline - 1 : null,
});
const t = (p95: [number, number] | null, cost: [number, number] | null): Tradeoffs => ({
  latencyP50: null,
  latencyP95: p95 ? diff(...p95) : null,
  costPerCase: cost ? diff(...cost) : null,
  bootstrap: null,
});

describe("gate limits", () => {
  it("names each limit a candidate exceeds", () => {
    // 1340 / 1000 − 1 = +34 %; 0.0039 / 0.003 − 1 = +30 % exactly → within a +30 % limit.
    expect(gateLimitBlocks(t([1340, 1000], [0.0039, 0.003]), { maxLatencyIncreasePct: 20, maxCostIncreasePct: 30 })).toEqual([
      "p95 latency +34 % exceeds the +20 % limit",
    ]);
    expect(gateLimitBlocks(t([1100, 1000], [0.0045, 0.003]), { maxLatencyIncreasePct: 20, maxCostIncreasePct: 30 })).toEqual([
      "cost per case +50 % exceeds the +30 % limit",
    ]);
  });
  it("shows a decimal when the whole number would equal the limit", () => {
    expect(gateLimitBlocks(t([1203, 1000], null), { maxLatencyIncreasePct: 20 })).toEqual(["p95 latency +20.3 % exceeds the +20 % limit"]);
  });
  it("blocks nothing without limits, within them, or without a figure", () => {
    expect(gateLimitBlocks(t([2000, 1000], [1, 0.1]), undefined)).toEqual([]);
    expect(gateLimitBlocks(t([900, 1000], [0.001, 0.003]), { maxLatencyIncreasePct: 0, maxCostIncreasePct: 0 })).toEqual([]);
    expect(gateLimitBlocks(t(null, [0.001, 0]), { maxLatencyIncreasePct: 0, maxCostIncreasePct: 0 })).toEqual([]);
  });
});
