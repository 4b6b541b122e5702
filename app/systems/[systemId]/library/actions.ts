"use server";

/**
 * Server actions of the Test library. Each re-validates its input with zod, calls db/queries, and
 * returns an ActionResult; the page is revalidated so lists show the change.
 */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { addCase, customizeCase, removeCase, saveCaseRevision, setCaseStatus } from "@/db/queries/cases";
import { addCriterion, customizeCriterion, editCriterion, setCriterionStatus } from "@/db/queries/criteria";
import { addCaseSchema, addCriterionSchema, editCaseSchema, editCriterionSchema, normaliseCaseFields } from "@/lib/library/forms";
import { emptyCaseContent } from "@/lib/library/case-content";
import { runAction, type ActionResult } from "@/lib/shell/result";
import { runChecks } from "@/lib/evaluators/registry";
import { getSharedSandbox } from "@/lib/evaluators/sandbox";
import { describeEvaluator } from "@/lib/evaluators/describe";
import { validateEvaluatorSpecs } from "@/lib/evaluators/validate";
import { LibraryError } from "@/lib/library/errors";
import { LIMITS } from "@/lib/library/limits";
import { savePromptDefaultChecks } from "@/server/prompt-checks";
import { BULK_CHECKS, BULK_MAX_CASES, bulkCaseCheck, type BulkCheckName } from "@/server/bulk-checks";
import { CASE_SOURCES, CASE_STATUSES } from "@/lib/library/case-content";
import { currentActor } from "@/server/auth/actor";
import { guardedAction } from "@/server/auth/guard";

const libraryPath = (systemId: string) => `/systems/${systemId}/library`;

function refresh(systemId: string) {
  revalidatePath(libraryPath(systemId), "layout");
  revalidatePath("/");
}

/** Add case: stores revision 1 with source `custom`. */
export const addCaseAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<{ id: number; caseKey: string }>> => {
  return runAction(addCaseSchema, input, async (v) => {
    const f = normaliseCaseFields(v);
    const r = await addCase(getDb(), {
      systemId: v.systemId,
      promptId: v.promptId,
      caseKey: v.caseKey,
      source: "custom",
      content: { ...emptyCaseContent(), input: f.input, expected: f.expected, notes: f.notes, history: f.history, variables: f.variables, context: f.context },
      author: await currentActor(),
    });
    refresh(v.systemId);
    return r;
  });
});

/** Save for future benches: a new case revision, refused when the case moved past `baseRevision`. */
export const saveCaseAction = guardedAction("editor", async (systemId: string, input: unknown): Promise<ActionResult<{ revisionNumber: number }>> => {
  return runAction(editCaseSchema, input, async (v) => {
    const r = await saveCaseRevision(getDb(), v.caseId, v.baseRevision, normaliseCaseFields(v), await currentActor());
    refresh(systemId);
    return r;
  });
});

const statusSchema = z.object({ caseId: z.coerce.number().int().positive(), status: z.enum(["active", "paused"]) });

/** Pause or Resume a case. */
export const setCaseStatusAction = guardedAction("editor", async (systemId: string, input: unknown): Promise<ActionResult<{ caseKey: string }>> => {
  return runAction(statusSchema, input, async (v) => {
    const r = await setCaseStatus(getDb(), v.caseId, v.status, await currentActor());
    refresh(systemId);
    return r;
  });
});

/** Remove a custom or user-corrected case (its saved details are erased; bench scores stay). */
export const removeCaseAction = guardedAction(
  "admin",
  async (systemId: string, input: unknown): Promise<ActionResult<{ caseKey: string; alsoRemoved: string[] }>> => {
    return runAction(z.object({ caseId: z.coerce.number().int().positive() }), input, async (v) => {
      const r = await removeCase(getDb(), v.caseId, await currentActor());
      refresh(systemId);
      return r;
    });
  },
);

/** Customize a generated case: an editable custom copy; the generated one is paused. */
export const customizeCaseAction = guardedAction("editor", async (systemId: string, input: unknown): Promise<ActionResult<{ id: number; caseKey: string }>> => {
  return runAction(z.object({ caseId: z.coerce.number().int().positive() }), input, async (v) => {
    const r = await customizeCase(getDb(), v.caseId, await currentActor());
    refresh(systemId);
    return r;
  });
});

/** Add a custom criterion to a prompt. */
export const addCriterionAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<{ id: number }>> => {
  return runAction(addCriterionSchema, input, async (v) => {
    const id = await addCriterion(getDb(), {
      systemId: v.systemId,
      promptId: v.promptId,
      fields: { rule: v.rule, passes: v.passes, fails: v.fails, priority: v.priority },
      author: await currentActor(),
    });
    refresh(v.systemId);
    return { id };
  });
});

/** Edit a custom criterion: a new criterion revision. */
export const editCriterionAction = guardedAction("editor", async (systemId: string, input: unknown): Promise<ActionResult<{ revisionNumber: number }>> => {
  return runAction(editCriterionSchema, input, async (v) => {
    const r = await editCriterion(
      getDb(),
      v.criterionId,
      v.baseRevision,
      { rule: v.rule, passes: v.passes, fails: v.fails, priority: v.priority },
      await currentActor(),
    );
    refresh(systemId);
    return r;
  });
});

