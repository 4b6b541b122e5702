/**
 * `transaction(db, async (tx) => …)`: one transaction API for both stores (issue 20).
 *
 * - PostgreSQL: drizzle's transaction on one pooled client; a nested call is a savepoint.
 * - SQLite: `BEGIN IMMEDIATE` (the write lock up front, see db/write-transaction.ts for why) on the
 *   store's one connection. better-sqlite3 runs each statement synchronously, so a body that awaits
 *   only its own queries finishes within the current turn of the event loop: other requests cannot
 *   run a statement inside it. Two rules make that hold:
 *   1. transactions on one database file queue behind a mutex (a second one started while the first
 *      is open waits instead of nesting into it; on a second connection to the same file in this
 *      thread, instead of waiting synchronously for the write lock the first can only release once
 *      the thread is free: "database is locked" after the busy timeout);
 *   2. a body must not await I/O (a model call, a file, a timer). That would keep the write lock across
 *      event-loop turns and let other requests' statements join this transaction; the guard below
 *      notices the turn ending before the body settles, rolls back and throws.
 *   A nested call (on a `tx`) is a savepoint of the outer transaction.
 */
import { DrizzleQueryError } from "drizzle-orm/errors";
import path from "node:path";
import type { Db, SqliteConnection } from "./client";
import { isPostgres } from "./pg/store";

/** What a transaction body gets: the same query builders as {@link Db}, bound to the transaction. */
export type TxDb = Db;

const DEPTH = Symbol("benchwork.transactionDepth");
type Nested = Db & { [DEPTH]?: number };

/** The transaction last queued per database file (in-memory databases: per connection). */
const fileQueues = new Map<string, Promise<unknown>>();
const memoryQueues = new WeakMap<SqliteConnection, Promise<unknown>>();
const queueOf = (client: SqliteConnection) => {
  const file = client.memory ? null : path.resolve(client.name);
  return {
    get: () => (file === null ? memoryQueues.get(client) : fileQueues.get(file)),
    set: (p: Promise<unknown>) => (file === null ? memoryQueues.set(client, p) : fileQueues.set(file, p)),
    delete: () => (file === null ? memoryQueues.delete(client) : fileQueues.delete(file)),
  };
};

/** Thrown when a SQLite transaction body awaited I/O (rule 2 above); the transaction was rolled back. */
export class TransactionAwaitedIoError extends Error {
  constructor() {
    super(
      "A SQLite transaction body awaited I/O (the event loop turned before it settled): rolled back. " +
        "Do the I/O before or after the transaction; inside it await only its own queries.",
    );
    this.name = "TransactionAwaitedIoError";
  }
}

/**
 * Runs `fn` in one transaction: commits when it resolves, rolls back when it throws (or, on
 * SQLite, when it awaited I/O — {@link TransactionAwaitedIoError}).
 * @param db the store, or a `tx` from an outer call (then a savepoint)
 * @returns what `fn` resolves to
 * @throws what `fn` throws, after the rollback; SQLite `SQLITE_BUSY` when another process kept the
 *   write lock past the busy timeout (5 s)
 */
export async function transaction<T>(db: Db, fn: (tx: TxDb) => Promise<T>): Promise<T> {
  if (isPostgres(db)) {
    const pgDb = db as unknown as { transaction: (f: (tx: unknown) => Promise<T>) => Promise<T> };
    try {
      return await pgDb.transaction((tx) => fn(tx as TxDb));
    } catch (e) {
      // drizzle wraps PostgreSQL's error ("Failed query: <the SQL>"); rethrow the database's own, as
      // SQLite's path does, so callers and users see its message (a constraint, a trigger's RAISE).
      throw e instanceof DrizzleQueryError && e.cause instanceof Error ? e.cause : e;
    }
  }
  const depth = (db as Nested)[DEPTH] ?? 0;
  if (depth > 0) return savepoint(db, depth, fn);
  const queue = queueOf(db.$client);
  const before = queue.get() ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  queue.set(mine);
  try {
    await waitWithinTurn(before);
  } catch (e) {
    release();
    throw e;
  }
  try {
    return await sqliteTransaction(db, fn);
  } finally {
    if (queue.get() === mine) queue.delete();
    release();
  }
}

/**
 * Waits for the transaction ahead on this connection. It cannot legitimately outlast the current
 * turn of the event loop (rule 2), so a wait that does is a body calling `transaction(db, …)` with
 * the store instead of its `tx` (it would wait for itself forever): throw instead of hanging.
 */
async function waitWithinTurn(before: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Immediate | undefined;
  const turned = new Promise<never>((_, reject) => {
    timer = setImmediate(() =>
      reject(
        new Error(
          "transaction(db, …) was called while another transaction on the same SQLite connection stayed open: inside a transaction body, pass its tx (not the store) to nested queries and transactions.",
        ),
      ),
    );
  });
  try {
    await Promise.race([before.catch(() => undefined), turned]);
  } finally {
    clearImmediate(timer);
  }
}

function nestedHandle(db: Db, depth: number): TxDb {
  // The same connection and builders; the depth marks calls made inside the transaction.
  return Object.create(db, { [DEPTH]: { value: depth } }) as TxDb;
}

async function sqliteTransaction<T>(db: Db, fn: (tx: TxDb) => Promise<T>): Promise<T> {
  const client = db.$client;
  client.prepare("BEGIN IMMEDIATE").run();
  let turned = false;
  const guard = setImmediate(() => (turned = true));
  try {
    const result = await fn(nestedHandle(db, 1));
    if (turned) throw new TransactionAwaitedIoError();
    client.prepare("COMMIT").run();
    return result;
  } catch (e) {
    if (client.inTransaction) client.prepare("ROLLBACK").run();
    throw e;
  } finally {
    clearImmediate(guard);
  }
}

async function savepoint<T>(db: Db, depth: number, fn: (tx: TxDb) => Promise<T>): Promise<T> {
  const client = db.$client;
  const name = `sp${depth}`;
  client.prepare(`SAVEPOINT ${name}`).run();
  try {
    const result = await fn(nestedHandle(db, depth + 1));
    client.prepare(`RELEASE ${name}`).run();
    return result;
  } catch (e) {
    client.prepare(`ROLLBACK TO ${name}`).run();
    client.prepare(`RELEASE ${name}`).run();
    throw e;
  }
}
