/**
 * Next.js instrumentation: starts the in-server bench worker once, on the Node.js runtime, when
 * the server starts (not during `next build`). `BENCHWORK_WORKER=off` disables it (for example
 * when only separate `npm run worker` processes should run trials).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build" || process.env.BENCHWORK_WORKER === "off") return;
  if (process.env.BENCHWORK_DATABASE_URL?.trim()) {
    // The in-server worker runs SQLite's trial queue; PostgreSQL's (pg-boss) is wired in issue 20 step B.
    console.warn("benchwork: on PostgreSQL this server runs no bench worker yet (issue #20); launching a bench is refused until it does");
    return;
  }
  const { startInServerWorker } = await import("./server/in-server-worker");
  startInServerWorker();
}
