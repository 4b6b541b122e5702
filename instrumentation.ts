/**
 * Next.js instrumentation: starts the in-server bench worker once, on the Node.js runtime, when
 * the server starts (not during `next build`). `BENCHWORK_WORKER=off` disables it (for example
 * when only separate `npm run worker` processes should run trials).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build" || process.env.BENCHWORK_WORKER === "off") return;
  const { startInServerWorker } = await import("./server/in-server-worker");
  startInServerWorker();
}
