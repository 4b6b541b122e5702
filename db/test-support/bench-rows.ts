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
 * Inserts a queued bench with one candidate and `count` queued trials (one per new case).
 * @returns the bench id and its trial ids in order
 */
export async function insertQueuedBench(db: Db, count: number): Promise<{ benchId: number; trialIds: number[] }> {
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
  const candidate = (await first(
    db.insert(benchCandidates).values({ benchId: bench.id, position: 0, kind: "model", label: "m" }).returning({ id: benchCandidates.id }),
  ))!;
  const trialIds: number[] = [];
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
    const t = (await first(
      db.insert(trials).values({ benchId: bench.id, candidateId: candidate.id, benchCaseId: bc.id, repeat: 0, status: "queued" }).returning({ id: trials.id }),
    ))!;
    trialIds.push(t.id);
  }
  return { benchId: bench.id, trialIds };
}
