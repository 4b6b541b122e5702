/**
 * Wake-ups for idle job workers on PostgreSQL (issue 20): a launch's transaction sends a NOTIFY on
 * {@link TRIAL_JOBS_CHANNEL} (db/pg/trial-job-queue.ts `enqueue`), delivered when it commits to every
 * listening worker on any host, so an idle worker can poll rarely and still pick a launch up at once.
 * A notification only says "look now": the claim decides, and a lost one costs one idle poll.
 */
import pg from "pg";

/** The channel a launch notifies once its trials' jobs are stored. */
export const TRIAL_JOBS_CHANNEL = "benchwork_trial_jobs";

/** A connection listening on {@link TRIAL_JOBS_CHANNEL}. */
export interface TrialJobListener {
  /** Whether it is connected and listening now (a notification sent while it is not would be missed). */
  listening(): boolean;
  /** Stops listening and closes its connection. */
  close(): Promise<void>;
}

/**
 * Listens on its own connection (LISTEN needs a session; a pool's clients come and go) and calls
 * `onJobs` on each notification, and once each time it starts listening (anything enqueued while it
 * was not). A lost connection is retried every `retryMs` (default 1,000) until {@link TrialJobListener.close}.
 * @param url postgres:// URL of the Benchwork database
 */
export function listenForTrialJobs(url: string, onJobs: () => void, o: { retryMs?: number } = {}): TrialJobListener {
  const retryMs = o.retryMs ?? 1_000;
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const c = new pg.Client({ connectionString: url, application_name: "benchwork-listen" });
    client = c;
    const lost = () => {
      if (client !== c) return; // closed on purpose, or already replaced
      live = false;
      client = null;
      c.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void connect(), retryMs);
    };
    c.on("error", lost);
    c.on("end", lost);
    c.on("notification", (n) => {
      if (n.channel === TRIAL_JOBS_CHANNEL) onJobs();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${TRIAL_JOBS_CHANNEL}`);
      if (client !== c) return;
      live = true;
      onJobs();
    } catch {
      lost();
    }
  };
  void connect();
  return {
    listening: () => live,
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = null;
      live = false;
      await c?.end().catch(() => undefined);
    },
  };
}
