/**
 * Test and bench support (db/queries/benches.test.ts, bench/launch.ts): a system, a prompt and `n`
 * cases written with drizzle's builders (so on either store), and the {@link LaunchInput} of a bench
 * over them with recorded candidates — what `launchBench` stores, without the planning around it.
 */
import type { Db } from "../../client";
import { caseRevisions, cases, prompts, systems } from "../../schema";
import type { LaunchInput } from "../benches";

/** One case of {@link seedCases}, as a manifest line names it. */
export interface SeededCase {
  caseId: number;
  caseRevisionId: number;
  caseKey: string;
}

const AT = 1_733_000_000_000;
const CHUNK = 500;

/**
 * Creates system `systemId` with one prompt and `n` cases `c-00001`… (one revision each).
 * @returns the prompt's id and the cases in key order
 */
export async function seedCases(db: Db, systemId: string, n: number): Promise<{ promptId: number; cases: SeededCase[] }> {
  await db.insert(systems).values({ id: systemId, name: systemId, createdAt: AT });
  const [prompt] = await db.insert(prompts).values({ systemId, name: "answerer", createdAt: AT }).returning({ id: prompts.id });
  const seeded: SeededCase[] = [];
  for (let start = 0; start < n; start += CHUNK) {
    const keys = Array.from({ length: Math.min(CHUNK, n - start) }, (_, i) => `c-${String(start + i + 1).padStart(5, "0")}`);
    const made = await db
      .insert(cases)
      .values(keys.map((caseKey) => ({ caseKey, systemId, promptId: prompt.id, source: "custom" as const, createdAt: AT, updatedAt: AT })))
      .returning({ id: cases.id, caseKey: cases.caseKey });
    const revs = await db
      .insert(caseRevisions)
      .values(made.map((c) => ({ caseId: c.id, number: 1, input: `question ${c.caseKey}`, expected: "42", createdAt: AT })))
      .returning({ id: caseRevisions.id, caseId: caseRevisions.caseId });
    const revOf = new Map(revs.map((r) => [r.caseId, r.id]));
    for (const c of made) seeded.push({ caseId: c.id, caseRevisionId: revOf.get(c.id)!, caseKey: c.caseKey });
  }
  seeded.sort((a, b) => a.caseKey.localeCompare(b.caseKey));
  return { promptId: prompt.id, cases: seeded };
}

/**
 * A launch of recorded candidates over `seeded` cases: every `excludeEvery`-th case excluded
 * ("paused"), and candidate `missing` (if any) without a recorded output for the cases in `missingFor`.
 */
export function recordedLaunch(
  systemId: string,
  promptId: number,
  seeded: SeededCase[],
  o: { launchKey: string; candidates: string[]; repeats?: number; excludeEvery?: number; missing?: { candidate: string; caseIds: number[] } },
): LaunchInput {
  const repeats = o.repeats ?? 1;
  const manifest = seeded.map((c, position) => {
    const included = !o.excludeEvery || (position + 1) % o.excludeEvery !== 0;
    return {
      position,
      caseId: c.caseId,
      caseKey: c.caseKey,
      caseRevisionId: c.caseRevisionId,
      source: "custom" as const,
      group: "explicit" as const,
      included,
      reason: included ? null : "paused",
      note: position === 0 ? "first" : null,
    };
  });
  const includedCount = manifest.filter((m) => m.included).length;
  const missing = new Set(o.missing?.caseIds ?? []);
  return {
    systemId,
    promptId,
    title: `bench ${o.launchKey}`,
    launchKey: o.launchKey,
    settings: { selection: { kind: "all" }, budget: null, repeats, concurrency: 4, timeoutMs: 60_000, maxSteps: 5 },
    rubric: [],
    rubricHash: "none",
    baseline: { kind: "none" },
    judge: null,
    candidates: o.candidates.map((name) => ({ spec: { kind: "recorded", label: name, recordedName: name }, modelConfigId: null, promptRevisionId: null })),
    plan: {
      manifest,
      includedCount,
      retainedJoined: 0,
      excludedCount: manifest.length - includedCount,
      excludedBy: {},
      trialCount: includedCount * repeats * o.candidates.length,
      modelCalls: 0,
      modelCallsUpperBound: false,
      judgeCalls: 0,
      missingRecordings: [],
      estimate: { inputTokens: 0, outputTokens: 0, costUsd: null },
      warnings: [],
    },
    hasRecording: (caseId, name) => !(name === o.missing?.candidate && missing.has(caseId)),
  };
}
