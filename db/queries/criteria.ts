/**
 * Criteria and criterion revisions. Custom criteria are edited by new revisions (optimistic, like
 * cases); generated criteria are read-only records and offer Customize instead.
 */
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { first, isRowId } from "../rows";
import { transaction, type TxDb as Tx } from "../transaction";
import { criteria, criterionRevisions, prompts } from "../schema";
import { LibraryError } from "@/lib/library/errors";
import type { CriterionFields } from "@/lib/library/forms";
import { authorColumnsOf, type Author } from "@/lib/audit/author";
import { recordActivityTx } from "./activity";

/** A criterion with its current revision's content. */
export interface CriterionRow {
  id: number;
  systemId: string;
  promptId: number;
  origin: "custom" | "generated";
  status: "active" | "paused";
  revisionNumber: number;
  revisionId: number;
  customizedFromId: number | null;
  rule: string;
  passes: string;
  fails: string;
  priority: "primary" | "secondary";
  updatedAt: number;
}

const rowColumns = {
  id: criteria.id,
  systemId: criteria.systemId,
  promptId: criteria.promptId,
  origin: criteria.origin,
  status: criteria.status,
  revisionNumber: criteria.revisionNumber,
  revisionId: criterionRevisions.id,
  customizedFromId: criteria.customizedFromId,
  rule: criterionRevisions.rule,
  passes: criterionRevisions.passes,
  fails: criterionRevisions.fails,
  priority: criterionRevisions.priority,
  updatedAt: criteria.updatedAt,
};

/** The criteria of one prompt: custom first, then generated; oldest first within each. */
export async function listCriteria(db: Db, promptId: number): Promise<CriterionRow[]> {
  return db
    .select(rowColumns)
    .from(criteria)
    .innerJoin(criterionRevisions, eq(criterionRevisions.id, criteria.currentRevisionId))
    .where(eq(criteria.promptId, promptId))
    .orderBy(asc(criteria.origin), asc(criteria.createdAt), asc(criteria.id));
}

/** One criterion, or null (also for an id no row can have: NaN, a fraction, beyond 32 bits). */
export async function getCriterion(db: Db, id: number): Promise<CriterionRow | null> {
  if (!isRowId(id)) return null;
  return (
    (await first(
      db.select(rowColumns).from(criteria).innerJoin(criterionRevisions, eq(criterionRevisions.id, criteria.currentRevisionId)).where(eq(criteria.id, id)),
    )) ?? null
  );
}

/** Every revision of a criterion, newest first. */
export async function listCriterionRevisions(db: Db, id: number) {
  return db.select().from(criterionRevisions).where(eq(criterionRevisions.criterionId, id)).orderBy(desc(criterionRevisions.number));
}

async function insertTx(
  tx: Tx,
  c: { systemId: string; promptId: number; origin: "custom" | "generated"; customizedFromId?: number | null; fields: CriterionFields; author?: Author | null },
): Promise<number> {
  const p = await first(tx.select({ systemId: prompts.systemId }).from(prompts).where(eq(prompts.id, c.promptId)));
  if (!p || p.systemId !== c.systemId) {
    const msg = `Prompt #${c.promptId} does not exist in system "${c.systemId}".`;
    throw new LibraryError("validation", msg, { promptId: msg });
  }
  const now = Date.now();
  const { id } = (await first(
    tx
      .insert(criteria)
      .values({ systemId: c.systemId, promptId: c.promptId, origin: c.origin, customizedFromId: c.customizedFromId ?? null, createdAt: now, updatedAt: now })
      .returning({ id: criteria.id }),
  ))!;
  const rev = (await first(
    tx
      .insert(criterionRevisions)
      .values({ criterionId: id, number: 1, ...c.fields, createdAt: now, ...authorColumnsOf(c.author) })
      .returning({ id: criterionRevisions.id }),
  ))!;
  await tx.update(criteria).set({ currentRevisionId: rev.id }).where(eq(criteria.id, id));
  await recordActivityTx(
    tx,
    c.author,
    { action: "criterion.add", subjectType: "criterion", subjectId: id, systemId: c.systemId, detail: c.fields.rule.slice(0, 80) },
    now,
  );
  return id;
}

/**
 * Adds a criterion (revision 1). `origin: "generated"` is for rubric generation and the demo seed.
 * @throws LibraryError `validation` for a prompt outside the system, or a custom criterion whose
 *   rule an active criterion of the prompt already has
 */
