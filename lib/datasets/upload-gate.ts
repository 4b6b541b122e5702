/**
 * Admission of uploads (issue "Seal the server and the sandboxes", item 9): at most `maxInFlight`
 * uploads are read and parsed at once, and at most `perMinute` are admitted in any 60 s. Both
 * limits are global — for all clients together — because the server cannot tell clients apart
 * reliably (no sign-in on a laptop; `X-Forwarded-For` is whatever the client sends) and the limits
 * protect the one machine's CPU and memory. An upload over a limit is refused at once (never
 * queued), with a status, a Retry-After and a message for the person uploading.
 *
 * Pure: the clock is a parameter. The window is a sliding log of admission times (at most
 * `perMinute` numbers), so a burst at the end of one minute cannot double up with the next.
 */

/** The limits of a gate. */
export interface UploadGateLimits {
  /** Uploads read and parsed at the same time. */
  maxInFlight: number;
  /** Uploads admitted in any 60 s (refused ones do not count). */
  perMinute: number;
}

/** Length of the rate window, in ms. */
export const RATE_WINDOW_MS = 60_000;

/** Retry-After sent when every slot is taken, in seconds (a parse takes a few; at most 20). */
export const BUSY_RETRY_AFTER_S = 5;

/** The answer of {@link UploadGate.tryEnter}. `release` ends the upload's slot (idempotent). */
export type Admission =
  { ok: true; release: () => void } | { ok: false; reason: "busy" | "rate"; status: 503 | 429; retryAfterSeconds: number; message: string };

/** Counts uploads in flight and admitted per minute; see the module comment. */
export class UploadGate {
  private running = 0;
  /** Admission times (ms) within the last window, oldest first. */
  private readonly admitted: number[] = [];

  /**
   * @param limits in-flight and per-minute limits (positive whole numbers)
   * @param now the clock, in ms
   * @throws RangeError when a limit is not a positive whole number
   */
  constructor(
    private readonly limits: UploadGateLimits,
    private readonly now: () => number,
  ) {
    for (const key of ["maxInFlight", "perMinute"] as const) {
      const v = limits[key];
      if (!Number.isSafeInteger(v) || v <= 0) throw new RangeError(`${key} must be a positive whole number, got ${v}`);
    }
  }

  /** Uploads holding a slot now. */
  get inFlight(): number {
    return this.running;
  }

  /**
   * Admits one upload when both limits allow it; the caller must `release()` when done.
   * @returns the admission, or the refusal: `rate` (429) when `perMinute` uploads were admitted in
   *   the last 60 s — Retry-After is when the oldest of them leaves the window —, else `busy` (503)
   *   when `maxInFlight` uploads are running — Retry-After {@link BUSY_RETRY_AFTER_S}
   */
  tryEnter(): Admission {
    const t = this.now();
    while (this.admitted.length > 0 && this.admitted[0] <= t - RATE_WINDOW_MS) this.admitted.shift();
    const { maxInFlight, perMinute } = this.limits;
    if (this.admitted.length >= perMinute) {
      const wait = Math.max(1, Math.ceil((this.admitted[0] + RATE_WINDOW_MS - t) / 1000));
      return {
        ok: false,
        reason: "rate",
        status: 429,
        retryAfterSeconds: wait,
        message: `The server takes at most ${perMinute} uploads a minute (from everyone together), and ${this.admitted.length} arrived in the last minute. Nothing was stored; upload the file again in ${wait} s.`,
      };
    }
    if (this.running >= maxInFlight) {
      return {
        ok: false,
        reason: "busy",
        status: 503,
        retryAfterSeconds: BUSY_RETRY_AFTER_S,
        message: `The server is already reading ${this.running} upload${this.running === 1 ? "" : "s"} (at most ${maxInFlight} at once). Nothing was stored; upload the file again in a few seconds.`,
      };
    }
    this.running++;
    this.admitted.push(t);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.running--;
      },
    };
  }
}
