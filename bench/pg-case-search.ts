/**
 * Cases tab search and counts on PostgreSQL at 100,000 cases (issue #20): starts a throwaway cluster
 * (scripts/pg-cluster.mjs; or uses BENCHWORK_TEST_DATABASE_URL's cluster), migrates a fresh database,
 * seeds one system with 100,000 live cases through the schema's own triggers, then times the queries
 * the Cases tab will run on PostgreSQL: the live-case total from `case_counts`, and searches through
 * the trigram index on `case_search` (a term in every case, bounded like SEARCH_MATCH_LIMIT; a rare
 * term; two terms; a case ID fragment), p50/p95 over 50 runs each; then the Cases tab's own query
 * (db/queries/cases.ts listCases: total and first page, on the app's PostgreSQL store) for the same
 * searches and the unfiltered list, and short-term-only searches both ways side by side: the walk
 * alone (before) and listCases (walk first, then the walk or the case_search_grams index). Target: p95 under 50 ms.
 *
 * Run: `npx tsx bench/pg-case-search.ts`.
 */
import pg from "pg";
import { createTestDatabase, stopOwnCluster } from "../db/pg/test-support/test-database";
import { closeStore, openPgStore } from "../db/pg/store";
import { listCases } from "../db/queries/cases";
import { describeTimes, timeMany } from "./stats";

const N = 100_000;
const RUNS = 50;
const BOUND = 5_000; // db/queries/cases.ts SEARCH_MATCH_LIMIT
/** Short-term-only searches (db/queries/case-search-short.ts): rare ('zz', 'q', '%'), 1 in 8 ('c4'), common ('7', 'e'). */
const SHORT = ["zz", "q", "%", "c4", "7", "e"];

const database = await createTestDatabase();
const url = database.url;
const db = new pg.Client({ connectionString: url });
await db.connect();

try {
  const t0 = performance.now();
  const now = Date.now();
  await db.query("INSERT INTO systems (id, name, created_at) VALUES ('big', 'Big', $1)", [now]);
  await db.query("INSERT INTO prompts (system_id, name, created_at) VALUES ('big', 'main', $1)", [now]);
  // Cases, then their revisions, then the pointer update that fills case_search via its trigger.
  await db.query(
    `INSERT INTO cases (case_key, system_id, prompt_id, source, status, created_at, updated_at)
     SELECT 'case-' || lpad(g::text, 6, '0'), 'big', 1, (ARRAY['custom','dataset','generated'])[1 + g % 3], CASE WHEN g % 10 = 0 THEN 'paused' ELSE 'active' END, $1::bigint + g, $1::bigint + g
     FROM generate_series(1, $2) g`,
    [now, N],
  );
  await db.query(
    `INSERT INTO case_revisions (case_id, number, input, expected, created_at)
     SELECT id, 1, 'Customer ' || id || ' asks: where is my order ' || md5(id::text) || '? It was due on day ' || (id % 28) || '.',
            CASE WHEN id % 1000 = 7 THEN 'Escalate to the refund desk' ELSE 'Apologise and give the tracking link' END, $1
     FROM cases`,
    [now],
  );
  await db.query("UPDATE cases c SET current_revision_id = r.id FROM case_revisions r WHERE r.case_id = c.id");
  await db.query("VACUUM ANALYZE");
  console.log(`seeded ${N} cases in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const search = (terms: string[]) =>
    db.query(
      `SELECT case_id FROM case_search WHERE system_id = 'big' AND ${terms.map((_, i) => `haystack ILIKE $${i + 1}`).join(" AND ")} ORDER BY case_id DESC LIMIT ${BOUND + 1}`,
      terms.map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`), // LIKE escapes, as listCases
    );
  const scenarios: [string, () => Promise<unknown>, () => Promise<number>][] = [
    ["total from case_counts", () => db.query("SELECT sum(n) FROM case_counts WHERE system_id = 'big'"), async () => 1],
    ["search 'tracking' (every case; first 5,001)", () => search(["tracking"]), async () => (await search(["tracking"])).rowCount ?? 0],
    ["search 'refund desk' (100 cases)", () => search(["refund", "desk"]), async () => (await search(["refund", "desk"])).rowCount ?? 0],
    ["search 'case-0421' (case ID, 100 cases)", () => search(["case-0421"]), async () => (await search(["case-0421"])).rowCount ?? 0],
    ["search md5 fragment 'c4ca42' (rare)", () => search(["c4ca42"]), async () => (await search(["c4ca42"])).rowCount ?? 0],
    // Short terms only: the newest-first walk alone (how listCases searched them before
    // db/queries/case-search-short.ts), for the listCases rows below side by side.
    ...SHORT.map((t): [string, () => Promise<unknown>, () => Promise<number>] => [
      `walk alone '${t}' (short terms, before)`,
      () => search([t]),
      async () => (await search([t])).rowCount ?? 0,
    ]),
  ];
  for (const [label, run, rows] of scenarios) {
    for (let i = 0; i < 10; i++) await run(); // warm the cache
    const times = await timeMany(RUNS, () => run());
    console.log(`${label.padEnd(46)} rows ${String(await rows()).padStart(5)}  ${describeTimes(times)}`);
  }
  const store = openPgStore(url, 4);
  try {
    for (const q of [undefined, "tracking", "refund desk", "case-0421", "c4ca42", "desk 7", ...SHORT]) {
      const run = () => listCases(store, { systemId: "big", q });
      for (let i = 0; i < 10; i++) await run();
      const times = await timeMany(RUNS, () => run());
      const page = await run();
      const label = `listCases ${q === undefined ? "(no search)" : `'${q}'`} total ${page.total}${page.truncated ? " (bounded)" : ""}`;
      // Same matches as the walk alone (its count up to the bound + 1).
      const same = q && SHORT.includes(q) ? ` (walk alone: ${Math.min((await search([q])).rowCount ?? 0, BOUND)})` : "";
      console.log(`${label.padEnd(46)} rows ${String(page.rows.length).padStart(5)}  ${describeTimes(times)}${same}`);
    }
  } finally {
    await closeStore(store);
  }
} finally {
  await db.end();
  await database.drop();
  await stopOwnCluster();
}
