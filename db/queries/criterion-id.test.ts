/**
 * A criterion id from a URL (`/library/criteria?edit=99999999999`) that no row can have: getCriterion
 * answers "no such criterion" on both stores (PostgreSQL rejected the parameter: a 500 on the page).
 */
import { expect, it } from "vitest";
import { describeStores } from "../test-support/stores";
import { getCriterion } from "./criteria";

describeStores("getCriterion with an id no row can have", (store) => {
  it.each([Number.NaN, 1.5, 2 ** 31, 99_999_999_999])("returns null for %s", async (id) => {
    expect(await getCriterion(store.db(), id)).toBeNull();
  });
});
