/**
 * A job worker's lane retirement on PostgreSQL (db/pg/lane-retirement.ts), off its loop: after a
 * bench ends, and once when the worker starts (lanes earlier workers left: a worker stopped first,
 * a retirement given up for the job table's lock, lanes from before retirement existed), it drops
 * ended benches' lanes batch by batch in the background, so the loop's claims and stores never wait
 * for it. At most one pass runs at a time.
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

/**
 * @param retire drops one batch of ended benches' lanes (`PgTrialJobQueue.retireEndedLanes`)
 * @param log one line when a pass fails (e.g. the store is unreachable; the next bench's end or
 *   the next start tries again), default `console.error`
 */
export function laneRetirer(retire: () => Promise<LaneRetirement>, log: (line: string) => void = console.error): LaneRetirer {
  let isDue = true; // lanes left by earlier workers
  let stopped = false;
  let running: Promise<void> | null = null;
  async function pass(): Promise<void> {
    for (;;) {
      const r = await retire();
      // Given up for the job table's lock: the next kick (a poll later) tries again.
      if (r.busy) isDue = true;
      if (!r.more || r.busy) return;
      if (stopped) return void (isDue = true);
    }
  }
  return {
    due: () => void (isDue = true),
    kick() {
      if (!isDue || running || stopped) return;
      isDue = false;
      running = pass()
        .catch((e: Error) => log(`benchwork job worker: could not retire ended benches' queues (${e.message}); the next bench to end tries again`))
        .finally(() => (running = null));
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}
