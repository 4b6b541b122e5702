/**
 * The job worker of the Next.js server on a PostgreSQL store (issue 20): started once by
 * instrumentation (unless `BENCHWORK_WORKER=off`): its loop on the main thread (claims and stores,
 * mostly waiting on PostgreSQL), its trials on a trial thread (one core is left to the pages), stopped on shutdown. It registers where the launch actions' wake finds it
 * (server/in-server-worker.ts's `wakeInServerWorker`).
 */
import { getDb } from "@/db/client";
import { startJobWorker } from "./job-worker";

type Handle = { wake(): void; stop(): Promise<void> };
const g = globalThis as unknown as { benchworkWorker?: Handle };

/** Starts the in-server job worker unless this process already runs a worker; a failure to start is logged, not thrown. */
export async function startInServerJobWorker(): Promise<void> {
  if (g.benchworkWorker) return;
  try {
    const w = await startJobWorker(getDb());
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