export async function addCriterion(
  db: Db,
  c: { systemId: string; promptId: number; origin?: "custom" | "generated"; fields: CriterionFields; author?: Author | null },
): Promise<number> {
  return transaction(db, async (tx) => {
    const origin = c.origin ?? "custom";
    if (origin === "custom") await refuseDuplicateRuleTx(tx, c.promptId, c.fields.rule, null);
    return insertTx(tx, { ...c, origin });
  });
}

/**
 * Adds a criterion (revision 1) inside an open write transaction, refusing a rule an active
 * criterion of the prompt already has (whatever the origin): for accepting generated proposals.
 * @returns the new criterion's id
 * @throws LibraryError `validation` (prompt outside the system, or the rule is already in the rubric)
 */
export async function addCriterionTx(
  tx: Tx,
  c: { systemId: string; promptId: number; origin: "custom" | "generated"; fields: CriterionFields; author?: Author | null },
): Promise<number> {
  await refuseDuplicateRuleTx(tx, c.promptId, c.fields.rule, null);
  return insertTx(tx, c);
}

/**
 * A rule as compared for duplicates: Unicode-normalized (NFKC), invisible format characters such as
 * zero-width spaces removed, spacing collapsed, case folded. Punctuation still counts.
 */
const ruleKey = (rule: string) =>
  rule
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .trim()
    .replace(/\s+/g, " ")
    .toLowerCase();

/** The active criterion of the prompt (other than `exceptId`) whose rule is `rule`, if any. */
async function activeTwinTx(tx: Tx, promptId: number, rule: string, exceptId: number | null): Promise<{ id: number; rule: string } | undefined> {
  const key = ruleKey(rule);
  return (
    await tx
      .select({ id: criteria.id, rule: criterionRevisions.rule })
      .from(criteria)
      .innerJoin(criterionRevisions, eq(criterionRevisions.id, criteria.currentRevisionId))
      .where(and(eq(criteria.promptId, promptId), eq(criteria.status, "active")))
  ).find((c) => c.id !== exceptId && ruleKey(c.rule) === key);
}

/**
 * Refuses a new or changed `rule` that another active criterion of the prompt already has: the
 * rubric would judge it twice (double weight in pass rates, two judge calls per trial).
 * @throws LibraryError `validation`, with the criterion that has the rule named on field `rule`
 */
async function refuseDuplicateRuleTx(tx: Tx, promptId: number, rule: string, exceptId: number | null): Promise<void> {
  const twin = await activeTwinTx(tx, promptId, rule, exceptId);
  if (twin) {
    throw new LibraryError("validation", "This rule is already in the rubric.", {
      rule: `The active criterion “${twin.rule}” already has this rule, so the rubric would judge it twice. Edit or pause that one, or word this rule differently.`,
    });
  }
}

async function loadTx(tx: Tx, id: number) {
  const c = await first(tx.select().from(criteria).where(eq(criteria.id, id)));
  if (!c) throw new LibraryError("not_found", `Criterion #${id} does not exist.`);
  return c;
}

/**
 * Edit: stores the fields as a new revision of a custom criterion. Benches that ran keep the
 * revision they pinned.
 * @throws LibraryError `not_allowed` for generated criteria (use Customize), `conflict` when the
 *   criterion moved past `baseRevision`, `unchanged` when nothing differs, `validation` when an
 *   active criterion of the prompt already has the new rule.
 */
