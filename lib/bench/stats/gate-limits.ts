/**
 * Optional gate limits on trade-offs (issue #16 §4), pure: a candidate whose p95 latency or cost per
 * case rises over the baseline by more than the bench's limit is not recommended, with a named reason.
 */

/** The limits a bench was launched with, in percent over the baseline (absent = no limit). */
export interface GateLimits {
  maxLatencyIncreasePct?: number;
  maxCostIncreasePct?: number;
}
