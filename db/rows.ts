/**
 * Small helpers for queries written once for both stores (issue 20): SQLite's synchronous `.get()`,
 * `.all()` and `.run()` do not exist on PostgreSQL, so queries `await` the builder instead.
 */

/**
 * The first row of a query, or undefined (SQLite's `.get()`). Add `.limit(1)` to the query when it
 * can match more than one row: this helper does not.
 * @param rows an awaitable query (a drizzle select, or an insert/update/delete with `.returning()`)
 */
export async function first<T>(rows: PromiseLike<T[]>): Promise<T | undefined> {
  return (await rows)[0];
}
