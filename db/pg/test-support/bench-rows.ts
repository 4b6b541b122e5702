/**
 * Minimal rows for queue tests on PostgreSQL: a system, a prompt, cases, and benches whose trials
 * are `queued` (what a launch writes before it enqueues them).
 */
import type pg from "pg";

const NOW = 1_700_000_000_000;

/** Creates the system `s`, prompt and `cases` cases once per database; returns their ids. */
async function library(client: pg.ClientBase, cases: number): Promise<{ promptId: number; revisionIds: number[]; caseIds: number[] }> {
  await client.query("INSERT INTO systems (id, name, created_at) VALUES ('s', 'S', $1) ON CONFLICT DO NOTHING", [NOW]);
  const p = await client.query<{ id: number }>(
    "INSERT INTO prompts (system_id, name, created_at) VALUES ('s', 'p', $1) ON CONFLICT (system_id, name) DO UPDATE SET name = excluded.name RETURNING id",
    [NOW],
  );
  const promptId = p.rows[0].id;
  const caseIds: number[] = [];
  const revisionIds: number[] = [];
  for (let i = 0; i < cases; i++) {
    const c = await client.query<{ id: number }>(
      "INSERT INTO cases (case_key, system_id, prompt_id, source, created_at, updated_at) VALUES ($1, 's', $2, 'custom', $3, $3) RETURNING id",
      [`c-${Math.random().toString(36).slice(2)}`, promptId, NOW],
    );
    const r = await client.query<{ id: number }>(
      "INSERT INTO case_revisions (case_id, number, input, expected, created_at) VALUES ($1, 1, 'q', 'a', $2) RETURNING id",
      [c.rows[0].id, NOW],
    );
    caseIds.push(c.rows[0].id);
    revisionIds.push(r.rows[0].id);
  }
  return { promptId, revisionIds, caseIds };
}

/**
 * Inserts a queued bench with `candidates` candidates (positions 0…) and `trials` cases, each with
 * one queued trial per candidate (case by case, as a launch pairs them).
 * @returns the bench id, its trial ids in order, and each trial's candidate position
 */
export async function insertBench(
  client: pg.ClientBase,
  trials: number,
  candidates = 1,
): Promise<{ benchId: number; trialIds: number[]; positions: number[] }> {
  const lib = await library(client, trials);
  const b = await client.query<{ id: number }>(
    `INSERT INTO benches (system_id, prompt_id, title, status, launch_key, settings, rubric, rubric_hash, baseline, trial_count, created_at)
     VALUES ('s', $1, 'bench', 'queued', $2, '{}', '[]', 'h', '{"kind":"none"}', $3, $4) RETURNING id`,
    [lib.promptId, `k-${Math.random()}`, trials, NOW],
  );
  const benchId = b.rows[0].id;
  const candidateIds: number[] = [];
  for (let position = 0; position < candidates; position++) {
    const cand = await client.query<{ id: number }>(
      "INSERT INTO bench_candidates (bench_id, position, kind, label) VALUES ($1, $2, 'model', $3) RETURNING id",
      [benchId, position, position === 0 ? "m" : `m${position}`],
    );
    candidateIds.push(cand.rows[0].id);
  }
  const trialIds: number[] = [];
  const positions: number[] = [];
  for (let i = 0; i < trials; i++) {
    const bc = await client.query<{ id: number }>(
      `INSERT INTO bench_cases (bench_id, position, case_id, case_revision_id, case_key, source, "group", included)
       VALUES ($1, $2, $3, $4, 'k', 'custom', 'explicit', true) RETURNING id`,
      [benchId, i, lib.caseIds[i], lib.revisionIds[i]],
    );
    for (const [position, candidateId] of candidateIds.entries()) {
      const t = await client.query<{ id: number }>(
        "INSERT INTO trials (bench_id, candidate_id, bench_case_id, repeat, status) VALUES ($1, $2, $3, 0, 'queued') RETURNING id",
        [benchId, candidateId, bc.rows[0].id],
      );
      trialIds.push(t.rows[0].id);
      positions.push(position);
    }
  }
  return { benchId, trialIds, positions };
}
