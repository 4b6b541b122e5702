/**
 * `npm run worker` (through scripts/worker.mjs, bundled): a job worker as its own process. On
 * SQLite (BENCHWORK_DB) it claims from the SQLite trial job queue and runs trials on its trial
 * threads (server/worker.ts); several can run beside the server on the same file. On PostgreSQL
 * (`BENCHWORK_DATABASE_URL` set) it claims from the pg-boss queue (server/job-worker.ts), on any host
 * that reaches the database. Either queue holds every limit across the workers.
 * `BENCHWORK_WORKER_POLL_MS` sets how often it looks for new benches (default 250 ms);
 * `BENCHWORK_WORKER_SLOTS` how many trials it runs at once (default 256) and
 * `BENCHWORK_WORKER_LEASE_MS` how long its claims outlive it (default 60 s).
 */
import { databasePath, migrateDatabase, openDatabase } from "@/db/client";
import { pgStoreName, postgresUrl } from "@/db/pg/client";
import { closeStore, openPgStore } from "@/db/pg/store";
import { startBenchWorker } from "./worker";
import { trialThreadCount } from "./bench/trial-executors";
import { startJobWorker, workerLeaseMs, workerSlots } from "./job-worker";
import { stampConsole } from "@/lib/log/stamp-console";

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

/** The PostgreSQL URL, or null for SQLite; a malformed one is a setting error (RangeError). */
function storeUrl(): string | null {
  try {
    return postgresUrl(process.env);
  } catch (e) {
    throw new RangeError((e as Error).message);
  }
}

const pollMs = settingsOrExit(() => pollInterval(process.env.BENCHWORK_WORKER_POLL_MS));
const pgUrl = settingsOrExit(storeUrl);
/** Settings are read: from here on the worker runs for long, and each line says when it was written. */
const settingsRead = () => stampConsole();
const onBenchFinished = (id: number) => console.log(`bench #${id} finished`);
let stop: (graceMs: number) => Promise<void>;
if (pgUrl) {
  // The schema is migrated by `npm run db:migrate` (as for the server); the worker only connects.
  const slots = settingsOrExit(() => workerSlots(process.env));
  const leaseMs = settingsOrExit(() => workerLeaseMs(process.env));
  // A core is left to the loop's thread: on PostgreSQL it parses and sends every claim and store
  // (measured on 2 cores: 1 trial thread as fast as 2, at 200 MB instead of 290).
  const trialThreads = settingsOrExit(() => trialThreadCount(process.env, pgUrl, 1));
  settingsRead();
  const db = openPgStore(pgUrl, 8);
  const worker = await startJobWorker(db, { pollMs, slots, leaseMs, trialThreads, onBenchFinished }).catch((e: Error) => {
    console.error(`benchwork worker: cannot start on the PostgreSQL store ${pgStoreName(pgUrl)}: ${e.message}`);
    process.exit(1);
  });
  console.log(`benchwork worker ${process.pid} running on PostgreSQL ${pgStoreName(pgUrl)} (${slots} slots)`);
  stop = async (graceMs) => {
    await worker.stop(graceMs);
    await closeStore(db);
  };
} else {
  const trialThreads = settingsOrExit(() => trialThreadCount(process.env, databasePath()));
  const slots = settingsOrExit(() => workerSlots(process.env));
  const leaseMs = settingsOrExit(() => workerLeaseMs(process.env));
  settingsRead();
  const db = openDatabase();
  migrateDatabase(db);
  const worker = startBenchWorker(db, { pollMs, trialThreads, slots, leaseMs, onBenchFinished });
  // "running" once it claims: its trial threads have loaded (or it fell back to its own thread).
  await worker.ready;
  console.log(`benchwork worker ${process.pid} running on ${databasePath()}`);
  stop = (graceMs) => worker.stop(graceMs);
}
let stopping = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log("stopping: running trials finish, unrun ones go back to the queue…");
    // Never hang on shutdown: exit anyway a little after the grace period.
    setTimeout(() => process.exit(1), 15_000).unref();
    void stop(10_000).then(() => process.exit(0));
  });
}