export async function editCriterion(
  db: Db,
  id: number,
  baseRevision: number,
  fields: CriterionFields,
  author?: Author | null,
): Promise<{ revisionNumber: number }> {
  return transaction(db, async (tx) => {
    const c = await loadTx(tx, id);
    if (c.origin === "generated") throw new LibraryError("not_allowed", "Generated criteria are read-only. Use Customize to make an editable copy.");
    if (c.revisionNumber !== baseRevision) {
      throw new LibraryError(
        "conflict",
        `This criterion was changed while you edited it: you started from revision ${baseRevision}, it is now at revision ${c.revisionNumber}. Nothing was saved; your text is still in the form.`,
      );
    }
    const cur = (await first(tx.select().from(criterionRevisions).where(eq(criterionRevisions.id, c.currentRevisionId!))))!;
    if (cur.rule === fields.rule && cur.passes === fields.passes && cur.fails === fields.fails && cur.priority === fields.priority) {
      throw new LibraryError("unchanged", "Nothing changed since the current revision; no new revision was made.");
    }
    // Only a changed rule is checked: twins made before this check can still have other fields edited.
    if (c.status === "active" && ruleKey(fields.rule) !== ruleKey(cur.rule)) await refuseDuplicateRuleTx(tx, c.promptId, fields.rule, id);
    const now = Date.now();
    const number = c.revisionNumber + 1;
    const rev = (await first(
      tx
        .insert(criterionRevisions)
        .values({ criterionId: id, number, ...fields, createdAt: now, ...authorColumnsOf(author) })
        .returning({ id: criterionRevisions.id }),
    ))!;
    await recordActivityTx(
      tx,
      author,
      { action: "criterion.revise", subjectType: "criterion", subjectId: id, systemId: c.systemId, detail: `r${number}: ${fields.rule.slice(0, 70)}` },
      now,
    );
    await tx
      .update(criteria)
      .set({ currentRevisionId: rev.id, revisionNumber: number, updatedAt: now })
      .where(and(eq(criteria.id, id), eq(criteria.revisionNumber, baseRevision)));
    return { revisionNumber: number };
  });
}

/**
 * Pause (out of the rubric of future benches) or Resume a criterion. Idempotent.
 * @throws LibraryError `validation` when resuming beside an active criterion with the same rule
 */
export async function setCriterionStatus(db: Db, id: number, status: "active" | "paused", author?: Author | null): Promise<void> {
  await transaction(db, async (tx) => {
    const c = await loadTx(tx, id);
    if (status === "active" && c.status !== "active") {
      const rev = (await first(tx.select({ rule: criterionRevisions.rule }).from(criterionRevisions).where(eq(criterionRevisions.id, c.currentRevisionId!))))!;
      const twin = await activeTwinTx(tx, c.promptId, rev.rule, id);
      if (twin) throw new LibraryError("validation", `Not resumed: the active criterion “${twin.rule}” has the same rule; pause it first.`);
    }
    if (c.status !== status) {
      await tx.update(criteria).set({ status, updatedAt: Date.now() }).where(eq(criteria.id, id));
      await recordActivityTx(tx, author, {
        action: status === "paused" ? "criterion.pause" : "criterion.resume",
        subjectType: "criterion",
        subjectId: id,
        systemId: c.systemId,
      });
    }
  });
}

/**
 * Customize a generated criterion: creates a custom criterion with the same content (linked by
 * `customizedFromId`) and pauses the generated one, so the rubric does not judge the rule twice.
 * The generated record itself is never changed otherwise.
 * @returns the new custom criterion's id
 * @throws LibraryError `not_allowed` when the criterion is not generated, or an active criterion
 *   already has its rule (it was customized before)
 */
export async function customizeCriterion(db: Db, generatedId: number, author?: Author | null): Promise<number> {
  return transaction(db, async (tx) => {
    const g = await loadTx(tx, generatedId);
    if (g.origin !== "generated") throw new LibraryError("not_allowed", "Only generated criteria can be customized; edit this one directly.");
    const rev = (await first(tx.select().from(criterionRevisions).where(eq(criterionRevisions.id, g.currentRevisionId!))))!;
    const twin = await activeTwinTx(tx, g.promptId, rev.rule, g.id);
    if (twin)
      throw new LibraryError("not_allowed", `This criterion is already customized: the active criterion “${twin.rule}” has its rule. Edit that one instead.`);
    const id = await insertTx(tx, {
      systemId: g.systemId,
      promptId: g.promptId,
      origin: "custom",
      customizedFromId: g.id,
      fields: { rule: rev.rule, passes: rev.passes, fails: rev.fails, priority: rev.priority },
      author,
    });
    if (g.status !== "paused") await tx.update(criteria).set({ status: "paused", updatedAt: Date.now() }).where(eq(criteria.id, g.id));
    return id;
  });
}

/**
 * The rubric of a prompt: its active criteria's current revisions (DESIGN.md §1). A bench pins
 * these revision ids.
 */
export async function activeRubric(db: Db, promptId: number): Promise<CriterionRow[]> {
  return (await listCriteria(db, promptId)).filter((c) => c.status === "active");
}

/** Criterion revisions by id (to show a pinned rubric as it was). */
export async function criterionRevisionsByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db.select().from(criterionRevisions).where(inArray(criterionRevisions.id, ids));
}
