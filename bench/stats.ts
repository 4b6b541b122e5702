/** Small helpers the benchmark scripts share: percentiles and timing. */

import { percentile as nearestRank } from "../lib/bench/aggregate";

/** The p-th percentile (0–100) of `values` by nearest rank (the bench core's rule); NaN for none. */
export function percentile(values: number[], p: number): number {
  return nearestRank(values, p) ?? NaN;
}

/** Runs `fn` `n` times and returns each duration in ms. */
export async function timeMany(n: number, fn: (i: number) => unknown | Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

/** `p50 1.23 ms, p95 4.56 ms`. */
export function describeTimes(ms: number[]): string {
  return `p50 ${percentile(ms, 50).toFixed(2)} ms, p95 ${percentile(ms, 95).toFixed(2)} ms, max ${Math.max(...ms).toFixed(2)} ms`;
}

/** Peak resident set size of this process so far, in MB. */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}
