/**
 * Adding many cases in one transaction on PostgreSQL (an import, Use a dataset) writes each
 * `case_counts` row once, not once per case (issue 20: the per-row trigger made 6,000 inserts take
 * twice as long), and the counts stay right: after the bulk add, a removal, and a bulk add that fails
 * half-way (nothing counted).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import type { Db } from "@/db/client";
import { closeStore, openPgStore } from "@/db/pg/store";
import { createTestDatabase, describePg, stopOwnCluster } from "@/db/pg/test-support/database";
import { emptyCaseContent } from "@/lib/library/case-content";
import { addCases, removeCase, type NewCase } from "./cases";
import { createPrompt, createSystem } from "./systems";

describePg("case_counts on PostgreSQL when many cases are added at once", () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: Db;
  let probe: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = openPgStore(database.url, 2);
    probe = new pg.Client({ connectionString: database.url });
    await probe.connect();
    // Test-only: every row version written to case_counts leaves a line here.
    await probe.query(`CREATE TABLE counter_writes (system_id text, source text);
      CREATE FUNCTION note_counter_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO counter_writes VALUES (NEW.system_id, NEW.source); RETURN NULL; END $$;
      CREATE TRIGGER note_counter_write AFTER INSERT OR UPDATE ON case_counts FOR EACH ROW EXECUTE FUNCTION note_counter_write();`);
  }, 60_000);
  afterAll(async () => {
    await probe?.end();
    if (db) await closeStore(db);
    await database?.drop();
    await stopOwnCluster();
  }, 60_000);

  const counts = async (systemId: string) =>
    (await probe.query<{ source: string; n: number }>("SELECT source, n FROM case_counts WHERE system_id = $1 AND n <> 0 ORDER BY source", [systemId])).rows;
  const writes = async (systemId: string) =>
    (await probe.query<{ n: number }>("SELECT count(*)::int AS n FROM counter_writes WHERE system_id = $1", [systemId])).rows[0].n;

  it("writes each counter once per bulk add, and the counts stay right", async () => {
    await createSystem(db, { id: "bulk", name: "Bulk" });
    const promptId = await createPrompt(db, { systemId: "bulk", name: "p", systemPrompt: "Help." });
    const one = (i: number, source: NewCase["source"]): NewCase => ({
      systemId: "bulk",
      promptId,
      caseKey: `k-${source}-${i}`,
      source,
      content: { ...emptyCaseContent(), input: `q ${i}`, expected: "a" },
    });
    const made = await addCases(db, [...Array.from({ length: 150 }, (_, i) => one(i, "dataset")), ...Array.from({ length: 50 }, (_, i) => one(i, "custom"))]);
    expect(await counts("bulk")).toEqual([
      { source: "custom", n: 50 },
      { source: "dataset", n: 150 },
    ]);
    expect(await writes("bulk")).toBe(2); // one per (source) group, not 200

    await removeCase(db, made[150].id); // k-custom-0
    expect(await counts("bulk")).toEqual([
      { source: "custom", n: 49 },
      { source: "dataset", n: 150 },
    ]);

    // The 3rd case reuses a live case ID: the whole add is refused and nothing is counted.
    await expect(addCases(db, [one(500, "custom"), one(501, "custom"), one(1, "custom")])).rejects.toThrow(/Case 3 of 3/);
    expect(await counts("bulk")).toEqual([
      { source: "custom", n: 49 },
      { source: "dataset", n: 150 },
    ]);

    // A single case added later is counted too (by the trigger, as before).
    await addCases(db, [one(600, "custom")]);
    expect(await counts("bulk")).toEqual([
      { source: "custom", n: 50 },
      { source: "dataset", n: 150 },
    ]);
  }, 60_000);
});
