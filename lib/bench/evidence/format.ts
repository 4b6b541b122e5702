/**
 * How the evidence of a comparison is written for people (page, CLI, pull-request comment): one
 * place, so the headline, the tables and the Markdown never disagree on rounding.
 * All inputs are fractions (0.15 = 15 %, a difference of 0.15 = +15.0 points).
 */
import type { RateInterval } from "@/lib/bench/stats/wilson";

const MINUS = "\u2212";

/**
 * A difference as signed points with one decimal: 0.325 → "+32.5", −0.05 → "−5.0" (U+2212), and
 * anything that rounds to zero → "0.0" (never "−0.0").
 */
export function formatPoints(delta: number): string {
  const s = (Math.abs(delta) * 100).toFixed(1);
  if (s === "0.0") return s;
  return `${delta < 0 ? MINUS : "+"}${s}`;
}

/** A 95 % interval of a difference: "95 % CI +25.3 to +39.7". */
export function formatCi(ci: readonly [number, number]): string {
  return `95 % CI ${formatPoints(ci[0])} to ${formatPoints(ci[1])}`;
}

/** A p-value: "p < 0.001", "p = 0.0012" below 0.01 (two significant digits), else "p = 0.039". */
export function formatPValue(p: number): string {
  if (p < 0.001) return "p < 0.001";
  if (p < 0.01) return `p = ${p.toPrecision(2)}`;
  return `p = ${p.toFixed(3)}`;
}

/**
 * The smallest detectable difference in whole points, rounded up: a bench that detects 6.5 points
 * is said to detect "≥ 7", never "≥ 6". The 1e-9 keeps 0.07 (7.000000000000001 points) at 7.
 */
export function minDetectablePoints(mde: number): number {
  return Math.ceil(mde * 100 - 1e-9);
}

/** A rate as a percentage with one decimal: 0.225 → "22.5 %". */
export function formatPercent(rate: number): string {
  return `${(rate * 100).toFixed(1)} %`;
}

/**
 * A pass rate with its Wilson interval: "22.5 % (95 % CI 17.3–28.8)", "—" when nothing was scored,
 * "0.0 % (no interval)" when the rate is known but its interval is not (repeats of a single case).
 */
export function formatRateInterval(r: RateInterval): string {
  if (r.rate === null) return "—";
  if (r.ci95 === null) return `${formatPercent(r.rate)} (no interval)`;
  return `${formatPercent(r.rate)} (95 % CI ${(r.ci95[0] * 100).toFixed(1)}–${(r.ci95[1] * 100).toFixed(1)})`;
}

/**
 * A text with every hyphen-minus that starts a number ("-0.1", "(-5", "-20%") written as U+2212,
 * so a page shows one minus sign; hyphens inside words and names ("gpt-4o", "case-12") stay. For
 * texts stored before they were written with U+2212 (a recommendation's trade-off lines).
 */
export function withMinusSigns(text: string): string {
  return text.replace(/(^|[\s(])-(?=\d)/g, `$1${MINUS}`);
}
