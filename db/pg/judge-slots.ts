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

/** SQL: the provider key of the judge of the `benches` row named `alias`, null without a judge. */
export function judgeKeySql(alias: string): string {
  return `CASE WHEN ${alias}.judge IS NULL OR json_typeof(${alias}.judge) <> 'object' THEN NULL
  ELSE (${alias}.judge->>'provider') || ' ' || coalesce(${alias}.judge->>'baseUrl', 'default') END`;
}

/**
 * SQL: the claims held against the provider `providerKeyExpr` (an SQL expression) as the judge of
 * their bench while their candidate is on another provider (those on the same provider are counted
 * as its claims already).
 */
export function judgeClaimsSql(providerKeyExpr: string): string {
  return `(SELECT count(*) FROM trial_claims jc JOIN benches jb ON jb.id = jc.bench_id
     WHERE jc.provider_key <> ${providerKeyExpr} AND jb.judge IS NOT NULL AND ${judgeKeySql("jb")} = ${providerKeyExpr})::int`;
}

const JUDGE_KEY_SQL = judgeKeySql("b");

/**
 * The provider key of bench `benchId`'s judge, as the claim counts it.
 * @returns null when the bench has no judge
 */
export async function benchJudgeKey(client: pg.ClientBase, benchId: number): Promise<string | null> {
  const { rows } = await client.query<{ key: string | null }>(`SELECT ${JUDGE_KEY_SQL} AS key FROM benches b WHERE b.id = $1`, [benchId]);
  return rows[0]?.key ?? null;
}

/**
 * The free slots of a judge's provider for a claim whose bench's judge is on another provider than
 * its lane (the claim reads its judge key and its own provider's judge claims in its state query,
 * so a claim without such a judge makes no extra round trip). The judge provider's lock is tried,
 * not waited for, like the claim's other locks: a claimer never waits, so no order can deadlock.
 * @returns its limit less its claims and the claims judged there; Infinity when it has no stored
 *   limit (a bench launched before judges were counted); false when another claimer holds its lock
 *   (skip the lane until the next claim)
 */
export async function tryJudgeProviderFree(client: pg.ClientBase, judgeKey: string): Promise<number | false> {
  const { rows } = await client.query<{ locked: boolean; free: number | null }>(
    `SELECT l.locked, CASE WHEN l.locked THEN
       (SELECT p.concurrency - (SELECT count(*) FROM trial_claims c WHERE c.provider_key = p.provider_key)::int - ${judgeClaimsSql("p.provider_key")}
        FROM queue_providers p WHERE p.provider_key = $1) END AS free
     FROM (SELECT pg_try_advisory_xact_lock(hashtextextended('benchwork:provider:' || $1::text, 0)) AS locked) l`,
    [judgeKey],
  );
  if (!rows[0].locked) return false;
  return rows[0].free ?? Infinity;
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
