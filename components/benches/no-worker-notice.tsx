import { duration } from "./progress-text";

/**
 * The progress bar's notice for a bench no worker picked up (issue 20; when: lib/bench/unclaimed.ts,
 * the progress poll's `noWorkerSince`): how long it has waited and how to start a worker.
 * @param since when the bench began to wait (ms since the epoch)
 * @param now the reader's current time (ms)
 */
export function NoWorkerNotice({ since, now }: { since: number; now: number }) {
  return (
    <p
      role="status"
      data-testid="progress-no-worker"
      className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      suppressHydrationWarning
    >
      No worker has picked up this bench yet (waiting {duration(Math.max(0, now - since))}). Is a worker running? Start one with <code>npm run worker</code>{" "}
      (README: PostgreSQL), or run the server without <code>BENCHWORK_WORKER=off</code>.
    </p>
  );
}
