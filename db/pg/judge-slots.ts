/**
 * A judge's calls under its provider's limit on PostgreSQL (issue 20), for the trial job queue's
 * claim (db/pg/trial-job-queue.ts).
 *
 * The queue holds each provider's limit by counting claims (`trial_claims`) under the provider's
 * advisory lock. A trial of a bench with a judge also calls the judge's provider, so at claim time
 * it counts one slot there too (unless the judge is on the candidate's own provider: then its one
 * slot covers both, as the candidate's call and the judge's never overlap). The job worker makes
 * a trial's model calls one at a time per provider (lib/bench/job-worker.ts), so one claim slot
 * bounds them. Why not a slot table with leases per call: it needs a table, a round trip per call
 * and waiting on the database; claims already have leases, heartbeats and expiry, so counting
 * there needs no new state. The cost: a judged trial holds its judge slot for its whole run.
 *
 * The judge's provider key is read from the bench's stored judge (`benches.judge`) with the same
 * rule as lib/bench/provider-key.ts (`<provider> <base URL or "default">`; a test checks both
 * agree), so the claim needs nothing stored beyond what a launch already writes.
 */
import type pg from "pg";

/** SQL: the provider key of a `benches` row's judge (alias `b`), null without a judge. */
const JUDGE_KEY_SQL = `CASE WHEN b.judge IS NULL OR json_typeof(b.judge) <> 'object' THEN NULL
  ELSE (b.judge->>'provider') || ' ' || coalesce(b.judge->>'baseUrl', 'default') END`;

/**
 * The provider key of bench `benchId`'s judge, as the claim counts it.
 * @returns null when the bench has no judge
 */
export async function benchJudgeKey(client: pg.ClientBase, benchId: number): Promise<string | null> {
  const { rows } = await client.query<{ key: string | null }>(`SELECT ${JUDGE_KEY_SQL} AS key FROM benches b WHERE b.id = $1`, [benchId]);
  return rows[0]?.key ?? null;
}

/**
 * Tries the advisory lock of the provider of a lane's bench's judge when it is not the lane's own
 * provider (whose lock the claim already holds). Tried, not waited for, like the claim's other
 * locks: a claimer never waits, so no lock order can deadlock.
 * @returns the judge's provider key when the claim must count it too, null when there is none to
 *   count, false when another claimer holds it (skip the lane until the next claim)
 */
export async function tryLockJudgeProvider(client: pg.ClientBase, lane: { benchId: number; providerKey: string }): Promise<string | null | false> {
  const judgeKey = await benchJudgeKey(client, lane.benchId);
  if (judgeKey === null || judgeKey === lane.providerKey) return null;
  const { rows } = await client.query<{ locked: boolean }>(
    "SELECT pg_try_advisory_xact_lock(hashtextextended('benchwork:provider:' || $1::text, 0)) AS locked",
    [judgeKey],
  );
  return rows[0].locked ? judgeKey : false;
}

/**
 * Claims held against `providerKey` as the judge of their bench while their candidate is on
 * another provider (those on the same provider are counted as its claims already).
 */
export async function judgeClaims(client: pg.ClientBase, providerKey: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM trial_claims c JOIN benches b ON b.id = c.bench_id
     WHERE c.provider_key <> $1 AND b.judge IS NOT NULL AND ${JUDGE_KEY_SQL} = $1`,
    [providerKey],
  );
  return rows[0].n;
}

/**
 * How many more trials a lane may claim once judge calls count: its provider's free slots (as the
 * claim counted them from its own claims) less the claims that use that provider as their judge,
 * and, when the bench's judge is on another provider, that provider's free slots. Call it under
 * the locks of {@link tryLockJudgeProvider}.
 * @param providerFree the lane's provider limit less its claims (the claim's own count)
 * @param judgeKey what {@link tryLockJudgeProvider} returned
 * @returns the bound (may be ≤ 0); a judge provider with no stored limit (a bench launched before
 *   judges were counted) does not bound
 */
export async function freeWithJudges(client: pg.ClientBase, lane: { providerKey: string }, providerFree: number, judgeKey: string | null): Promise<number> {
  let free = providerFree - (await judgeClaims(client, lane.providerKey));
  if (judgeKey !== null && free > 0) {
    const { rows } = await client.query<{ free: number }>(
      `SELECT p.concurrency - (SELECT count(*) FROM trial_claims c WHERE c.provider_key = p.provider_key)::int AS free
       FROM queue_providers p WHERE p.provider_key = $1`,
      [judgeKey],
    );
    if (rows[0]) free = Math.min(free, rows[0].free - (await judgeClaims(client, judgeKey)));
  }
  return free;
}

/**
 * Stores the limit of a bench's judge's provider (inside its launch transaction, next to the
 * candidates' limits the queue's `enqueue` stores), so the claim can count judge calls against it.
 * @returns the judge's provider key, or null when the bench has no judge
 */
export async function storeJudgeProviderLimit(client: pg.ClientBase, benchId: number, limit: number): Promise<string | null> {
  const key = await benchJudgeKey(client, benchId);
  if (key === null) return null;
  await client.query(
    `INSERT INTO queue_providers (provider_key, concurrency) VALUES ($1, $2)
     ON CONFLICT (provider_key) DO UPDATE SET concurrency = excluded.concurrency`,
    [key, limit],
  );
  return key;
}
