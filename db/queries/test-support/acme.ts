/**
 * System `acme` with prompts `agent` and `router` on either store, written with drizzle builders
 * directly (db/testing.ts's makeTestDb goes through db/queries/systems.ts, SQLite-only until that
 * module is converted, issue 20).
 */
import type { Db } from "../../client";
import { first } from "../../rows";
import { prompts, systems } from "../../schema";

/** Inserts system `acme` ("Acme support") and its prompts `agent` and `router` (no revisions). */
export async function seedAcme(db: Db): Promise<{ systemId: string; agentId: number; routerId: number }> {
  const now = Date.now();
  await db.insert(systems).values({ id: "acme", name: "Acme support", description: "", createdAt: now });
  const prompt = async (name: string) =>
    (await first(db.insert(prompts).values({ systemId: "acme", name, description: "", createdAt: now }).returning({ id: prompts.id })))!.id;
  return { systemId: "acme", agentId: await prompt("agent"), routerId: await prompt("router") };
}
