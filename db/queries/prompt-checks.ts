/**
 * A prompt's default checks (issue 15): evaluator specs that every case of the prompt without an
 * evaluator of its own inherits. Stored as JSON in `prompt_default_checks`; no row = none.
 * Validation is the caller's (server/prompt-checks.ts).
 */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { transaction } from "../transaction";
import { promptDefaultChecks, prompts } from "../schema";
import { LibraryError } from "@/lib/library/errors";

/** The default checks of a prompt (evaluator specs), `[]` when it has none. */
export async function getPromptDefaultChecks(db: Db, promptId: number): Promise<unknown[]> {
  const row = await first(db.select({ checks: promptDefaultChecks.checks }).from(promptDefaultChecks).where(eq(promptDefaultChecks.promptId, promptId)));
  return row ? (JSON.parse(row.checks) as unknown[]) : [];
}

/**
 * Replaces a prompt's default checks.
 * @param checks evaluator specs, already validated
 * @throws LibraryError `validation` when the prompt is not one of the system's
 */
export async function setPromptDefaultChecks(db: Db, systemId: string, promptId: number, checks: unknown[], now = Date.now()): Promise<void> {
  await transaction(db, async (tx) => {
    const p = await first(tx.select({ systemId: prompts.systemId }).from(prompts).where(eq(prompts.id, promptId)));
    if (!p || p.systemId !== systemId) {
      const msg = `Prompt #${promptId} does not exist in system "${systemId}". Choose one of the system's prompts.`;
      throw new LibraryError("validation", msg, { promptId: msg });
    }
    const json = JSON.stringify(checks);
    await tx
      .insert(promptDefaultChecks)
      .values({ promptId, checks: json, updatedAt: now })
      .onConflictDoUpdate({ target: promptDefaultChecks.promptId, set: { checks: json, updatedAt: now } });
  });
}
