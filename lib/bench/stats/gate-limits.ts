/**
 * Optional gate limits on trade-offs (issue #16 §4), pure: a candidate whose p95 latency or cost per
 * case rises over the baseline's by more than the bench's limit is not recommended, with a named
 * reason. The rule reads the point estimates (the figures shown beside their intervals).
 */
import type { Tradeoffs } from "./tradeoffs";

/** The limits a bench was launched with, in percent over the baseline (absent = no limit). */
export interface GateLimits {
  maxLatencyIncreasePct?: number;
  maxCostIncreasePct?: number;
}

/** A ratio like 0.0039 / 0.003 − 1 lands a hair over 30 %: within a billionth of a point counts as at the limit. */
const EPS = 1e-9;

/** An increase in percent as the reason shows it: whole points, one decimal when rounding would hide the excess (+20.3 % over +20 %). */
function pctText(pct: number, limit: number): string {
  const whole = Math.round(pct);
  return `+${whole <= limit ? pct.toFixed(1) : whole} %`;
}

/**
 * The reasons a candidate's trade-offs block it: one per limit it exceeds, e.g.
 * "p95 latency +34 % exceeds the +20 % limit". A figure that could not be computed (no paired
 * cases, no prices, a baseline at 0) blocks nothing.
 * @returns [] when within every limit
 */
export function gateLimitBlocks(t: Tradeoffs | null | undefined, limits: GateLimits | null | undefined): string[] {
  if (!t || !limits) return [];
  const out: string[] = [];
  const lat = t.latencyP95?.relative;
  if (limits.maxLatencyIncreasePct != null && lat != null && lat * 100 > limits.maxLatencyIncreasePct + EPS)
    out.push(`p95 latency ${pctText(lat * 100, limits.maxLatencyIncreasePct)} exceeds the +${limits.maxLatencyIncreasePct} % limit`);
  const cost = t.costPerCase?.relative;
  if (limits.maxCostIncreasePct != null && cost != null && cost * 100 > limits.maxCostIncreasePct + EPS)
    out.push(`cost per case ${pctText(cost * 100, limits.maxCostIncreasePct)} exceeds the +${limits.maxCostIncreasePct} % limit`);
  return out;
}
