/**
 * Retention's lookup of a case's retained copy (its origin's `fromCaseId`) is served by the
 * expression index `retention_origin_index` on both stores (issue 20): without it every lookup
 * scanned the cases table, once per failing case of a bench, so finalizing a 20,000-trial bench
 * spent 1.1–1.7 s there, growing with the square of the retained copies (bench/retention.ts).
 */
import type pg from "pg";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rawRows } from "../dialect";
import { first } from "../rows";
import { cases, prompts, systems } from "../schema";
import { describeStores } from "../test-support/stores";
import { retainedCopyQuery } from "./retention";

const NOW = 1_700_000_000_000;

describeStores("retention's lookup", (store) => {
  it("finds a retained copy by its origin case through retention_origin_index", async () => {
    const db = store.db();
    // A library with 300 retained copies (the planner's statistics then see what a real one holds).
    await db.insert(systems).values({ id: "s", name: "S", createdAt: NOW });
    const prompt = (await first(db.insert(prompts).values({ systemId: "s", name: "p", createdAt: NOW }).returning({ id: prompts.id })))!;
    await db.insert(cases).values(
      Array.from({ length: 300 }, (_, i) => ({
        caseKey: `c-${i}~retained`,
        systemId: "s",
        promptId: prompt.id,
        source: "retained" as const,
        origin: JSON.stringify({ kind: "bench", benchId: 1, fromCaseId: 1000 + i, trialCaseRevisionId: 1 }),
        createdAt: NOW,
        updatedAt: NOW,
      })),
    );
    if (store.kind === "sqlite") db.$client.exec("ANALYZE");
    else await rawRows(db, sql`ANALYZE cases`);
    expect((await first(retainedCopyQuery(db, 1042)))?.caseKey).toBe("c-42~retained");
    const { sql: text, params } = retainedCopyQuery(db, 1042).toSQL();
    let plan: string;
    if (store.kind === "sqlite") {
      plan = (db.$client.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
    } else {
      // A test table is tiny, so the planner would scan it anyway: take scans off the table to ask
      // which index serves the condition (a scan stays possible, at a prohibitive cost, when none does).
      const client = await (db.$client as unknown as pg.Pool).connect();
      try {
        await client.query("BEGIN");
        await client.query("SET LOCAL enable_seqscan = off");
        const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, params);
        plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
      } finally {
        await client.query("ROLLBACK");
        client.release();
      }
    }
    expect(plan).toMatch(/retention_origin_index/);
  });
});
