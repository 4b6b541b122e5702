/**
 * The job worker's poll selects (benches to cancel, to finalize, to enqueue) run several times a
 * second: built and compiled by drizzle on every call they cost ~0.3 ms each. On SQLite they are
 * prepared once per connection here; on PostgreSQL they run as built (its prepared statements are
 * named, per pooled client).
 */
import type { Db } from "../client";
import { isPostgres } from "../dialect";

/** A select of bench ids as drizzle builds it (a promise of rows, or a statement to prepare on SQLite). */
export type IdSelect = PromiseLike<{ id: number }[]> & { prepare(): { all(): unknown } };

const prepared = new WeakMap<object, Map<string, { all(): unknown }>>();

/**
 * The ids `build()` selects. On SQLite the statement is built and prepared on the first call per
 * connection and `key`, then reused: `build` must take no changing values (they would be fixed).
 * @param key names the statement (unique per query)
 */
export async function selectIds(db: Db, key: string, build: () => IdSelect): Promise<number[]> {
  if (isPostgres(db)) return (await build()).map((r) => r.id);
  let byKey = prepared.get(db.$client);
  if (!byKey) prepared.set(db.$client, (byKey = new Map()));
  let st = byKey.get(key);
  if (!st) byKey.set(key, (st = build().prepare()));
  return (st.all() as { id: number }[]).map((r) => r.id);
}
