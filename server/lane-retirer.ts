/**
 * A job worker's lane retirement on PostgreSQL (db/pg/lane-retirement.ts): after a bench ends, and
 * once when the worker starts (lanes earlier workers left: a worker stopped first, a retirement a
 * lock held back, lanes from before retirement existed), it drops ended benches' lanes batch by
 * batch in the background, off the loop (a retirement takes no lock the loop's claims and stores
 * wait for). At most one pass runs at a time.
 */
import type { LaneRetirement } from "@/db/pg/lane-retirement";

/** A worker's lane retirer. */
export interface LaneRetirer {
  /** A bench ended (or the worker started): a pass is due at the next {@link kick}. */
  due(): void;
  /** Starts a pass when one is due and none is running (returns at once). */
  kick(): void;
  /** Lets a running pass end after its current batch; resolves when it has. */
  stop(): Promise<void>;
}

/** Waits after passes a lock held back, in ms: the first, the second, … then the last again. */
export const BUSY_BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];

/**
 * @param retire drops one batch of ended benches' lanes (`PgTrialJobQueue.retireEndedLanes`)
 * @param log one line when passes start failing (e.g. the store is unreachable) and one when a pass
 *   works again, default `console.error`
 * @param now the clock (ms) the back-off reads
 */
export function laneRetirer(retire: () => Promise<LaneRetirement>, log: (line: string) => void = console.error, now: () => number = Date.now): LaneRetirer {
  let isDue = true; // lanes left by earlier workers
  let stopped = false;
  let running: Promise<void> | null = null;
  // After a pass a lock held back (another worker retiring the same bench, a rerun enqueueing it,
  // a lock wait past its timeout) or that failed (an outage): no pass before `notBefore`,
  // BUSY_BACKOFF_MS doubling up to its last. A failed pass stays due: waiting for the next bench's
  // end could mean days on a quiet team, with every ended lane kept meanwhile.
  let backoff = 0;
  let notBefore = 0;
  let failing = false;
  const later = () => {
    isDue = true;
    notBefore = now() + BUSY_BACKOFF_MS[Math.min(backoff++, BUSY_BACKOFF_MS.length - 1)];
  };
  async function pass(): Promise<void> {
    let retired = 0;
    try {
      for (;;) {
        const r = await retire();
        retired += r.retired;
        if (r.busy) return later();
        backoff = 0;
        if (!r.more) return;
        if (stopped) return void (isDue = true);
      }
    } catch (e) {
      if (!failing) log(`benchwork job worker: could not retire ended benches' queues (${(e as Error).message}); trying again in the background`);
      failing = true;
      return later();
    } finally {
      if (failing && backoff === 0) {
        failing = false;
        log(`benchwork job worker: retiring ended benches' queues works again (${retired} retired)`);
      }
    }
  }
  return {
    due: () => void (isDue = true),
    kick() {
      if (!isDue || running || stopped || now() < notBefore) return;
      isDue = false;
      running = pass().finally(() => (running = null));
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}
