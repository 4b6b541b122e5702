/**
 * Prompt workflows (README "Prompts"): review an edit before it is saved (the variables some active
 * cases lack, a stale base, nothing changed), and save it as a new immutable revision.
 */
import type { Db } from "@/db/client";
import { listPromptCases } from "@/db/queries/cases";
import { getPromptDefaultChecks } from "@/db/queries/prompt-checks";
import { listPromptRevisions, savePromptRevision, type PromptRevision } from "@/db/queries/prompt-revisions";
import { getPrompt, listPrompts, type PromptWithRevision } from "@/db/queries/systems";
import { LibraryError } from "@/lib/library/errors";
import type { Author } from "@/lib/audit/author";
import { diffPromptRevisions } from "@/lib/prompts/diff";
import type { PromptEdit } from "@/lib/prompts/edit";
import { variablesMissingFromCases, type MissingVariable } from "@/lib/prompts/variables";

async function promptOf(db: Db, systemId: string, promptId: number): Promise<PromptWithRevision & { revision: NonNullable<PromptWithRevision["revision"]> }> {
  const p = await getPrompt(db, promptId);
  if (!p || p.systemId !== systemId || !p.revision) throw new LibraryError("not_found", `Prompt #${promptId} does not exist in system "${systemId}".`);
  return p as PromptWithRevision & { revision: NonNullable<PromptWithRevision["revision"]> };
}

/**
 * Review before saving: nothing is written.
 * @returns the template variables some active cases lack (the plan would exclude those cases)
 * @throws LibraryError `not_found`, `conflict` (the prompt moved past the base: same message as a
 *   save would give), `unchanged`
 */
export async function reviewPromptEdit(db: Db, systemId: string, edit: PromptEdit): Promise<{ missing: MissingVariable[] }> {
  const p = await promptOf(db, systemId, edit.promptId);
  if (p.revision.id !== edit.baseRevisionId) {
    // Let the query word the conflict, so review and save say the same thing; it throws before writing.
    await savePromptRevision(db, p.id, edit.baseRevisionId, edit);
  }
  const active = (await listPromptCases(db, p.id))
    .filter((c) => c.status === "active")
    .map((c) => ({ caseKey: c.caseKey, variables: c.content.variables ?? [] }));
  const missing = variablesMissingFromCases(edit.systemPrompt, p.revision.systemPrompt, active);
  if (diffPromptRevisions(p.revision, edit).same) {
    throw new LibraryError(
      "unchanged",
      `Nothing changed since r${p.revision.number}: the template, model settings and tools are the same. No new revision was made.`,
    );
  }
  return { missing };
}

/**
 * Saves an edit as a new revision of a prompt of `systemId`.
 * @returns the new revision's id and number
 * @throws LibraryError `not_found`, `conflict`, `unchanged`, `validation` (see savePromptRevision)
 */
export async function savePromptEdit(
  db: Db,
  systemId: string,
  edit: PromptEdit,
  author?: Author | null,
): Promise<{ id: number; number: number; promptName: string }> {
  const p = await promptOf(db, systemId, edit.promptId);
  const saved = await savePromptRevision(db, p.id, edit.baseRevisionId, edit, author);
  return { ...saved, promptName: p.name };
}

/** What the Prompt pages show: the prompt, its current revision and every revision, newest first, and its default checks. */
export interface PromptPageData {
  prompt: PromptWithRevision & { revision: NonNullable<PromptWithRevision["revision"]> };
  revisions: PromptRevision[];
  current: PromptRevision;
  /** Evaluator specs every case of the prompt without a check of its own inherits. */
  defaultChecks: unknown[];
}

/**
 * Loads a prompt of a system by name with its revision history.
 * @returns null when the system has no prompt of that name (or it has no revision)
 */
export async function promptPageData(db: Db, systemId: string, name: string): Promise<PromptPageData | null> {
  const p = (await listPrompts(db, systemId)).find((x) => x.name === name);
  if (!p?.revision) return null;
  const revisions = await listPromptRevisions(db, p.id);
  const current = revisions.find((r) => r.id === p.revision!.id)!;
  return { prompt: p as PromptPageData["prompt"], revisions, current, defaultChecks: await getPromptDefaultChecks(db, p.id) };
}
