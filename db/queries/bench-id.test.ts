/**
 * A bench id from a URL (`/benches/compare?a=x`, `/benches/99999999999`, `/api/v1/benches/…`) that
 * no row can have: getBench answers "no such bench" on both stores. PostgreSQL's integer ids are
 * 32-bit, and it rejects NaN or 2^31 as a parameter (a 500 on the page) where SQLite finds nothing.
 */
import { expect, it } from "vitest";
import { describeStores } from "../test-support/stores";
import { getBench, getBenchProgress } from "./benches";

describeStores("getBench with an id no row can have", (store) => {
  it.each([Number.NaN, 0, -1, 1.5, 2 ** 31, 99_999_999_999, Number.POSITIVE_INFINITY])("returns null for %s", async (id) => {
    expect(await getBench(store.db(), id)).toBeNull();
  });
});

describeStores("getBenchProgress with an id no row can have", (store) => {
  it.each([Number.NaN, 1.5, 2 ** 31, 99_999_999_999])("returns null for %s", async (id) => {
    expect(await getBenchProgress(store.db(), id)).toBeNull();
  });
});
