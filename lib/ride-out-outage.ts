/**
 * Rides out a short outage of a store (issue 20, tester's report #2): calls `fn` again while it fails
 * with an outage error, waiting between tries (1 s, doubled, at most 5 s), until it succeeds or
 * `giveUpMs` have passed since the first failure. Says when the outage starts and when it ends. Pure:
 * the clock, the wait and the test of what counts as an outage are parameters.
 */

/** How {@link rideOutOutage} retries and reports. */
export interface RideOutOptions {
  /** The outage's reason in words when `e` is one (the store unreachable), else null: rethrown at once. */
  outageReason(e: unknown): string | null;
  /** How long to keep trying after the first failure, in ms. */
  giveUpMs: number;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** The first failure of an outage, with its reason. */
  onLost(reason: string): void;
  /** The first success after an outage. */
  onBack(): void;
}

/** Thrown when the outage outlasted `giveUpMs`: `reason` is the last failure's. */
export class OutageTooLong extends Error {
  constructor(
    readonly reason: string,
    readonly afterMs: number,
    options?: { cause?: unknown },
  ) {
    super(`unreachable for ${Math.round(afterMs / 1000)} s: ${reason}`, options);
    this.name = "OutageTooLong";
  }
}

/**
 * @returns `fn`'s first successful result
 * @throws {OutageTooLong} when the outage lasts longer than `giveUpMs`; `fn`'s error when it is no outage
 */
export async function rideOutOutage<T>(fn: () => Promise<T>, o: RideOutOptions): Promise<T> {
  let since: number | null = null;
  let waitMs = 1_000;
  for (;;) {
    try {
      const result = await fn();
      if (since !== null) o.onBack();
      return result;
    } catch (e) {
      const reason = o.outageReason(e);
      if (reason === null) throw e;
      const t = o.now();
      if (since === null) {
        since = t;
        o.onLost(reason);
      } else if (t - since >= o.giveUpMs) throw new OutageTooLong(reason, t - since, { cause: e });
      await o.sleep(waitMs);
      waitMs = Math.min(5_000, waitMs * 2);
    }
  }
}
