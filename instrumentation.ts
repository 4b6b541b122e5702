/**
 * Next.js instrumentation: starts the in-server bench worker once, on the Node.js runtime, when
 * the server starts (not during `next build`). `BENCHWORK_WORKER=off` disables it (for example
 * when only separate `npm run worker` processes should run trials). On PostgreSQL it is a job
 * worker on the pg-boss queue (server/job-worker.ts); on SQLite the trial-queue worker.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build" || process.env.BENCHWORK_WORKER === "off") return;
  if (process.env.BENCHWORK_DATABASE_URL?.trim()) {
    const { startInServerJobWorker } = await import("./server/in-server-job-worker");
    await startInServerJobWorker();
    return;
  }
  const { startInServerWorker } = await import("./server/in-server-worker");
  startInServerWorker();
}
