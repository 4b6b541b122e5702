/**
 * Axes of the evidence charts (pure): a linear scale from a domain to pixels and "nice" ticks, so
 * a forest plot of differences always shows the zero line and every interval whole.
 */

/** A linear map from `domain` to `range` (pixels); a zero-width domain maps to the range's middle. */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): (x: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  if (d1 === d0) return () => (r0 + r1) / 2;
  return (x) => r0 + ((x - d0) / (d1 - d0)) * (r1 - r0);
}

/** The tick step among 1, 2, 2.5, 5 × 10ⁿ that gives about `count` intervals over `span`. */
function niceStep(span: number, count: number): number {
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (raw <= m * mag + 1e-12) return m * mag;
  return 10 * mag;
}

/**
 * The domain and ticks of a difference axis: it covers every value given and 0, widened to whole
 * tick steps, within [−1, 1] (differences of pass rates).
 * @param values interval ends and points, fractions in [−1, 1]
 * @param count about how many tick intervals
 * @returns the domain and the ticks in it, ascending (0 among them)
 */
export function differenceAxis(values: readonly number[], count = 6): { domain: [number, number]; ticks: number[] } {
  let lo = Math.min(0, ...values.filter(Number.isFinite));
  let hi = Math.max(0, ...values.filter(Number.isFinite));
  if (hi - lo < 0.02) {
    lo -= 0.05;
    hi += 0.05;
  }
  const step = niceStep(hi - lo, count);
  lo = Math.max(-1, Math.floor(lo / step + 1e-9) * step);
  hi = Math.min(1, Math.ceil(hi / step - 1e-9) * step);
  const ticks: number[] = [];
  for (let t = lo; t <= hi + step / 1e6; t += step) ticks.push(Math.round(t / step) * step);
  return { domain: [lo, hi], ticks: ticks.map((t) => (Object.is(t, -0) ? 0 : t)) };
}
