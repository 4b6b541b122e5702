/**
 * Retiring the lanes of ended benches on PostgreSQL (issue 20).
 *
 * Each lane (bench × provider) is a pg-boss queue, and pg-boss 10 makes each queue a partition of
 * its job table: a table and 6 indexes (7 with Benchwork's fetch index). Kept forever they pile up,
 * one or two per bench, and every statement pg-boss runs over the whole job table (its
 * maintenance's expiry and archive) opens and locks each of them: `bench/pg-lanes.ts` measured its
 * maintenance at 637 ms and 16,000 locks with 2,000 lanes, and failing with "out of shared memory"
 * at 4,000 (after which nothing is archived). Once a bench has ended its jobs are no longer needed
 * (`trials` holds every result), so its lanes are dropped.
 *
 * Without stopping the workers: a plain DROP of a partition holds an exclusive lock on the job table
 * (and on pg-boss's queue table) while it runs, and every claim and store of every worker waits
 * behind it. So each lane's table is first detached with `DETACH PARTITION … CONCURRENTLY`, which
 * takes only a lock claims and stores do not conflict with, and the detached table is then dropped
 * in one short transaction sent as a single round trip (a frozen client cannot hold its locks).
 * Each bench is held under its advisory lock (session-level: the detach runs outside a transaction)
 * and checked again under it, so a rerun's enqueue (which takes the same lock) never sees a lane
 * half retired. Needs PostgreSQL 14 or later (DETACH … CONCURRENTLY).
 */
import pg from "pg";
import { benchLockKey } from "./bench-lock";
import { runPgTransactionInOneTrip } from "./client";

const { escapeIdentifier, escapeLiteral } = pg;

/** What one {@link retireEndedLanes} did. */
export interface LaneRetirement {
  /** Lanes dropped. */
  retired: number;
  /** Whether lanes are left that this call did not reach (it retired a full batch): call again. */
  more: boolean;
  /**
   * Whether it left lanes because of a lock: another session held a bench (a rerun enqueueing it,
   * another worker retiring it) or a lock wait ran past the timeout. Try again later, not at once.
   */
  busy: boolean;
}

/** The longest a retirement waits for any lock (claims and stores never wait for it: see the header). */
const LOCK_TIMEOUT = "250ms";

/** The advisory lock serializing changes to pg-boss's queue list (making and dropping lanes). */
export const QUEUE_DDL_LOCK = "hashtextextended('benchwork:pgboss-queue-ddl', 0)";

/** A lane prepared this long ago without a `queue_lanes` row belongs to a launch that never committed. */
const ORPHAN_AFTER = "1 hour";

/** SQLSTATEs of a lock wait past `lock_timeout` and of a deadlock: try again later. */
const LOCK_CONFLICTS = new Set(["55P03", "40P01"]);

/**
 * The lanes to retire, as `(name, bench_id)` rows: those of ended benches (neither queued nor
 * running) with no trial claimed, and pg-boss queues of ours that no lane row names (a launch
 * refused or rolled back after its prepare, or a provider with no queued trial): no jobs were ever
 * enqueued in them. Such a queue of an ended bench goes at once (a rerun's launch still in flight
 * makes it again under the bench's lock); one whose bench is not stored yet (a launch in flight
 * reserved its id) once older than {@link ORPHAN_AFTER}.
 */
const RETIRABLE = `
  SELECT l.name, l.bench_id FROM queue_lanes l JOIN benches b ON b.id = l.bench_id
   WHERE b.status NOT IN ('queued', 'running') AND NOT EXISTS (SELECT 1 FROM trial_claims c WHERE c.bench_id = l.bench_id)
  UNION ALL
  SELECT q.name, split_part(q.name, '-', 3)::int FROM pgboss.queue q
   WHERE q.name LIKE 'bw-trials-%' AND NOT EXISTS (SELECT 1 FROM queue_lanes l WHERE l.name = q.name)
     AND (q.created_on < now() - interval '${ORPHAN_AFTER}'
          OR EXISTS (SELECT 1 FROM benches b WHERE b.id = split_part(q.name, '-', 3)::int AND b.status NOT IN ('queued', 'running')))`;

/**
 * Drops up to `max` lanes (pg-boss queues) of ended benches, bench by bench, on a connection of its
 * own (closed at the end, so its session locks and settings go with it): under the bench's lock,
 * each lane's table is detached concurrently (or its interrupted detach finished), then the tables,
 * pg-boss's queue rows and the lanes' rows are dropped in one transaction.
 * @param url the store's postgres:// URL
 * @param max lanes per call (whole, ≥ 1); each detach is a few tens of ms
 * @returns how many were dropped, whether more are left, whether a lock held some back ({@link LaneRetirement})
 * @throws PostgreSQL's errors other than a lock timeout or deadlock (unreachable store, no privilege)
 */
