/**
 * Minimal rows for queue tests, on either store: a system, a prompt, cases, and a bench whose trials
 * are `queued` (what a launch writes before it enqueues them). Written with drizzle's builders, so
 * it runs inside a `transaction` on SQLite and PostgreSQL alike.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { benchCandidates, benchCases, benches, caseRevisions, cases, prompts, systems, trials } from "../schema";

const NOW = 1_700_000_000_000;
let seq = 0;

/**
 * Inserts a queued bench with `candidates` candidates (positions 0…) and `count` new cases, each
 * with one queued trial per candidate (case by case, as a launch pairs them).
 * @returns the bench id, its trial ids in order, and each trial's candidate position
 */
export async function insertQueuedBench(db: Db, count: number, candidates = 1): Promise<{ benchId: number; trialIds: number[]; positions: number[] }> {
  await db.insert(systems).values({ id: "s", name: "S", createdAt: NOW }).onConflictDoNothing();
  const prompt =
    (await first(db.select({ id: prompts.id }).from(prompts).where(eq(prompts.systemId, "s")).limit(1))) ??
    (await first(db.insert(prompts).values({ systemId: "s", name: "p", createdAt: NOW }).returning({ id: prompts.id })))!;
  const tag = `${process.pid}-${++seq}`;
  const bench = (await first(
    db
      .insert(benches)
      .values({
        systemId: "s",
        promptId: prompt.id,
        title: "bench",
        status: "queued",
        launchKey: `k-${tag}`,
        settings: "{}",
        rubric: "[]",
        rubricHash: "h",
        baseline: '{"kind":"none"}',
        trialCount: count,
        createdAt: NOW,
      })
      .returning({ id: benches.id }),
  ))!;
  const candidateIds: number[] = [];
  for (let position = 0; position < candidates; position++)
    candidateIds.push(
      (await first(
        db
          .insert(benchCandidates)
          .values({ benchId: bench.id, position, kind: "model", label: position === 0 ? "m" : `m${position}` })
          .returning({ id: benchCandidates.id }),
      ))!.id,
    );
  const trialIds: number[] = [];
  const positions: number[] = [];
  for (let i = 0; i < count; i++) {
    const c = (await first(
      db
        .insert(cases)
        .values({ caseKey: `c-${tag}-${i}`, systemId: "s", promptId: prompt.id, source: "custom", createdAt: NOW, updatedAt: NOW })
        .returning({ id: cases.id }),
    ))!;
    const rev = (await first(
      db.insert(caseRevisions).values({ caseId: c.id, number: 1, input: "q", expected: "a", createdAt: NOW }).returning({ id: caseRevisions.id }),
    ))!;
    const bc = (await first(
      db
        .insert(benchCases)
        .values({
          benchId: bench.id,
          position: i,
          caseId: c.id,
          caseRevisionId: rev.id,
          caseKey: `c-${tag}-${i}`,
          source: "custom",
          group: "explicit",
          included: true,
        })
        .returning({ id: benchCases.id }),
    ))!;
    for (const [position, candidateId] of candidateIds.entries()) {
      const t = (await first(
        db.insert(trials).values({ benchId: bench.id, candidateId, benchCaseId: bc.id, repeat: 0, status: "queued" }).returning({ id: trials.id }),
      ))!;
      trialIds.push(t.id);
      positions.push(position);
    }
  }
  return { benchId: bench.id, trialIds, positions };
}

/** A rerun trial's own fields (the bench, candidate and case are filled in); `repeat` defaults to 2. */
export type ConfirmTrialFields = Omit<typeof trials.$inferInsert, "benchId" | "candidateId" | "benchCaseId" | "repeat" | "rerun"> & { repeat?: number };

/**
 * Adds trials to bench `benchId` as a Confirm round inside it would (`rerun` "confirm"): of its first
 * candidate, on the case of its first trial, with `rows`' own fields (status, outcome, repeat).
 * @returns their ids, in order (as `returning` gives them)
 */
export async function insertConfirmTrials(db: Db, benchId: number, rows: ConfirmTrialFields[]): Promise<{ id: number }[]> {
  const candidateId = (await first(
    db.select({ id: benchCandidates.id }).from(benchCandidates).where(eq(benchCandidates.benchId, benchId)).orderBy(benchCandidates.position),
  ))!.id;
  const benchCaseId = (await first(db.select({ bc: trials.benchCaseId }).from(trials).where(eq(trials.benchId, benchId)).orderBy(trials.id)))!.bc;
  return db
    .insert(trials)
    .values(rows.map((r) => ({ repeat: 2, ...r, benchId, candidateId, benchCaseId, rerun: "confirm" as const })))
    .returning({ id: trials.id });
}
