/**
 * The job worker of the Next.js server on a PostgreSQL store (issue 20): started once by
 * instrumentation (unless `BENCHWORK_WORKER=off`): its loop on the main thread (claims and stores,
 * mostly waiting on PostgreSQL), its trials on trial threads (one per core less one, which stays with
 * the pages; none on one core), stopped on shutdown. It registers where the launch actions' wake finds it
 * (server/in-server-worker.ts's `wakeInServerWorker`).
 */
import { getDb, type Db } from "@/db/client";
import { pgStoreUrl } from "@/db/pg/store";
import { trialThreadCount } from "./bench/trial-executors";
import { startJobWorker } from "./job-worker";

type Handle = { wake(): void; stop(): Promise<void> };
const g = globalThis as unknown as { benchworkWorker?: Handle };

/**
 * The server's trial threads on PostgreSQL: `BENCHWORK_TRIAL_THREADS`, else one per core less one.
 * A bad setting must not stop the server's worker: one line says so and the default applies (as on
 * SQLite, server/worker-thread-main.ts).
 */
function inServerTrialThreads(db: Db): number {
  const url = pgStoreUrl(db) ?? "";
  try {
    return trialThreadCount(process.env, url, 1);
  } catch (e) {
    console.error(`benchwork: ${(e as Error).message}; using the default`);
    return trialThreadCount({ ...process.env, BENCHWORK_TRIAL_THREADS: "" }, url, 1);
  }
}

/** Starts the in-server job worker unless this process already runs a worker; a failure to start is logged, not thrown. */
export async function startInServerJobWorker(): Promise<void> {
  if (g.benchworkWorker) return;
  try {
    const db = getDb();
    const w = await startJobWorker(db, { trialThreads: inServerTrialThreads(db) });
    g.benchworkWorker = { wake: w.wake, stop: () => w.stop(3_000) };
  } catch (e) {
    console.error(`benchwork: the bench job worker could not start on PostgreSQL (${(e as Error).message}); benches wait for \`npm run worker\``);
    return;
  }
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => {
      void g.benchworkWorker?.stop().finally(() => process.exit(0));
    });
  }
}
