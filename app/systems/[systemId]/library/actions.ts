"use server";

/**
 * Server actions of the Test library. Each re-validates its input with zod, calls db/queries, and
 * returns an ActionResult; the page is revalidated so lists show the change.
 */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { addCase, removeCase, saveCaseRevision, setCaseStatus } from "@/db/queries/cases";
import { addCriterion, customizeCriterion, editCriterion, setCriterionStatus } from "@/db/queries/criteria";
import { addCaseSchema, addCriterionSchema, editCaseSchema, editCriterionSchema, normaliseCaseFields } from "@/lib/library/forms";
import { emptyCaseContent } from "@/lib/library/case-content";
import { runAction, type ActionResult } from "@/lib/shell/result";

const libraryPath = (systemId: string) => `/systems/${systemId}/library`;

function refresh(systemId: string) {
  revalidatePath(libraryPath(systemId), "layout");
  revalidatePath("/");
}

/** Add case: stores revision 1 with source `custom`. */
export async function addCaseAction(input: unknown): Promise<ActionResult<{ id: number; caseKey: string }>> {
  return runAction(addCaseSchema, input, async (v) => {
    const f = normaliseCaseFields(v);
    const r = await addCase(getDb(), {
      systemId: v.systemId,
      promptId: v.promptId,
      caseKey: v.caseKey,
      source: "custom",
      content: { ...emptyCaseContent(), input: f.input, expected: f.expected, notes: f.notes, history: f.history, variables: f.variables, context: f.context },
    });
    refresh(v.systemId);
    return r;
  });
}

/** Save for future benches: a new case revision, refused when the case moved past `baseRevision`. */
export async function saveCaseAction(systemId: string, input: unknown): Promise<ActionResult<{ revisionNumber: number }>> {
  return runAction(editCaseSchema, input, async (v) => {
    const r = await saveCaseRevision(getDb(), v.caseId, v.baseRevision, normaliseCaseFields(v));
    refresh(systemId);
    return r;
  });
}

const statusSchema = z.object({ caseId: z.coerce.number().int().positive(), status: z.enum(["active", "paused"]) });

/** Pause or Resume a case. */
export async function setCaseStatusAction(systemId: string, input: unknown): Promise<ActionResult<{ caseKey: string }>> {
  return runAction(statusSchema, input, async (v) => {
    const r = await setCaseStatus(getDb(), v.caseId, v.status);
    refresh(systemId);
    return r;
  });
}

/** Remove a custom or user-corrected case (its saved details are erased; bench scores stay). */
export async function removeCaseAction(systemId: string, input: unknown): Promise<ActionResult<{ caseKey: string }>> {
  return runAction(z.object({ caseId: z.coerce.number().int().positive() }), input, async (v) => {
    const r = await removeCase(getDb(), v.caseId);
    refresh(systemId);
    return r;
  });
}

/** Add a custom criterion to a prompt. */
export async function addCriterionAction(input: unknown): Promise<ActionResult<{ id: number }>> {
  return runAction(addCriterionSchema, input, async (v) => {
    const id = await addCriterion(getDb(), { systemId: v.systemId, promptId: v.promptId, fields: { rule: v.rule, passes: v.passes, fails: v.fails, priority: v.priority } });
    refresh(v.systemId);
    return { id };
  });
}

/** Edit a custom criterion: a new criterion revision. */
export async function editCriterionAction(systemId: string, input: unknown): Promise<ActionResult<{ revisionNumber: number }>> {
  return runAction(editCriterionSchema, input, async (v) => {
    const r = await editCriterion(getDb(), v.criterionId, v.baseRevision, { rule: v.rule, passes: v.passes, fails: v.fails, priority: v.priority });
    refresh(systemId);
    return r;
  });
}

/** Pause or Resume a criterion. */
export async function setCriterionStatusAction(systemId: string, input: unknown): Promise<ActionResult<null>> {
  return runAction(z.object({ criterionId: z.coerce.number().int().positive(), status: z.enum(["active", "paused"]) }), input, async (v) => {
    await setCriterionStatus(getDb(), v.criterionId, v.status);
    refresh(systemId);
    return null;
  });
}

/** Customize a generated criterion: a custom copy, the generated one paused. */
export async function customizeCriterionAction(systemId: string, input: unknown): Promise<ActionResult<{ id: number }>> {
  return runAction(z.object({ criterionId: z.coerce.number().int().positive() }), input, async (v) => {
    const id = await customizeCriterion(getDb(), v.criterionId);
    refresh(systemId);
    return { id };
  });
}
