/**
 * The one way to open a transaction on the Benchwork database: it takes SQLite's write lock when it
 * begins (`BEGIN IMMEDIATE`), waiting up to the connection's busy timeout for it.
 *
 * Why: a deferred transaction (SQLite's and better-sqlite3's default) that reads before it writes
 * holds a read snapshot; when another connection (the bench worker, a second server, the CLI)
 * commits in between, SQLite cannot upgrade that snapshot and the write fails at once with
 * `SQLITE_BUSY_SNAPSHOT` — no busy timeout helps. Taking the lock up front makes every writer wait
 * its turn instead. `Db` has no `transaction` method of its own (see db/client.ts), so a deferred
 * transaction cannot be written by mistake; nested calls become savepoints of the outer transaction.
 */
import type Database from "better-sqlite3";
import type { Db, SqliteConnection } from "./client";

/**
 * What a transaction body gets: the store itself. On SQLite a transaction belongs to the connection,
 * so the store's query builders run inside it; using the same type as the async
 * `transaction(db, async (tx) => …)` (db/transaction.ts) lets a `…Tx(tx)` helper serve both while
 * db/queries moves to the async API (issue 20).
 */
export type Tx = Db;

/**
 * Runs `fn` in a transaction that holds the write lock from its first statement; commits when `fn`
 * returns, rolls back when it throws. `fn` must be synchronous (better-sqlite3). Inside an open
 * transaction it is a savepoint.
 * @returns what `fn` returns
 * @throws what `fn` throws (after the rollback); `SQLITE_BUSY` when another connection kept the
 *   write lock longer than the busy timeout (5 s, db/client.ts)
 */
export function writeTransaction<T>(db: Db, fn: (tx: Tx) => T): T {
  return immediateTransaction(db.$client, () => fn(db))();
}

/**
 * Wraps `fn` (raw better-sqlite3 statements) so that each call runs in a transaction that holds the
 * write lock from its first statement. Build the wrapper once and call it many times on hot paths:
 * better-sqlite3 prepares BEGIN/COMMIT per wrapper.
 * @returns a function with `fn`'s parameters and result; it throws what `fn` throws, after the rollback
 */
export function immediateTransaction<A extends unknown[], R>(client: SqliteConnection, fn: (...args: A) => R): (...args: A) => R {
  return (client as Database.Database).transaction(fn).immediate as (...args: A) => R;
}
