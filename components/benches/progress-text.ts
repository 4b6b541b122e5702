/** The progress bar's clock in words (issue #16 §3's reruns, and benches mixing recorded and live candidates). */

/** `0.4s`, `45s`, `3m 5s`, `2h 4m` from ms (under a second with a decimal: a short rerun is not "0s"). */
export function duration(ms: number): string {
  if (ms > 0 && ms < 950) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

/**
 * The clock's line: elapsed time, and the time left while the bench runs — or that it is not known
 * yet (a candidate with trials left has finished none, so its rate is unknown): no figure is better
 * than one from the other candidates' rate, which for recorded answers is no time at all.
 * @param clock from `progressClock` (`finishing`: "finishing", not "about 0s left") (with `launchElapsedMs` on a rerun: "elapsed 1m 5s · rerun: elapsed 0.4s")
 * @param ended the bench has ended (finished, cancelled or failed)
 */
export function clockText(
  clock: { elapsedMs: number; leftMs: number | null; finishing?: boolean; rerun: boolean; launchElapsedMs?: number },
  ended: boolean,
): string {
  const left = clock.leftMs !== null ? ` · about ${duration(clock.leftMs)} left` : ended ? "" : clock.finishing ? " · finishing" : " · time left not known yet";
  // A rerun's clock beside the bench's own (its launch run), which the rerun did not change.
  const own = clock.rerun && clock.launchElapsedMs !== undefined ? `elapsed ${duration(clock.launchElapsedMs)} · ` : "";
  return `${own}${clock.rerun ? "rerun: " : ""}elapsed ${duration(clock.elapsedMs)}${left}`;
}

/**
 * How the progress bar tells a refused Cancel: a bench that ended meanwhile (`not_allowed`: "has
 * already finished; there is nothing to cancel") is a neutral notice, not an error — the user asked
 * for it to stop and it has (issue #16) — and the page is re-read to show the ended bench, as for a
 * bench removed meanwhile (`not_found`). Any other refusal (no right to cancel) is an error.
 * @param error the cancel action's error
 * @returns the toast's tone and whether to refresh the page
 */
export function cancelRefusal(error: { code: string; message: string }): { tone: "ok" | "error"; refresh: boolean } {
  if (error.code === "not_allowed") return { tone: "ok", refresh: true };
  return { tone: "error", refresh: error.code === "not_found" };
}
