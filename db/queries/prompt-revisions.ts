/** Prompt revisions (immutable snapshots of a prompt: system prompt template, model settings, tools). */
import { and, desc, eq, max } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { transaction } from "../transaction";
import { promptRevisions, prompts } from "../schema";
import type { ModelSettings, PromptTool } from "./systems";
import { LibraryError } from "@/lib/library/errors";
import { diffPromptRevisions } from "@/lib/prompts/diff";
import { authorColumnsOf, type Author } from "@/lib/audit/author";
import { recordActivityTx } from "./activity";

/** A decoded prompt revision. `message` says why it was made ("" for a first revision). */
export interface PromptRevision {
  id: number;
  promptId: number;
  number: number;
  systemPrompt: string;
  modelSettings: ModelSettings;
  tools: PromptTool[];
  message: string;
  createdAt: number;
  /** Who saved it (issue 19): e-mail, `local` in single-user mode, null when not recorded. */
  authorEmail: string | null;
}

function decode(r: typeof promptRevisions.$inferSelect): PromptRevision {
  return {
    id: r.id,
    promptId: r.promptId,
    number: r.number,
    systemPrompt: r.systemPrompt,
    modelSettings: JSON.parse(r.modelSettings) as ModelSettings,
    tools: JSON.parse(r.tools) as PromptTool[],
    message: r.message,
    authorEmail: r.authorEmail ?? null,
    createdAt: r.createdAt,
  };
}

/** One revision by id, or null. */
export async function getPromptRevision(db: Db, id: number): Promise<PromptRevision | null> {
  const r = await first(db.select().from(promptRevisions).where(eq(promptRevisions.id, id)));
  return r ? decode(r) : null;
}

/** One revision of a prompt by its number (r1 = 1), or null. */
export async function getPromptRevisionByNumber(db: Db, promptId: number, number: number): Promise<PromptRevision | null> {
  const r = await first(
    db
      .select()
      .from(promptRevisions)
      .where(and(eq(promptRevisions.promptId, promptId), eq(promptRevisions.number, number))),
  );
  return r ? decode(r) : null;
}

/** Every revision of a prompt, newest first. */
export async function listPromptRevisions(db: Db, promptId: number): Promise<PromptRevision[]> {
  return (await db.select().from(promptRevisions).where(eq(promptRevisions.promptId, promptId)).orderBy(desc(promptRevisions.number))).map(decode);
}

/** The content of a new prompt revision (validated by the caller, see lib/prompts/edit.ts). */
export interface PromptRevisionFields {
  systemPrompt: string;
  modelSettings: ModelSettings;
  tools: PromptTool[];
  /** Why this change ("tighten refund wording"); required. */
  message: string;
}

/**
 * Edit: stores `fields` as a new immutable revision (number = last + 1) and makes it the prompt's
 * current one, in one transaction. Earlier revisions and the benches that pinned them are untouched.
 * @param baseRevisionId the revision the edit was opened from (must still be current)
 * @returns the new revision's id and number
 * @throws LibraryError `not_found` (no such prompt); `validation` (blank message, field `message`);
 *   `conflict` when the prompt moved past the base (nothing is saved, the caller keeps the user's
 *   text); `unchanged` when template, settings and tools equal the base's
 */
export async function savePromptRevision(
  db: Db,
  promptId: number,
  baseRevisionId: number,
  fields: PromptRevisionFields,
  author?: Author | null,
): Promise<{ id: number; number: number }> {
  return transaction(db, async (tx) => {
    const p = await first(tx.select().from(prompts).where(eq(prompts.id, promptId)));
    if (!p) throw new LibraryError("not_found", `Prompt #${promptId} does not exist.`);
    const message = fields.message.trim();
    if (!message)
      throw new LibraryError("validation", "Say why you made this change (a short message).", { message: "Say why you made this change (a short message)." });
    const current =
      p.currentRevisionId == null ? null : decode((await first(tx.select().from(promptRevisions).where(eq(promptRevisions.id, p.currentRevisionId))))!);
    if (!current || current.id !== baseRevisionId) {
      const base = await first(
        tx
          .select({ number: promptRevisions.number })
          .from(promptRevisions)
          .where(and(eq(promptRevisions.id, baseRevisionId), eq(promptRevisions.promptId, promptId))),
      );
      throw new LibraryError(
        "conflict",
        `Prompt "${p.name}" was changed while you edited it: you started from ${base ? `r${base.number}` : `revision #${baseRevisionId}`}, it is now at ${current ? `r${current.number}${current.message ? ` ("${current.message}")` : ""}` : "no revision"}. Nothing was saved; your edits are still in the form. Open the latest revision, then apply them again.`,
      );
    }
    if (diffPromptRevisions(current, fields).same) {
      throw new LibraryError(
        "unchanged",
        `Nothing changed since r${current.number}: the template, model settings and tools are the same. No new revision was made.`,
      );
    }
    const last =
      (
        await first(
          tx
            .select({ n: max(promptRevisions.number) })
            .from(promptRevisions)
            .where(eq(promptRevisions.promptId, promptId)),
        )
      )?.n ?? 0;
    const [rev] = await tx
      .insert(promptRevisions)
      .values({
        promptId,
        number: last + 1,
        systemPrompt: fields.systemPrompt,
        modelSettings: JSON.stringify(fields.modelSettings),
        tools: JSON.stringify(fields.tools),
        message,
        createdAt: Date.now(),
        ...authorColumnsOf(author),
      })
      .returning({ id: promptRevisions.id });
    await recordActivityTx(tx, author, {
      action: "prompt.revise",
      subjectType: "prompt",
      subjectId: promptId,
      systemId: p.systemId,
      detail: `${p.name} r${last + 1}: ${message.slice(0, 80)}`,
    });
    // Guarded by the base: a concurrent save that got here first leaves nothing to update.
    const updated = await tx
      .update(prompts)
      .set({ currentRevisionId: rev.id })
      .where(and(eq(prompts.id, promptId), eq(prompts.currentRevisionId, baseRevisionId)))
      .returning({ id: prompts.id });
    if (updated.length !== 1) throw new LibraryError("conflict", `Prompt "${p.name}" was changed while you edited it. Nothing was saved.`);
    return { id: rev.id, number: last + 1 };
  });
}
