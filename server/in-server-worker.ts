/** The worker inside the Next.js server process: started once per process, stopped on shutdown. */
import { getDb } from "@/db/client";
import { startBenchWorker } from "./worker";

const g = globalThis as unknown as { benchworkWorker?: ReturnType<typeof startBenchWorker> };

/** Starts the in-server worker unless this process already runs one. */
export function startInServerWorker(): void {
  if (g.benchworkWorker) return;
  g.benchworkWorker = startBenchWorker(getDb());
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => {
      void g.benchworkWorker?.stop(3_000).finally(() => process.exit(0));
    });
  }
}

/** Wakes the worker (after a launch) so it claims at once instead of at its next poll. */
export function wakeInServerWorker(): void {
  g.benchworkWorker?.wake();
}
