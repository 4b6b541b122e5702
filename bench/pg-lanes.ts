/**
 * pg-boss queues piling up (issue #20): each bench × provider is a pg-boss queue, which pg-boss 10
 * keeps as a partition of its job table. Runs `--benches` one-trial benches to their end, one after
 * another, on a fresh database of a throwaway cluster, twice: "kept" leaves every lane (as before
 * lane retirement) and "retired" retires ended benches' lanes after each bench, as a job worker does
 * (db/pg/lane-retirement.ts). Every `--step` benches it prints, side by side:
 *   lanes        pg-boss's queues (each a table and its indexes)
 *   maint ms     pg-boss's maintenance statements over the whole job table, as its supervisor sends
 *                them (expiry, then archive under its lock wrapper): median of 3, or the error
 *   locks        locks the archive's DELETE holds (it opens every partition and index)
 *   cycle ms     one more bench: launch (prepare + enqueue), claim, store (median of 3)
 * Run: `npx tsx bench/pg-lanes.ts [--benches 3000] [--step 1000]`. Starts its own cluster unless
 * BENCHWORK_TEST_DATABASE_URL names one.
 */
import { createRequire } from "node:module";
import pg from "pg";
import { withPgTransaction } from "../db/pg/client";
import { insertBench } from "../db/pg/test-support/bench-rows";
import { createTestDatabase, stopOwnCluster } from "../db/pg/test-support/database";
import { PgTrialJobQueue } from "../db/pg/trial-job-queue";

const args = process.argv.slice(2);
/** `--name` as a whole number ≥ 1 (else `def`); exits 2 naming the flag when it is not one. */
function whole(name: string, def: number): number {
  const i = args.indexOf(`--${name}`);
  const raw = i >= 0 ? args[i + 1] : String(def);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench/pg-lanes.ts: --${name}: expected a whole number ≥ 1, got "${raw}"`);
    process.exit(2);
  }
  return n;
}
const BENCHES = whole("benches", 3000);
const STEP = whole("step", 1000);

// pg-boss's own statements (its supervisor's, with its default intervals): no public API runs them once.
const plans = createRequire(import.meta.url)("pg-boss/src/plans.js") as {
  failJobsByTimeout(schema: string): string;
  archive(schema: string, completed: string, failed: string): string;
  locked(schema: string, sql: string): string;
};
const EXPIRE = plans.failJobsByTimeout("pgboss");
const ARCHIVE_DELETE = plans.archive("pgboss", "43200 seconds", "43200 seconds");
const ARCHIVE = plans.locked("pgboss", ARCHIVE_DELETE);

/** Thrown to roll the measuring transaction back, carrying what it measured. */
class RolledBack {
  constructor(readonly locks: number) {}
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Row {
  mode: string;
  benches: number;
  lanes: number;
  maintMs: string;
  locks: string;
  cycleMs: number;
}

async function run(mode: "kept" | "retired"): Promise<Row[]> {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const queue = new PgTrialJobQueue({ url: database.url, leaseMs: 60_000 });
  await queue.start();
  /** One bench from launch to its end; returns its launch + claim + store time in ms. */
  const oneBench = async (): Promise<number> => {
    const t = performance.now();
    const bench = await withPgTransaction(pool, async (client) => {
      const b = await insertBench(client, 1);
      const spec = { benchId: b.benchId, trials: b.trialIds.map((trialId) => ({ trialId, providerKey: "p" })) };
      await queue.prepare(spec);
      await queue.enqueue(client, { ...spec, concurrency: 1, providerLimits: { p: 100 } });
      return b;
    });
    for (const c of await queue.claim("w", 1, Date.now())) await queue.complete(c, { ...RESULT, startedAt: Date.now(), finishedAt: Date.now() });
    const ms = performance.now() - t;
    await pool.query("UPDATE benches SET status = 'finished' WHERE id = $1", [bench.benchId]);
    if (mode === "retired") while ((await queue.retireEndedLanes()).more);
    return ms;
  };
  const rows: Row[] = [];
  try {
    for (let done = 0; done < BENCHES;) {
      const next = Math.min(BENCHES, done + STEP);
      for (; done < next; done++) await oneBench();
      const cycle = median([await oneBench(), await oneBench(), await oneBench()]);
      done += 3;
      const maint: number[] = [];
      let maintMs = "";
      for (let k = 0; k < 3 && !maintMs; k++) {
        const t = performance.now();
        try {
          await pool.query(EXPIRE);
          await pool.query(ARCHIVE);
          maint.push(performance.now() - t);
        } catch (e) {
          maintMs = `failed (${(e as Error).message})`;
        }
      }
      maintMs ||= median(maint).toFixed(1);
      // The archive's DELETE in a transaction rolled back (nothing archived), counting its locks first.
      let locks: string;
      try {
        await withPgTransaction(pool, async (client) => {
          await client.query(ARCHIVE_DELETE);
          throw new RolledBack((await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE pid = pg_backend_pid()")).rows[0].n);
        });
        locks = "?";
      } catch (e) {
        locks = e instanceof RolledBack ? String(e.locks) : `failed (${(e as Error).message})`;
      }
      const lanes = (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.queue")).rows[0].n;
      const row = { mode, benches: done, lanes, maintMs, locks, cycleMs: cycle };
      console.error(
        `${mode} ${done} benches: ${lanes} lanes, maintenance ${maintMs}${maint.length === 3 ? " ms" : ""}, locks ${locks}, cycle ${cycle.toFixed(1)} ms`,
      );
      rows.push(row);
    }
  } finally {
    await queue.stop();
    await pool.end();
    await database.drop();
  }
  return rows;
}

const RESULT = {
  status: "done" as const,
  startedAt: 0,
  finishedAt: 0,
  latencyMs: 1,
  inputTokens: 1,
  outputTokens: 1,
  costUsd: 0,
  finishReason: "stop",
  output: "a",
  record: "{}",
  checks: [],
  error: null,
};

const kept = await run("kept");
const retired = await run("retired");
await stopOwnCluster();
console.log(`\n${BENCHES} one-trial benches run to their end, one after another; pg-boss 10, lanes kept vs retired as a job worker retires them`);
const cols = ["mode", "benches", "lanes", "maint ms", "locks", "cycle ms"];
console.log(cols.map((c) => c.padEnd(12)).join(" "));
for (let i = 0; i < kept.length; i++)
  for (const r of [kept[i], retired[i]])
    if (r) console.log([r.mode, r.benches, r.lanes, r.maintMs, r.locks, r.cycleMs.toFixed(1)].map((v) => String(v).padEnd(12)).join(" "));
