/**
 * `npm run worker` (through scripts/worker.mjs, bundled): a bench worker as its own process on the
 * same database (BENCHWORK_DB), with its trial threads. Several can run beside the server; the
 * queue guarantees a trial is run by one of them at a time. `BENCHWORK_WORKER_POLL_MS` sets how
 * often it looks for new benches (default 250 ms; the server's own worker is woken at launch).
 */
import { databasePath, migrateDatabase, openDatabase } from "@/db/client";
import { startBenchWorker } from "./worker";

const db = openDatabase();
migrateDatabase(db);
const pollMs = Number(process.env.BENCHWORK_WORKER_POLL_MS) || undefined;
const worker = startBenchWorker(db, { pollMs, onBenchFinished: (id) => console.log(`bench #${id} finished`) });
console.log(`benchwork worker ${process.pid} running on ${databasePath()}`);
let stopping = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log("stopping: running trials finish, unrun ones go back to the queue…");
    // Never hang on shutdown: exit anyway a little after the grace period.
    setTimeout(() => process.exit(1), 15_000).unref();
    void worker.stop(10_000).then(() => process.exit(0));
  });
}
