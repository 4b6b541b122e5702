/** Systems and their prompts (with immutable prompt revisions). */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { rawRows } from "../dialect";
import { first } from "../rows";
import { transaction } from "../transaction";
import { promptRevisions, prompts, systems } from "../schema";
import { LibraryError } from "@/lib/library/errors";
import type { ToolDefinition } from "@/lib/library/case-content";

/** A system with the number of live cases in its library. */
export interface SystemSummary {
  id: string;
  name: string;
  description: string;
  promptCount: number;
  caseCount: number;
}

/** A tool a prompt revision exposes (name, description, JSON-schema input, fixtures). */
export type PromptTool = ToolDefinition;

/** Model settings of a prompt revision (all optional; units: tokens for maxOutputTokens). */
export interface ModelSettings {
  temperature?: number;
  maxOutputTokens?: number;
  [key: string]: unknown;
}

/** A prompt with its current revision. */
export interface PromptWithRevision {
  id: number;
  systemId: string;
  name: string;
  description: string;
  revision: { id: number; number: number; systemPrompt: string; modelSettings: ModelSettings; tools: PromptTool[] } | null;
}

/** Every system, by name, with prompt and live-case counts. */
export async function listSystems(db: Db): Promise<SystemSummary[]> {
  const rows = await db
    .select({
      id: systems.id,
      name: systems.name,
      description: systems.description,
      // Qualified by hand: drizzle renders ${systems.id} as a bare "id", which binds to the subquery's own table.
      promptCount: sql<number>`(SELECT count(*) FROM prompts p WHERE p.system_id = "systems"."id")`,
      caseCount: sql<number>`coalesce((SELECT sum(n) FROM case_counts c WHERE c.system_id = "systems"."id"), 0)`,
    })
    .from(systems)
    .orderBy(asc(systems.name));
  return rows;
}

/** One system, or null when no system has this id. */
export async function getSystem(db: Db, id: string): Promise<{ id: string; name: string; description: string } | null> {
  return (await first(db.select({ id: systems.id, name: systems.name, description: systems.description }).from(systems).where(eq(systems.id, id)))) ?? null;
}

/**
 * Creates a system.
 * @throws LibraryError `validation` when the id is not a slug (a–z, 0–9, dashes) or already used.
 */
export async function createSystem(db: Db, s: { id: string; name: string; description?: string }): Promise<void> {
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(s.id)) throw new LibraryError("validation", `System id "${s.id}" must be 1–64 lowercase letters, digits or dashes.`);
  if (await getSystem(db, s.id)) throw new LibraryError("validation", `A system with id "${s.id}" already exists.`);
  await db.insert(systems).values({ id: s.id, name: s.name, description: s.description ?? "", createdAt: Date.now() });
}

function decodePrompt(row: {
  id: number;
  systemId: string;
  name: string;
  description: string;
  revId: number | null;
  revNumber: number | null;
  systemPrompt: string | null;
  modelSettings: string | null;
  tools: string | null;
}): PromptWithRevision {
  return {
    id: row.id,
    systemId: row.systemId,
    name: row.name,
    description: row.description,
    revision:
      row.revId == null
        ? null
        : {
            id: row.revId,
            number: row.revNumber ?? 1,
            systemPrompt: row.systemPrompt ?? "",
            modelSettings: JSON.parse(row.modelSettings ?? "{}") as ModelSettings,
            tools: JSON.parse(row.tools ?? "[]") as PromptTool[],
          },
  };
}

const promptColumns = {
  id: prompts.id,
  systemId: prompts.systemId,
  name: prompts.name,
  description: prompts.description,
  revId: promptRevisions.id,
  revNumber: promptRevisions.number,
  systemPrompt: promptRevisions.systemPrompt,
  modelSettings: promptRevisions.modelSettings,
  tools: promptRevisions.tools,
};

/** The prompts of a system, by name, each with its current revision. */
export async function listPrompts(db: Db, systemId: string): Promise<PromptWithRevision[]> {
  const rows = await db
    .select(promptColumns)
    .from(prompts)
    .leftJoin(promptRevisions, eq(promptRevisions.id, prompts.currentRevisionId))
    .where(eq(prompts.systemId, systemId))
    .orderBy(asc(prompts.name));
  return rows.map(decodePrompt);
}

/** One prompt by id, or null. */
export async function getPrompt(db: Db, promptId: number): Promise<PromptWithRevision | null> {
  const row = await first(
    db.select(promptColumns).from(prompts).leftJoin(promptRevisions, eq(promptRevisions.id, prompts.currentRevisionId)).where(eq(prompts.id, promptId)),
  );
  return row ? decodePrompt(row) : null;
}

/**
 * Creates a prompt with its first revision.
 * @returns the prompt id
 * @throws LibraryError `validation` when the system already has a prompt of that name
 */
export async function createPrompt(
  db: Db,
  p: { systemId: string; name: string; description?: string; systemPrompt: string; modelSettings?: ModelSettings; tools?: PromptTool[] },
): Promise<number> {
  return transaction(db, async (tx) => {
    const existing = await first(
      tx
        .select({ id: prompts.id })
        .from(prompts)
        .where(and(eq(prompts.systemId, p.systemId), eq(prompts.name, p.name)))
        .limit(1),
    );
    if (existing) throw new LibraryError("validation", `System "${p.systemId}" already has a prompt named "${p.name}".`);
    const now = Date.now();
    const [{ id }] = await tx
      .insert(prompts)
      .values({ systemId: p.systemId, name: p.name, description: p.description ?? "", createdAt: now })
      .returning({ id: prompts.id });
    const [rev] = await tx
      .insert(promptRevisions)
      .values({
        promptId: id,
        number: 1,
        systemPrompt: p.systemPrompt,
        modelSettings: JSON.stringify(p.modelSettings ?? {}),
        tools: JSON.stringify(p.tools ?? []),
        createdAt: now,
      })
      .returning({ id: promptRevisions.id });
    await tx.update(prompts).set({ currentRevisionId: rev.id }).where(eq(prompts.id, id));
    return id;
  });
}

/**
 * Number of live cases per source in a system (the Cases tab's source chips), within the prompt
 * and status filters when given (the search box is not applied: that would scan every case).
 * @returns source → count; sources without cases are left out
 */
export async function caseCountsBySource(
  db: Db,
  systemId: string,
  within: { promptId?: number; status?: "active" | "paused" } = {},
): Promise<Record<string, number>> {
  // Read from the trigger-maintained counters (migration 0002), not a scan of every case.
  const prompt = within.promptId === undefined ? sql`` : sql` AND prompt_id = ${within.promptId}`;
  const status = within.status === undefined ? sql`` : sql` AND status = ${within.status}`;
  const rows = await rawRows<{ source: string; n: number }>(
    db,
    sql`SELECT source, sum(n) AS n FROM case_counts WHERE system_id = ${systemId}${prompt}${status} GROUP BY source`,
  );
  return Object.fromEntries(rows.filter((r) => r.n > 0).map((r) => [r.source, r.n]));
}
