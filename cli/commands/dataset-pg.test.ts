/**
 * The CLI on a PostgreSQL store (issue 20): `benchwork dataset import` writes to the store that
 * BENCHWORK_DATABASE_URL names, not to the SQLite file at BENCHWORK_DB, and names it in its messages.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import path from "node:path";
import { main } from "../main";
import { captureIo, tempFiles } from "../testing";
import { listDatasets } from "@/db/queries/datasets";
import { createSystem } from "@/db/queries/systems";
import { closeStore, openPgStore } from "@/db/pg/store";
import { migratePostgres } from "@/db/pg/client";
import { createTestDatabase, describePg, stopOwnCluster } from "@/db/pg/test-support/database";

const dir = tempFiles({ "faq.csv": "question,answer\nWhere is my order?,Ask for the order number\nCan I return it?,Yes within 30 days\n" });

describePg("benchwork dataset import [postgres]", () => {
  let database: { url: string; drop: () => Promise<void> };
  const saved = { url: process.env.BENCHWORK_DATABASE_URL, db: process.env.BENCHWORK_DB };
  beforeAll(async () => {
    database = await createTestDatabase();
    await migratePostgres(database.url);
    const db = openPgStore(database.url, 1);
    await createSystem(db, { id: "acme", name: "Acme" }).finally(() => closeStore(db));
    process.env.BENCHWORK_DATABASE_URL = database.url;
    // A SQLite file that must stay untouched.
    process.env.BENCHWORK_DB = path.join(dir, "untouched.db");
  }, 60_000);
  afterAll(async () => {
    for (const [k, v] of [
      ["BENCHWORK_DATABASE_URL", saved.url],
      ["BENCHWORK_DB", saved.db],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    await database?.drop();
    await stopOwnCluster();
  }, 60_000);

  it("stores the version in PostgreSQL and names the store; an unknown system names it too", async () => {
    const io = captureIo();
    expect(await main(["dataset", "import", path.join(dir, "faq.csv"), "--system", "acme", "--name", "faq"], io)).toBe(0);
    const { host, pathname } = new URL(database.url);
    expect(io.stdout[0]).toBe(`Saved dataset "faq" version 1 (dataset #1) in ${host}${pathname} (PostgreSQL): 2 row(s).`);
    const db = openPgStore(database.url, 1);
    try {
      const list = await listDatasets(db, "acme");
      expect(list.map((d) => [d.name, d.versions.map((v) => v.version)])).toEqual([["faq", [1]]]);
    } finally {
      await closeStore(db);
    }
    const bad = captureIo();
    expect(await main(["dataset", "import", path.join(dir, "faq.csv"), "--system", "nope", "--name", "faq", "--use", "agent"], bad)).toBe(2);
    expect(bad.stderr.join("\n")).toContain("(PostgreSQL)");
  });
});
