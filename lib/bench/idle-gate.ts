/**
 * When an idle job worker may skip asking its store (issue 20, PostgreSQL): each poll costs a few
 * statements (the claim's look at the lanes, cancellations, benches to finalize), ~12 ms of CPU a
 * second per idle worker at a 250 ms poll. Once a look found no open bench anywhere and nothing runs
 * on this worker, it stays quiet — asks nothing — until `idleMs` have passed or {@link IdleGate.wake}
 * (a launch's notification). Only while `canSleep()` (the notifications are being heard): otherwise
 * every poll asks, as before.
 */
export class IdleGate {
  private quietSince: number | null = null;
  /** Whether the current poll asks the store (decided at {@link beginPoll}, set again by {@link wake}). */
  asking = true;

  /**
   * @param idleMs the longest a quiet worker goes without a look (it also expires dead workers' claims then)
   * @param canSleep whether a launch would wake it now
   */
  constructor(
    private readonly idleMs: number,
    private readonly canSleep: () => boolean,
  ) {}

  /** At each poll (time in ms): whether this poll asks is decided here. */
  beginPoll(now: number): void {
    this.asking = this.quietSince === null || now - this.quietSince >= this.idleMs || !this.canSleep();
  }

  /**
   * After a look at the queue: `idle` when it had no open bench and nothing runs here. An idle
   * look starts a quiet spell (a new one after each look that asked); any other ends it.
   */
  afterLook(idle: boolean, now: number): void {
    this.quietSince = idle && this.canSleep() ? now : null;
  }

  /** Work may have arrived: ask at once and at every poll until a look finds nothing again. */
  wake(): void {
    this.quietSince = null;
    this.asking = true;
  }
}
