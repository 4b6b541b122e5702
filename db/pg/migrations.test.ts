/**
 * The PostgreSQL migrations (db/migrations-pg) build the store described by db/schema-pg.ts and
 * db/schema-pg-queue.ts on a fresh database, and the Cases tab's search and counts have their
 * trigram index and counters.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import { getTableName, is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { eq } from "drizzle-orm";
import { datasets, datasetVersions, systems } from "../schema-pg";
import { openPgPool, pgDrizzle, pgSchema } from "./client";
import { createTestDatabase, describePg, stopOwnCluster } from "./test-support/database";

describePg("PostgreSQL migrations", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let client: pg.Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    await client?.end();
    await db?.drop();
    await stopOwnCluster();
  });

  it("creates every table and column of the pg schema", async () => {
    const { rows } = await client.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
    );
    const have = new Set(rows.map((r) => `${r.table_name}.${r.column_name}`));
    const tables = (Object.values(pgSchema) as unknown[]).filter((t): t is PgTable => is(t, PgTable));
    expect(tables.length).toBeGreaterThan(20);
    for (const t of tables) for (const c of getTableConfig(t).columns) expect(have, `${getTableName(t)}.${c.name}`).toContain(`${getTableName(t)}.${c.name}`);
  });

  it("round-trips typed rows through drizzle: jsonb as values, bytea as bytes, ms times as numbers", async () => {
    const pool = openPgPool(db.url, 1);
    try {
      const d = pgDrizzle(pool);
      const at = 1_750_000_000_123;
      await d.insert(systems).values({ id: "rt", name: "Round trip", createdAt: at });
      const [set] = await d.insert(datasets).values({ systemId: "rt", name: "d", createdAt: at }).returning({ id: datasets.id });
      const bytes = Buffer.from([0, 1, 2, 255, 10, 13]);
      await d.insert(datasetVersions).values({
        datasetId: set.id,
        version: 1,
        fileName: "a.csv",
        fileBytes: bytes,
        format: "csv",
        columns: ["question", "answer"],
        mapping: { input: "question" } as never,
        rows: [{ question: "2+2", answer: "4" }],
        rowCount: 1,
        redactionReport: {} as never,
        problems: [],
        createdAt: at,
      });
      const [v] = await d.select().from(datasetVersions).where(eq(datasetVersions.datasetId, set.id));
      expect(Buffer.compare(v.fileBytes, bytes)).toBe(0);
      expect(v.rows).toEqual([{ question: "2+2", answer: "4" }]);
      expect(v.columns).toEqual(["question", "answer"]);
      expect(v.excludedRows).toEqual([]);
      expect(v.createdAt).toBe(at);
      const raw = await client.query<{ t: string }>("SELECT jsonb_typeof(rows) AS t FROM dataset_versions WHERE dataset_id = $1", [set.id]);
      expect(raw.rows[0].t).toBe("array");
    } finally {
      await pool.end();
    }
  });

  it("creates the schema's indexes, partial ones with their condition", async () => {
    const { rows } = await client.query<{ indexname: string; indexdef: string }>("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'");
    const byName = new Map(rows.map((r) => [r.indexname, r.indexdef]));
    expect(byName.get("cases_prompt_case_key_live")).toMatch(/UNIQUE INDEX .* \(prompt_id, case_key\) WHERE \(removed_at IS NULL\)/);
    expect(byName.get("trials_unique")).toMatch(/UNIQUE INDEX .* \(bench_id, candidate_id, bench_case_id, repeat\)/);
    expect(byName.get("case_search_haystack_trgm")).toMatch(/USING gin \(haystack gin_trgm_ops\)/);
  });

  it("keeps case_search and case_counts in step with the cases, and searches by substring through the trigram index", async () => {
    const now = 1_700_000_000_000;
    await client.query("INSERT INTO systems (id, name, created_at) VALUES ('s', 'S', $1)", [now]);
    const p = await client.query<{ id: number }>("INSERT INTO prompts (system_id, name, created_at) VALUES ('s', 'p', $1) RETURNING id", [now]);
    const promptId = p.rows[0].id;
    const addCase = async (key: string, input: string) => {
      const c = await client.query<{ id: number }>(
        "INSERT INTO cases (case_key, system_id, prompt_id, source, created_at, updated_at) VALUES ($1, 's', $2, 'custom', $3, $3) RETURNING id",
        [key, promptId, now],
      );
      const r = await client.query<{ id: number }>(
        "INSERT INTO case_revisions (case_id, number, input, expected, created_at) VALUES ($1, 1, $2, 'ok', $3) RETURNING id",
        [c.rows[0].id, input, now],
      );
      await client.query("UPDATE cases SET current_revision_id = $1 WHERE id = $2", [r.rows[0].id, c.rows[0].id]);
      return c.rows[0].id;
    };
    const refund = await addCase("c-1", "Where is my REFUND for order 42?");
    const other = await addCase("c-2", "What are your opening hours?");
    await addCase("c-3", "I want a refund now");
    await client.query("UPDATE cases SET removed_at = $1 WHERE case_key = 'c-3'", [now]);

    const search = async (...terms: string[]) =>
      (
        await client.query<{ case_id: number }>(
          `SELECT case_id FROM case_search WHERE system_id = 's' AND ${terms.map((_, i) => `haystack ILIKE $${i + 1}`).join(" AND ")} ORDER BY case_id`,
          terms.map((t) => `%${t}%`),
        )
      ).rows.map((r) => r.case_id);
    expect(await search("refund")).toEqual([refund]);
    expect(await search("opening")).toEqual([other]);
    expect(await search("c-2")).toEqual([other]); // the case ID
    expect(await search("refund", "ORDER")).toEqual([refund]); // every term, case-insensitive
    expect(await search("refund", "hours")).toEqual([]);
    expect(await search("42?ok")).toEqual([]); // fields are not glued together

    await client.query("UPDATE cases SET case_key = 'renamed-2' WHERE id = $1", [other]);
    expect(await search("renamed")).toEqual([other]);

    await client.query("SET enable_seqscan = off");
    const plan = (await client.query<{ "QUERY PLAN": string }>("EXPLAIN SELECT case_id FROM case_search WHERE haystack ILIKE '%refund%'")).rows
      .map((r) => r["QUERY PLAN"])
      .join("\n");
    expect(plan).toContain("case_search_haystack_trgm");

    const counts = await client.query<{ source: string; status: string; n: number }>("SELECT source, status, n FROM case_counts WHERE system_id = 's'");
    expect(counts.rows).toEqual([{ source: "custom", status: "active", n: 2 }]);
  });
});