export async function retireEndedLanes(url: string, max = 20): Promise<LaneRetirement> {
  if (!Number.isInteger(max) || max < 1) throw new Error(`lane retirement: max must be a whole number ≥ 1 (got ${max})`);
  const client = new pg.Client({ connectionString: url, application_name: "benchwork-lane-retirement" });
  client.on("error", () => undefined); // a dropped connection fails the query in progress, which reports it
  await client.connect();
  let retired = 0;
  let busy = false;
  try {
    await client.query(`SET lock_timeout = '${LOCK_TIMEOUT}'`);
    const candidates = await client.query<{ name: string; benchId: number }>(
      `SELECT name, bench_id AS "benchId" FROM (${RETIRABLE}) r ORDER BY bench_id, name LIMIT $1`,
      [max + 1],
    );
    const batch = candidates.rows.slice(0, max);
    for (const benchId of new Set(batch.map((l) => l.benchId))) {
      const names = batch.filter((l) => l.benchId === benchId).map((l) => l.name);
      const outcome = await retireBenchLanes(client, benchId, names);
      if (outcome === "busy") busy = true;
      else retired += outcome;
    }
    return { retired, more: retired > 0 && candidates.rows.length > max, busy };
  } catch (e) {
    if (LOCK_CONFLICTS.has((e as { code?: string }).code ?? "")) return { retired, more: false, busy: true };
    throw e;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Retires `names` (lanes of bench `benchId`) on `client`, under the bench's session lock.
 * @returns the lanes dropped, or "busy" when another session holds the bench
 */
async function retireBenchLanes(client: pg.Client, benchId: number, names: string[]): Promise<number | "busy"> {
  const key = benchLockKey("$1");
  if (!(await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${key}) AS ok`, [benchId])).rows[0].ok) return "busy";
  try {
    // Again under the lock: a rerun may have reopened the bench, or claimed a lane, meanwhile.
    const still = await client.query<{ name: string }>(`SELECT name FROM (${RETIRABLE}) r WHERE bench_id = $1 AND name = ANY($2)`, [benchId, names]);
    const lanes = still.rows.map((r) => r.name);
    if (lanes.length === 0) return 0;
    const queues = await client.query<{ name: string; partition: string | null; attached: boolean; pending: boolean }>(
      `SELECT q.name, q.partition_name AS partition, i.inhrelid IS NOT NULL AS attached, coalesce(i.inhdetachpending, false) AS pending
         FROM pgboss.queue q
         LEFT JOIN pg_inherits i ON i.inhparent = 'pgboss.job'::regclass AND i.inhrelid = to_regclass('pgboss.' || quote_ident(q.partition_name))
        WHERE q.name = ANY($1)`,
      [lanes],
    );
    for (const q of queues.rows)
      if (q.attached && q.partition)
        // Outside a transaction (CONCURRENTLY cannot run in one); one interrupted before (a lock
        // timeout in its second step, a killed worker) is left "pending" and is finished instead.
        await client.query(`ALTER TABLE pgboss.job DETACH PARTITION pgboss.${escapeIdentifier(q.partition)} ${q.pending ? "FINALIZE" : "CONCURRENTLY"}`);
    const tables = queues.rows.filter((q) => q.partition).map((q) => `pgboss.${escapeIdentifier(q.partition!)}`);
    const list = (xs: string[]) => xs.map((x) => escapeLiteral(x)).join(", ");
    // One round trip (simple protocol, literals escaped): the locks on pg-boss's queue table that
    // dropping a table's foreign key takes are held only while PostgreSQL runs it. The tables go
    // first: pg-boss's delete_queue deletes the queue row before its table, which the table's
    // ON DELETE RESTRICT foreign key refuses while the table has jobs.
    const statements = [
      `SELECT pg_advisory_xact_lock(${QUEUE_DDL_LOCK})`,
      tables.length ? `DROP TABLE IF EXISTS ${tables.join(", ")}` : "",
      queues.rows.length ? `SELECT pgboss.delete_queue(n) FROM unnest(ARRAY[${list(queues.rows.map((q) => q.name))}]::text[]) AS n` : "",
      `DELETE FROM queue_lanes WHERE name IN (${list(lanes)})`,
    ];
    await runPgTransactionInOneTrip(client, statements.filter(Boolean));
    return lanes.length;
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${key})`, [benchId]).catch(() => undefined);
  }
}
