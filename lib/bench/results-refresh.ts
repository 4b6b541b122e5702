/**
 * Paces the re-reads of a running bench's server-rendered results (candidates table, matrix)
 * from its progress polls: at most one per `minMs`, and only when the finished count differs from
 * what the page last rendered. The baseline is the page's own render, not the first poll: a bench
 * whose trials all finished between the render and the first poll was otherwise never re-read
 * until it was finalized (the table said "0/0/0 (60 pending)" under a bar of 60 done).
 */
export class ResultsRefresh {
  private shown: number;
  private refreshedAt: number;

  /**
   * @param rendered finished trials (done + error + skipped) in the page's render
   * @param now the render's time, in ms (the first re-read comes `minMs` after it at the soonest)
   * @param minMs the least time between two re-reads, in ms
   */
  constructor(
    rendered: number,
    now: number,
    private readonly minMs: number,
  ) {
    this.shown = rendered;
    this.refreshedAt = now;
  }

  /** Whether to re-read now, given a poll's finished count at `now` (ms); a `true` counts as done. */
  due(finished: number, now: number): boolean {
    if (finished === this.shown || now - this.refreshedAt < this.minMs) return false;
    this.shown = finished;
    this.refreshedAt = now;
    return true;
  }
}
