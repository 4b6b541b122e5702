/**
 * `npm run worker` (through scripts/worker.mjs, bundled): a bench worker as its own process on the
 * same database (BENCHWORK_DB), with its trial threads. Several can run beside the server; the
 * queue guarantees a trial is run by one of them at a time. `BENCHWORK_WORKER_POLL_MS` sets how
 * often it looks for new benches (default 250 ms; the server's own worker is woken at launch).
 */
import { databasePath, migrateDatabase, openDatabase } from "@/db/client";
import { startBenchWorker, trialThreadCount } from "./worker";

/**
 * `BENCHWORK_WORKER_POLL_MS` in ms (unset or blank: the worker's default).
 * @throws {RangeError} naming the variable when it is not a whole number from 10 to 60,000
 */
function pollInterval(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 10 || n > 60_000)
    throw new RangeError(`BENCHWORK_WORKER_POLL_MS: expected a whole number of ms from 10 to 60000, got "${raw}"`);
  return n;
}

/** Bad settings end the process with one line naming the variable (exit 2) before anything starts. */
function settingsOrExit<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    console.error(`benchwork worker: ${e.message}`);
    process.exit(2);
  }
}

const pollMs = settingsOrExit(() => pollInterval(process.env.BENCHWORK_WORKER_POLL_MS));
const trialThreads = settingsOrExit(() => trialThreadCount(process.env, databasePath()));
const db = openDatabase();
migrateDatabase(db);
const worker = startBenchWorker(db, { pollMs, trialThreads, onBenchFinished: (id) => console.log(`bench #${id} finished`) });
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
