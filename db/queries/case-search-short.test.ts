/**
 * The Cases tab's search of short terms only on PostgreSQL (issue 20): a rare term ('zz') read every
 * row of case_search (p95 152 ms at 100,000 cases). Now the newest rows are walked first, then the
 * walk goes on (a common term) or the `case_search_grams` index answers (a rare one), with the same
 * matches as the walk alone. Figures: bench/pg-case-search.ts.
 */
import type pg from "pg";
import { sql } from "drizzle-orm";
import { beforeEach, expect, it } from "vitest";
import type { Db } from "../client";
import { rawRows } from "../dialect";
import { content } from "../testing";
import { describeStores } from "../test-support/stores";
import { seedAcme } from "./test-support/acme";
import { addCases } from "./cases";
import { gramCandidatesSql, shortTermMatches } from "./case-search-short";

const pattern = (t: string) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

describeStores("short-term search", (store) => {
  let db: Db;
  beforeEach(async () => {
    if (store.kind !== "postgres") return;
    db = store.db();
    const { agentId } = await seedAcme(db);
    // 60 cases: "zq" in three old ones, "Ün" in one, "%" in one, every one holds "1" or not by turns.
    await addCases(
      db,
      Array.from({ length: 60 }, (_, i) => ({
        systemId: "acme",
        promptId: agentId,
        caseKey: `s-${String(i).padStart(2, "0")}`,
        source: "custom" as const,
        content: content(
          `${[3, 5, 8].includes(i) ? "fizzy ZQ drink" : "plain question"} ${i % 2 ? "one" : "n°1"}${i === 40 ? " Ünder" : ""}`,
          i === 50 ? "100% sure" : "answer",
        ),
      })),
    );
  });

  /** The walk alone: the newest `limit` matches of every term, as the search gave them before. */
  async function walk(terms: string[], limit: number): Promise<number[]> {
    const match = sql.join(
      terms.map((t) => sql`haystack ILIKE ${pattern(t)} ESCAPE '\\'`),
      sql` AND `,
    );
    const rows = await rawRows<{ case_id: number }>(
      db,
      sql`SELECT case_id FROM case_search WHERE system_id = 'acme' AND ${match} ORDER BY case_id DESC LIMIT ${limit}`,
    );
    return rows.map((r) => r.case_id);
  }

  it.runIf(store.kind === "postgres")("gives the walk's matches, through the walk for common terms and the index for rare ones", async () => {
    const live = 80; // near enough: the choice only needs the size
    const cases: [string[], number, string][] = [
      [["zq"], 10, "index"],
      [["ZQ", "1"], 10, "index"],
      [["ün"], 10, "index"],
      [["%"], 10, "index"],
      [["o"], 30, "walk"],
      [["1"], 4, "head"],
      [["xx"], 10, "index"],
    ];
    for (const [terms, limit, way] of cases) {
      const got = await shortTermMatches(db, "acme", terms, terms.map(pattern), limit, live, 8);
      expect(got.ids, terms.join(" ")).toEqual(await walk(terms, limit));
      expect(got.way, terms.join(" ")).toBe(way);
    }
    expect((await shortTermMatches(db, "acme", ["zq"], [pattern("zq")], 10, live, 8)).ids).toHaveLength(3);
    expect((await shortTermMatches(db, "acme", ["%"], [pattern("%")], 10, live, 8)).ids).toHaveLength(1);
  });

  it.runIf(store.kind === "postgres")("a rare term's candidates come from the case_search_grams index", async () => {
    await rawRows(db, sql`ANALYZE case_search`);
    const client = await (db.$client as unknown as pg.Pool).connect();
    try {
      const q = (db as unknown as { dialect: { sqlToQuery: (s: unknown) => { sql: string; params: unknown[] } } }).dialect.sqlToQuery(
        gramCandidatesSql("acme", ["zq"], [pattern("zq")], 1_000_000, 10),
      );
      const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${q.sql}`, q.params);
      expect(rows.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/Bitmap Index Scan on case_search_grams_gin/);
    } finally {
      client.release();
    }
  });
});
