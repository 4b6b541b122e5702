/**
 * What a long-running process (a job worker) logs while its PostgreSQL store is unreachable: one
 * line when the outage starts, with the store and PostgreSQL's reason, and one when the store is
 * back; its retries in between are silent (before, a full stack every 250 ms: ~100 lines a second).
 * Any other error is logged whole, as before.
 */
import { unreachableReason } from "@/db/pg/client";

/** The reporter's two hooks (the job worker loop's `onError` and `onRecovered`). */
export interface StoreOutageLog {
  onError(e: unknown): void;
  onRecovered(): void;
}

/**
 * @param prefix the process's name in its lines, e.g. "benchwork job worker"
 * @param store the store's name without credentials (pgStoreName)
 * @param log where lines go (default console.error)
 */
export function storeOutageLog(prefix: string, store: string, log: (...line: unknown[]) => void = console.error): StoreOutageLog {
  let down = false;
  return {
    onError(e) {
      const reason = unreachableReason(e);
      if (reason === null) return log(`${prefix}:`, e);
      if (down) return;
      down = true;
      log(`${prefix}: the PostgreSQL store ${store} is unreachable (${reason}); retrying every few seconds`);
    },
    onRecovered() {
      if (!down) return;
      down = false;
      log(`${prefix}: the PostgreSQL store ${store} is reachable again`);
    },
  };
}
