/**
 * pass@K and pass^K as the results page writes them, at one K for every candidate: the bench's
 * repeats (a column that mixed "pass@2" for a candidate with an errored trial beside the
 * baseline's "pass@3" compared different things).
 */
import type { CandidateRates } from "@/lib/bench/stats/candidate-rates";
import { formatPercent } from "./format";
import { counted } from "@/lib/bench/counted";

const plural = (k: number, one: string) => counted(k, one);

/**
 * "pass@3 95.0 % · pass^3 91.7 %", with "(over 19 cases; 1 case with 2 scored trials left out)" when
 * an errored trial left a case fewer than K scored trials, or "pass@3 — (a case has only 2 scored
 * trials)" for evidence stored before K was kept apart.
 * @param repeats the bench's trials per case; K = repeats, at most 10 (as computed)
 * @returns null without repeats or without pass@k (no repeated case)
 */
export function passAtText(rates: CandidateRates, repeats: number): string | null {
  const k = Math.min(repeats, 10);
  if (k < 2) return null;
  const at = rates.passAt?.[k];
  const hat = rates.passHat?.[k];
  if (at !== undefined && hat !== undefined) return `pass@${k} ${formatPercent(at)} · pass^${k} ${formatPercent(hat)}`;
  const r = rates.atRepeats;
  if (r && r.k === k) {
    const values =
      r.passAt === null || r.passHat === null ? `pass@${k} — · pass^${k} —` : `pass@${k} ${formatPercent(r.passAt)} · pass^${k} ${formatPercent(r.passHat)}`;
    return `${values} (over ${plural(r.cases, "case")}; ${plural(r.leftOut, "case")} with ${r.fewestTrials === r.k - 1 ? r.fewestTrials : `fewer than ${k}`} scored trial${r.fewestTrials === 1 ? "" : "s"} left out)`;
  }
  if (!rates.passAt) return null;
  const fewest = Math.max(...Object.keys(rates.passAt).map(Number));
  return `pass@${k} — (a case has only ${plural(fewest, "scored trial")})`;
}
