/**
 * A PostgreSQL store that cannot be reached (a database that does not exist, a server that is down, a
 * wrong password) is named in one readable line when migrating, which `npm start`, `npm run db:migrate`
 * and every CLI store command do first: before, the message was drizzle's `Failed query: CREATE SCHEMA
 * IF NOT EXISTS "drizzle"`, without the reason or the store. The password never appears.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { migratePostgres, StoreUnreachableError } from "./client";
import { createTestDatabase, describePg, stopOwnCluster } from "./test-support/database";

describePg("migratePostgres on a store it cannot reach", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  }, 60_000);
  afterAll(async () => {
    await db?.drop();
    await stopOwnCluster();
  });

  it("names the store (without credentials) and PostgreSQL's reason", async () => {
    const missing = new URL(db.url);
    missing.pathname = "/bw_no_such_database";
    missing.password = "s3cret-pw";
    const error = await migratePostgres(missing.toString()).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe(`cannot connect to the PostgreSQL store ${missing.host}/bw_no_such_database: database "bw_no_such_database" does not exist`);
    expect(error?.message).not.toContain("s3cret-pw");
    // The CLI prints this error's message alone, without a stack (cli/store-unreachable.test.ts).
    expect(error).toBeInstanceOf(StoreUnreachableError);
  });
});
