/**
 * The pg client under a drizzle transaction on the PostgreSQL store (issue 20): pg-boss inserts a
 * bench's jobs on it, so the trials and their jobs commit or roll back together.
 */
import type pg from "pg";
import type { TxDb } from "../transaction";
import { isPostgres } from "./store";

/**
 * The checked-out pg client a PostgreSQL transaction (`transaction(db, async (tx) => …)`) runs on.
 * drizzle keeps it as its session's `client`; a changed drizzle layout fails here loudly.
 * @throws when `tx` is not a PostgreSQL transaction handle
 */
export function pgClientOfTx(tx: TxDb): pg.ClientBase {
  if (!isPostgres(tx)) throw new Error("pgClientOfTx: not a PostgreSQL transaction");
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client as pg.ClientBase | undefined;
  // A pool (the store itself, not a transaction) has `connect` but no `release`: refuse it too.
  if (!client || typeof client.query !== "function" || typeof (client as pg.PoolClient).release !== "function")
    throw new Error("pgClientOfTx: expected a transaction's checked-out client (call it inside transaction(db, …) with its tx)");
  return client;
}
