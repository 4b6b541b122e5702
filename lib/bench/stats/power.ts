/**
 * The smallest difference a bench could detect: the true pass-rate difference (a fraction) that a
 * two-sided test at α = 0.05 would find with 80 % power, given the bench's number of paired cases
 * and the disagreement it observed. Used to say "this bench can detect ≥ 7 points" when a
 * comparison is inconclusive.
 */
import { tQuantile, Z_80, Z_975 } from "./distributions";

/**
 * Discordant pairs the exact McNemar test needs before any split can reach p < 0.05: 6 of 6 in
 * one direction gives p = 2·½⁶ = 0.031, 5 of 5 gives 0.0625. So no bench detects fewer than 6
 * net cases, whatever its disagreement rate (and a bench that saw no disagreement still has a floor).
 */
export const MIN_DISCORDANT = 6;

/**
 * One trial per case (exact McNemar): solves Connor's sample-size equation for paired proportions
 * (Connor 1987, Biometrics 43:207–211) for the difference δ,
 *   √n·δ = z₀.₉₇₅·√ψ + z₀.₈₀·√(ψ − δ²),  ψ = (b + c)/n the observed discordance rate,
 * closed form (the root with √n·δ ≥ z₀.₉₇₅·√ψ), and never below {@link MIN_DISCORDANT}/n.
 * @param n paired cases (whole, ≥ 1)
 * @param discordant b + c, cases where the two candidates disagree
 * @returns a fraction in (0, 1]; null when n = 0
 */
export function mcnemarMinDetectableEffect(n: number, discordant: number): number | null {
  if (n <= 0) return null;
  const psi = discordant / n;
  const s = Math.sqrt(n);
  const a = Z_975 * Math.sqrt(psi);
  const zb2 = Z_80 * Z_80;
  const disc = s * s * a * a - (s * s + zb2) * (a * a - zb2 * psi);
  const delta = disc >= 0 ? (s * a + Math.sqrt(disc)) / (s * s + zb2) : 1;
  return Math.min(1, Math.max(delta, MIN_DISCORDANT / n));
}

/**
 * Several trials per case (paired t on per-case pass-rate differences dᵢ): the usual
 * approximation δ = (t₀.₉₇₅,ₙ₋₁ + t₀.₈₀,ₙ₋₁)·sd(d)/√n, never below {@link MIN_DISCORDANT} cases
 * differing by the smallest step a case rate can move (1/`trialsPerCase`), over n.
 * @param n paired cases (whole)
 * @param sd sample standard deviation of the dᵢ (n − 1 denominator)
 * @param trialsPerCase the largest number of scored trials of a case on either side (≥ 1)
 * @returns a fraction in (0, 1]; null when n < 2 (no spread to estimate)
 */
export function pairedTMinDetectableEffect(n: number, sd: number, trialsPerCase: number): number | null {
  if (n < 2) return null;
  const df = n - 1;
  const delta = ((tQuantile(0.975, df) + tQuantile(0.8, df)) * sd) / Math.sqrt(n);
  return Math.min(1, Math.max(delta, MIN_DISCORDANT / (Math.max(1, trialsPerCase) * n)));
}
