/**
 * `idParam` reads an id from an /api/v1 path: anything no row can have is a 404 before any query
 * (PostgreSQL's integer ids are 32-bit: an id beyond them reached the store and answered 500).
 */
import { expect, it } from "vitest";
import { ApiRefusal, idParam } from "./handler";

it("accepts a row id, up to 2^31 - 1", () => {
  expect(idParam("7", "Bench")).toBe(7);
  expect(idParam("2147483647", "Bench")).toBe(2_147_483_647);
});

it.each(["0", "-1", "1.5", "abc", "07", "2147483648", "99999999999"])("refuses %s with 404 not_found naming it", (raw) => {
  let refusal: unknown;
  try {
    idParam(raw, "Bench");
  } catch (e) {
    refusal = e;
  }
  expect(refusal).toBeInstanceOf(ApiRefusal);
  expect((refusal as ApiRefusal).status).toBe(404);
  expect((refusal as ApiRefusal).error).toEqual({ code: "not_found", message: `Bench #${raw} does not exist.` });
});
