/** Prompt revisions (immutable snapshots of a prompt: system prompt template, model settings, tools). */
import { desc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { promptRevisions } from "../schema";
import type { ModelSettings, PromptTool } from "./systems";

/** A decoded prompt revision. */
export interface PromptRevision {
  id: number;
  promptId: number;
  number: number;
  systemPrompt: string;
  modelSettings: ModelSettings;
  tools: PromptTool[];
  createdAt: number;
}

function decode(r: typeof promptRevisions.$inferSelect): PromptRevision {
  return {
    id: r.id,
    promptId: r.promptId,
    number: r.number,
    systemPrompt: r.systemPrompt,
    modelSettings: JSON.parse(r.modelSettings) as ModelSettings,
    tools: JSON.parse(r.tools) as PromptTool[],
    createdAt: r.createdAt,
  };
}

/** One revision by id, or null. */
export async function getPromptRevision(db: Db, id: number): Promise<PromptRevision | null> {
  const r = db.select().from(promptRevisions).where(eq(promptRevisions.id, id)).get();
  return r ? decode(r) : null;
}

/** Every revision of a prompt, newest first. */
export async function listPromptRevisions(db: Db, promptId: number): Promise<PromptRevision[]> {
  return db.select().from(promptRevisions).where(eq(promptRevisions.promptId, promptId)).orderBy(desc(promptRevisions.number)).all().map(decode);
}