/** Pause or Resume a criterion. */
export const setCriterionStatusAction = guardedAction("editor", async (systemId: string, input: unknown): Promise<ActionResult<null>> => {
  return runAction(z.object({ criterionId: z.coerce.number().int().positive(), status: z.enum(["active", "paused"]) }), input, async (v) => {
    await setCriterionStatus(getDb(), v.criterionId, v.status, await currentActor());
    refresh(systemId);
    return null;
  });
});

/** Customize a generated criterion: a custom copy, the generated one paused. */
export const customizeCriterionAction = guardedAction("editor", async (systemId: string, input: unknown): Promise<ActionResult<{ id: number }>> => {
  return runAction(z.object({ criterionId: z.coerce.number().int().positive() }), input, async (v) => {
    const id = await customizeCriterion(getDb(), v.criterionId, await currentActor());
    refresh(systemId);
    return { id };
  });
});

const trySchema = z.object({
  evaluators: z.array(z.unknown()).max(LIMITS.evaluators),
  output: z.string().max(200_000, { error: "Output is too long to try: the limit is 200,000 characters." }),
  toolCalls: z.string().max(200_000).default(""),
  input: z.string().max(LIMITS.input).default(""),
  expected: z.string().max(LIMITS.expected).default(""),
  caseData: z.record(z.string(), z.unknown()).nullable().default(null),
});

/**
 * Try it: runs the evaluators as edited (saved or not) on a pasted output and tool calls. Nothing
 * is stored. Configuration problems come back as a refusal naming the evaluator and field.
 */
export const tryEvaluatorsAction = guardedAction(
  "editor",
  async (
    systemId: string,
    input: unknown,
  ): Promise<ActionResult<{ kind: string; label: string; verdict: "passed" | "failed" | "unscored" | "error"; score: number; message: string }[]>> => {
    void systemId;
    return runAction(trySchema, input, async (v) => {
      const problems = validateEvaluatorSpecs(v.evaluators, { expected: v.expected });
      if (problems.length) {
        const p = problems[0];
        throw new LibraryError("validation", `Evaluator ${p.index + 1}${p.field ? ` (${p.field})` : ""}: ${p.message}`);
      }
      let toolCalls: unknown[] = [];
      if (v.toolCalls.trim()) {
        try {
          const parsed = JSON.parse(v.toolCalls);
          toolCalls = Array.isArray(parsed) ? parsed : [parsed];
        } catch (e) {
          throw new LibraryError(
            "validation",
            `Tool calls are not valid JSON: ${(e as Error).message}. Write a list such as [{"toolName": "get_order", "input": {"orderId": "order_123"}}].`,
          );
        }
      }
      const results = await runChecks(
        v.evaluators,
        { output: v.output, toolCalls, caseData: v.caseData, finishReason: "stop", context: { input: v.input, expected: v.expected } },
        { sandbox: await getSharedSandbox() },
      );
      return results.map((r, i) => ({ kind: r.kind, label: describeEvaluator(v.evaluators[i]), verdict: r.verdict, score: r.score, message: r.message }));
    });
  },
);

const defaultChecksSchema = z.object({
  systemId: z.string().min(1),
  promptId: z.coerce.number().int().positive(),
  checks: z.array(z.unknown()).max(LIMITS.evaluators, { error: `At most ${LIMITS.evaluators} default checks per prompt.` }),
});

/** A prompt's default checks (issue 15): validated on the server, then stored. */
export const savePromptDefaultChecksAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<null>> => {
  return runAction(defaultChecksSchema, input, async (v) => {
    await savePromptDefaultChecks(getDb(), v.systemId, v.promptId, v.checks);
    refresh(v.systemId);
    revalidatePath(`/systems/${v.systemId}/benches`, "layout");
    return null;
  });
});

const bulkCheckSchema = z.object({
  systemId: z.string().min(1),
  op: z.enum(["add", "remove"]),
  check: z.enum(Object.keys(BULK_CHECKS) as [BulkCheckName, ...BulkCheckName[]]),
  target: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("ids"), caseIds: z.array(z.coerce.number().int().positive()).max(BULK_MAX_CASES) }),
    z.object({
      kind: z.literal("filter"),
      filter: z.object({
        promptId: z.coerce.number().int().positive().optional(),
        source: z.enum(CASE_SOURCES).optional(),
        status: z.enum(CASE_STATUSES).optional(),
        q: z.string().max(LIMITS.searchQuery).optional(),
      }),
    }),
  ]),
});

/** Bulk action of the Cases tab: add or remove a check on the ticked rows or every case matching the filter (new revisions, one transaction). */
export const bulkCheckAction = guardedAction(
  "editor",
  async (input: unknown): Promise<ActionResult<{ revised: number; unchanged: number; noExpected: string[] }>> => {
    return runAction(bulkCheckSchema, input, async (v) => {
      const r = await bulkCaseCheck(getDb(), { systemId: v.systemId, op: v.op, check: v.check, target: v.target, author: await currentActor() });
      refresh(v.systemId);
      return r;
    });
  },
);
