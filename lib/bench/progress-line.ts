import { errorsText, n, skippedText } from "./progress-counts";
import { clockTime, stalledText, type StalledClaims } from "./stalled-claims";

/**
 * `benchwork bench run`'s progress line: "  12/40 trials · 4 done · 0 errors · 0 skipped", and when
 * a worker stopped responding, how many trials it holds and when they run again (local time). An
 * errored trial a rerun replaced is not an error left: "0 errors (2 rerun)", and a cancelled rerun's
 * skipped trials are named: "104 skipped (6: rerun cancelled)", as on the page (issue #16). A bench no
 * worker picked up (a server's progress carries `noWorkerSince`, lib/bench/unclaimed.ts) says so, with
 * how long it has waited in whole seconds: a CI job's log tells why it waits.
 */
export function progressLine(
  p: {
    done: number;
    error: number;
    errorsRerun?: number;
    skipped: number;
    skippedRerunCancelled?: number;
    total: number;
    stalled?: StalledClaims | null;
    noWorkerSince?: number | null;
  },
  now: number,
  clock: (ms: number) => string = clockTime,
): string {
  const line = `  ${n(p.done + p.error + p.skipped)}/${n(p.total)} trials · ${n(p.done)} done · ${errorsText(p)} · ${skippedText(p)}`;
  const stalled = p.stalled ? `${line} · ${stalledText(p.stalled, now, clock)}` : line;
  if (p.noWorkerSince === null || p.noWorkerSince === undefined) return stalled;
  const waited = Math.max(0, Math.floor((now - p.noWorkerSince) / 1000));
  return `${stalled} · no worker has picked up this bench yet (waiting ${waited}s): is a worker running on the server?`;
}
