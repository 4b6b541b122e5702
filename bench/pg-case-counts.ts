/**
 * Adding 6,000 cases in one transaction on PostgreSQL (an import; issue #20), before and after the
 * live-case counters are written once per add (db/queries/case-counts-once.ts, pg migration 0008)
 * instead of once per case by the `case_counts_sync` trigger. Both in the same run, alternating
 * (A B A B …): "before" puts back the trigger function of migration 0001 (which ignores the skip
 * setting, so every insert rewrites its counter row; the one grouped statement at the end is then
 * extra, and its counts are not checked), "after" is migration 0008's. Each round adds its cases
 * to a system of its own: by default one plain INSERT per case in one transaction, as the store's
 * own statements do, with the skip setting and the grouped count around them (what
 * db/queries/case-counts-once.ts does); with `--add-cases` through the real `addCases` (which also
 * probes case IDs and writes revisions: the trigger is a small share of it). Prints each round,
 * the medians and the load.
 *
 * Run: `npx tsx bench/pg-case-counts.ts [--cases 6000] [--rounds 3] [--add-cases]` (starts a
 * throwaway cluster, or uses BENCHWORK_TEST_DATABASE_URL's).
 */
import pg from "pg";
import { loadavg } from "node:os";
import { withPgTransaction } from "../db/pg/client";
import { createTestDatabase, stopOwnCluster } from "../db/pg/test-support/test-database";
import { closeStore, openPgStore } from "../db/pg/store";
import { addCases, type NewCase } from "../db/queries/cases";
import { createPrompt, createSystem } from "../db/queries/systems";
import { emptyCaseContent } from "../lib/library/case-content";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg("cases", 6000);
const ROUNDS = arg("rounds", 3);

/** Migration 0001's trigger function: one counter row update per inserted case. */
const BEFORE = `CREATE OR REPLACE FUNCTION case_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.removed_at IS NULL THEN
    UPDATE case_counts SET n = n - 1 WHERE system_id = OLD.system_id AND prompt_id = OLD.prompt_id AND source = OLD.source AND status = OLD.status;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.removed_at IS NULL THEN
    INSERT INTO case_counts (system_id, prompt_id, source, status, n) VALUES (NEW.system_id, NEW.prompt_id, NEW.source, NEW.status, 1)
      ON CONFLICT (system_id, prompt_id, source, status) DO UPDATE SET n = case_counts.n + 1;
  END IF;
  RETURN NULL;
END $$`;

const database = await createTestDatabase();
const url = database.url;
const control = new pg.Client({ connectionString: url });
await control.connect();
// The "before" side writes its cases through the store's one transaction seam, on a pool of its own.
const pool = new pg.Pool({ connectionString: url, max: 1 });
const after = (await control.query<{ def: string }>("SELECT pg_get_functiondef('case_counts_sync'::regproc) AS def")).rows[0].def;
const db = openPgStore(url, 2);

const times: Record<"before" | "after", number[]> = { before: [], after: [] };
try {
  let round = 0;
  for (let r = 0; r < ROUNDS; r++)
    for (const variant of ["before", "after"] as const) {
      await control.query(variant === "before" ? BEFORE : after);
      const systemId = `s${++round}`;
      await createSystem(db, { id: systemId, name: systemId });
      const promptId = await createPrompt(db, { systemId, name: "p", systemPrompt: "Help." });
      const list: NewCase[] = Array.from({ length: N }, (_, i) => ({
        systemId,
        promptId,
        caseKey: `case-${i}`,
        source: "dataset",
        content: { ...emptyCaseContent(), input: `question ${i}`, expected: `answer ${i}` },
      }));
      const t0 = performance.now();
      if (process.argv.includes("--add-cases")) await addCases(db, list);
      else {
        await withPgTransaction(pool, async (client) => {
          await client.query("SELECT set_config('benchwork.case_counts_by_caller', 'on', true)");
          const ids: number[] = [];
          for (const c of list) {
            const r = await client.query<{ id: number }>(
              "INSERT INTO cases (case_key, system_id, prompt_id, source, created_at, updated_at) VALUES ($1, $2, $3, $4, 0, 0) RETURNING id",
              [c.caseKey, c.systemId, c.promptId, c.source],
            );
            ids.push(r.rows[0].id);
          }
          await client.query("SELECT set_config('benchwork.case_counts_by_caller', 'off', true)");
          await client.query(
            `INSERT INTO case_counts (system_id, prompt_id, source, status, n)
             SELECT system_id, prompt_id, source, status, count(*)::int FROM cases WHERE id = ANY($1::int[]) AND removed_at IS NULL
             GROUP BY system_id, prompt_id, source, status
             ON CONFLICT (system_id, prompt_id, source, status) DO UPDATE SET n = case_counts.n + excluded.n`,
            [ids],
          );
        });
      }
      const ms = performance.now() - t0;
      times[variant].push(ms);
      const n = (await control.query<{ n: number }>("SELECT coalesce(sum(n), 0)::int AS n FROM case_counts WHERE system_id = $1", [systemId])).rows[0].n;
      console.log(
        `round ${r + 1} ${variant}: ${N} cases in ${ms.toFixed(0)} ms (load ${loadavg()[0].toFixed(1)}; counted ${n}${variant === "after" && n !== N ? " — WRONG" : ""})`,
      );
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `median: before ${median(times.before).toFixed(0)} ms, after ${median(times.after).toFixed(0)} ms (${N} cases, ${ROUNDS} rounds each, alternating)`,
  );
} finally {
  await control.query(after);
  await control.end();
  await pool.end();
  await closeStore(db);
  await database.drop();
  await stopOwnCluster();
}
