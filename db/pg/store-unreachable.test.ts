/**
 * lib/store/unreachable.ts recognises the driver's real errors for a store that cannot be reached
 * (as drizzle throws them: `Failed query: …` with the driver's error as `cause`), and only those.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { countUsers } from "../queries/users";
import { closeStore, openPgStore } from "./store";
import type { Db } from "../client";
import { isStoreUnreachable, unreachableReason } from "@/lib/store/unreachable";

describe("isStoreUnreachable", () => {
  let db: Db;
  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    db = openPgStore(`postgres://bw:pw@127.0.0.1:${port}/benchwork`, 1);
  });
  afterAll(async () => closeStore(db));

  it("is true for a query on a closed port, and names the driver's reason", async () => {
    const error = await countUsers(db).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DrizzleQueryError);
    expect(isStoreUnreachable(error)).toBe(true);
    // What the proxy logs: the driver's reason, not drizzle's "Failed query: …" (and no password: pg's messages carry none).
    expect(unreachableReason(error)).toMatch(/^connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
  });

  it("is true for PostgreSQL's refusals (no such database, shutdown) and false for a failed query", () => {
    const pgError = (code: string, message: string) => new DrizzleQueryError("select 1", [], Object.assign(new Error(message), { code }));
    expect(isStoreUnreachable(pgError("3D000", 'database "x" does not exist'))).toBe(true);
    expect(isStoreUnreachable(pgError("57P01", "terminating connection due to administrator command"))).toBe(true);
    expect(isStoreUnreachable(new DrizzleQueryError("select 1", [], new Error("Connection terminated unexpectedly")))).toBe(true);
    const duplicate = pgError("23505", "duplicate key value violates unique constraint");
    expect(isStoreUnreachable(duplicate)).toBe(false);
  });
});
