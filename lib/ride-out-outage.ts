/**
 * Rides out a short outage of a store (issue 20, tester's report #2): calls `fn` again while it fails
 * with an outage error, waiting between tries (1 s, doubled, at most 5 s), until it succeeds or
 * `giveUpMs` have passed since the first failure. Says when the outage starts and when it ends. Pure:
 * the clock, the wait and the test of what counts as an outage are parameters.
 */

/** Longest wait between two tries while a store's calls fail (it is down), in ms. */
export const MAX_OUTAGE_BACKOFF_MS = 5_000;

/**
 * How long to wait after the `failures`-th failed try in a row: the first wait, doubled
 * at each further failure, at most {@link MAX_OUTAGE_BACKOFF_MS} (a store that is down is not asked
 * four times a second for hours).
 * @param failures consecutive failed tries (1 or more)
 * @param pollMs the first wait in ms (a job worker's poll interval, `bench run`'s 1 s)
 */
export function outageBackoffMs(failures: number, pollMs: number): number {
  return Math.max(pollMs, Math.min(MAX_OUTAGE_BACKOFF_MS, pollMs * 2 ** Math.min(30, Math.max(0, failures - 1))));
}

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
  let failures = 0;
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
      await o.sleep(outageBackoffMs(++failures, 1_000));
    }
  }
}
