import { errorsText } from "./progress-counts";
import { clockTime, stalledText, type StalledClaims } from "./stalled-claims";

/**
 * `benchwork bench run`'s progress line: "  12/40 trials · 4 done · 0 errors · 0 skipped", and when
 * a worker stopped responding, how many trials it holds and when they run again (local time). An
 * errored trial a rerun replaced is not an error left: "0 errors (2 rerun)", as on the page (issue #16).
 */
export function progressLine(
  p: { done: number; error: number; errorsRerun?: number; skipped: number; total: number; stalled?: StalledClaims | null },
  now: number,
  clock: (ms: number) => string = clockTime,
): string {
  const line = `  ${p.done + p.error + p.skipped}/${p.total} trials · ${p.done} done · ${errorsText(p)} · ${p.skipped} skipped`;
  return p.stalled ? `${line} · ${stalledText(p.stalled, now, clock)}` : line;
}
