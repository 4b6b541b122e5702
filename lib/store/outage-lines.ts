/**
 * The web server's log lines about its store's outages: one when requests start failing to reach
 * it, again every `everyMs` while they still fail (not one per request), and one when a request
 * reaches it again, with how long it was unreachable.
 */
export class OutageLines {
  /** When the outage began (ms), or null while the store is reachable. */
  private since: number | null = null;
  private loggedAt = 0;

  /** @param everyMs the least time between two "cannot reach" lines, in ms */
  constructor(private readonly everyMs: number) {}

  /** A request could not reach the store at `now` (ms), for `reason`: the line to log, or null. */
  unreachable(reason: string, now: number): string | null {
    if (this.since !== null && now - this.loggedAt < this.everyMs) return null;
    this.since ??= now;
    this.loggedAt = now;
    return `benchwork: cannot reach the store: ${reason} (pages say so until it is back)`;
  }

  /** A request reached the store at `now` (ms): the line to log when an outage just ended, else null. */
  reachable(now: number): string | null {
    if (this.since === null) return null;
    const seconds = Math.round((now - this.since) / 1000);
    this.since = null;
    return `benchwork: the store is reachable again (unreachable for ${seconds} s)`;
  }
}
