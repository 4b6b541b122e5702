/** Test helpers: an in-memory database with every migration and a tiny two-prompt system. */
import { openMemoryDatabase, type Db } from "./client";
import { createPrompt, createSystem } from "./queries/systems";
import { emptyCaseContent, type CaseContent } from "@/lib/library/case-content";

/** A fresh migrated in-memory database with system `acme` (prompts `agent`, `router`). */
export async function makeTestDb(): Promise<{ db: Db; systemId: string; agentId: number; routerId: number }> {
  const db = openMemoryDatabase();
  await createSystem(db, { id: "acme", name: "Acme support" });
  const agentId = await createPrompt(db, { systemId: "acme", name: "agent", systemPrompt: "You help {{customer}}." });
  const routerId = await createPrompt(db, { systemId: "acme", name: "router", systemPrompt: "Route the message." });
  return { db, systemId: "acme", agentId, routerId };
}

/** Case content with the given input/expected and defaults elsewhere. */
export function content(input: string, expected: string, more: Partial<CaseContent> = {}): CaseContent {
  return { ...emptyCaseContent(), input, expected, ...more };
}
