/** The Wilson score interval of a pass rate (Wilson 1927), the interval every pass rate is shown with. */
import { Z_975 } from "./distributions";

/** A pass rate with its 95 % Wilson interval; all fractions in [0, 1], null when nothing was scored. */
export interface RateInterval {
  passed: number;
  scored: number;
  rate: number | null;
  ci95: [number, number] | null;
}

/**
 * `passed` of `scored` with its Wilson 95 % interval (no continuity correction, as R's
 * `prop.test(correct = FALSE)` and scipy's `binomtest(...).proportion_ci("wilson")`).
 * @param passed whole number, 0 ≤ passed ≤ scored
 * @param scored whole number ≥ 0
 * @throws RangeError when the counts are not whole or `passed` is outside [0, scored]
 */
export function wilsonInterval(passed: number, scored: number): RateInterval {
  if (!Number.isInteger(passed) || !Number.isInteger(scored) || passed < 0 || passed > scored)
    throw new RangeError(`wilsonInterval: need whole 0 ≤ passed ≤ scored (got ${passed} of ${scored})`);
  if (scored === 0) return { passed, scored, rate: null, ci95: null };
  const p = passed / scored;
  const z2 = Z_975 * Z_975;
  const denom = 1 + z2 / scored;
  const centre = (p + z2 / (2 * scored)) / denom;
  const half = (Z_975 / denom) * Math.sqrt((p * (1 - p)) / scored + z2 / (4 * scored * scored));
  return { passed, scored, rate: p, ci95: [Math.max(0, centre - half), Math.min(1, centre + half)] };
}
