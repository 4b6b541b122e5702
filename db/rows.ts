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

/** Largest id an `integer` primary key holds on PostgreSQL (32-bit); SQLite's are wider, never that many. */
export const MAX_ROW_ID = 2_147_483_647;

/**
 * True when `id` could be a row's id: an integer from 1 to {@link MAX_ROW_ID}. Reads that take an id
 * from a URL check it first: PostgreSQL rejects NaN, fractions and ids beyond 32 bits as parameters
 * (an error, a 500 on the page) where SQLite just finds no row.
 */
export function isRowId(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= MAX_ROW_ID;
}
