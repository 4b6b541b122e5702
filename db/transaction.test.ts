import { eq } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase } from "./client";
import { first } from "./rows";
import { systems } from "./schema";
import { describeStores } from "./test-support/stores";
import { TransactionAwaitedIoError, transaction } from "./transaction";

const system = (id: string) => ({ id, name: id.toUpperCase(), createdAt: 1_733_000_000_000 });

describeStores("transaction", (store) => {
  it("commits what the body wrote and returns its value", async () => {
    const db = store.db();
    const value = await transaction(db, async (tx) => {
      await tx.insert(systems).values(system("a"));
      return (await tx.select().from(systems)).length;
    });
    expect(value).toBe(1);
    // ms times come back as numbers on both stores (a bigint on PostgreSQL)
    expect(await first(db.select().from(systems).where(eq(systems.id, "a")))).toEqual({ id: "a", name: "A", description: "", createdAt: 1_733_000_000_000 });
  });

  it("rolls back everything when the body throws, and rethrows", async () => {
    const db = store.db();
    await expect(
      transaction(db, async (tx) => {
        await tx.insert(systems).values(system("a"));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await db.select().from(systems)).toEqual([]);
  });

  it("a nested transaction is a savepoint: its rollback keeps the outer writes", async () => {
    const db = store.db();
    await transaction(db, async (tx) => {
      await tx.insert(systems).values(system("outer"));
      await expect(
        transaction(tx, async (inner) => {
          await inner.insert(systems).values(system("inner"));
          throw new Error("inner fails");
        }),
      ).rejects.toThrow("inner fails");
      await transaction(tx, async (inner) => {
        await inner.insert(systems).values(system("kept"));
      });
    });
    expect((await db.select({ id: systems.id }).from(systems).orderBy(systems.id)).map((r) => r.id)).toEqual(["kept", "outer"]);
  });

  it("two transactions started together both commit, one after the other", async () => {
    const db = store.db();
    await Promise.all([
      transaction(db, async (tx) => void (await tx.insert(systems).values(system("x")))),
      transaction(db, async (tx) => void (await tx.insert(systems).values(system("y")))),
    ]);
    expect((await db.select().from(systems)).length).toBe(2);
  });

  if (store.kind === "sqlite") {
    it("SQLite: a body that awaits I/O is rolled back with a clear error", async () => {
      const db = store.db();
      await expect(
        transaction(db, async (tx) => {
          await tx.insert(systems).values(system("a"));
          await new Promise((r) => setTimeout(r, 1));
        }),
      ).rejects.toBeInstanceOf(TransactionAwaitedIoError);
      expect(await db.select().from(systems)).toEqual([]);
      // the connection is usable afterwards
      await transaction(db, async (tx) => void (await tx.insert(systems).values(system("b"))));
      expect((await db.select().from(systems)).map((r) => r.id)).toEqual(["b"]);
    });

    it("SQLite: a body that opens a transaction on the store instead of its tx fails instead of hanging", async () => {
      const db = store.db();
      await expect(
        transaction(db, async (tx) => {
          await tx.insert(systems).values(system("a"));
          await transaction(db, async (wrong) => void (await wrong.insert(systems).values(system("b"))));
        }),
      ).rejects.toThrow(/pass its tx/);
      expect(await db.select().from(systems)).toEqual([]);
    });
  }
});

describe("transaction on two SQLite connections to one file in one thread", () => {
  it("the second waits for the first instead of blocking the thread on the write lock until SQLITE_BUSY", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "benchwork-tx-"));
    try {
      const file = path.join(dir, "two.db");
      const a = openDatabase(file);
      migrateDatabase(a);
      const b = openDatabase(file);
      // Short, so the failure this guards against shows in 0.2 s instead of the 5 s busy timeout.
      for (const db of [a, b]) db.$client.pragma("busy_timeout = 200");
      // Both start in the same turn; the first's body awaits its own queries (microtasks), during
      // which the second's BEGIN IMMEDIATE used to wait synchronously for a lock the first could only
      // release once the thread was free again: "database is locked" after the busy timeout.
      const [one, two] = await Promise.all([
        transaction(a, async (tx) => {
          await tx.insert(systems).values(system("one"));
          return (await tx.select().from(systems)).length;
        }),
        transaction(b, async (tx) => {
          await tx.insert(systems).values(system("two"));
          return (await tx.select().from(systems)).length;
        }),
      ]);
      expect([one, two]).toEqual([1, 2]);
      a.$client.close();
      b.$client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
