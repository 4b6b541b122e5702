/**
 * Validation of library forms (Add/Edit case, Add/Edit criterion). Shells parse untrusted input
 * with these zod schemas (DESIGN.md §2); the messages name the field and state the limit.
 */
import { z } from "zod";
import { TURN_ROLES, type CaseContent } from "./case-content";
import { LIMITS } from "./limits";
import { validateEvaluatorSpecs } from "../evaluators/validate";

const text = (label: string, max: number) =>
  z.string({ error: `${label} must be text.` }).max(max, { error: `${label} is too long: the limit is ${max.toLocaleString("en-US")} characters.` });

const required = (label: string, max: number) => text(label, max).refine((v) => v.trim().length > 0, { error: `${label} is required.` });

const turnSchema = z
  .object({
    role: z.enum(TURN_ROLES, { error: "Role must be user, assistant, system or tool." }),
    content: text("Turn text", LIMITS.turnContent),
    replayable: z.boolean().optional(),
    note: z.string().optional(),
    raw: z.string().optional(),
  })
  // An empty turn says nothing; an imported turn kept only as raw JSON (a tool call) may be empty.
  .refine((t) => t.content.trim() !== "" || Boolean(t.raw), { error: "Turn text is required (remove the turn if it is not needed).", path: ["content"] });

const nameValueList = (label: string) =>
  z
    .array(
      z.object({
        name: required(`${label} name`, LIMITS.name),
        value: text(`${label} value`, LIMITS.value),
      }),
    )
    .max(LIMITS.nameValueRows, { error: `At most ${LIMITS.nameValueRows} ${label.toLowerCase()} rows.` })
    .superRefine((rows, ctx) => {
      const seen = new Set<string>();
      rows.forEach((row, i) => {
        const key = row.name.trim();
        if (seen.has(key)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `${label} "${key}" appears twice.` });
        seen.add(key);
      });
    });

/** The editable part of a case, as the Add/Edit forms send it. */
export const caseFieldsSchema = z
  .object({
    input: required("Input", LIMITS.input),
    expected: required("Expected result", LIMITS.expected),
    notes: text("Notes", LIMITS.notes).default(""),
    history: z
      .array(turnSchema)
      .max(LIMITS.turns, { error: `At most ${LIMITS.turns} conversation turns.` })
      .default([]),
    variables: nameValueList("Variable").default([]),
    context: nameValueList("Context").default([]),
    evaluators: z
      .array(z.unknown())
      .max(LIMITS.evaluators, { error: `At most ${LIMITS.evaluators} evaluators per case.` })
      .default([]),
  })
  .superRefine((f, ctx) => {
    // Configuration mistakes are reported when the case is saved, never later as model failures.
    for (const p of validateEvaluatorSpecs(f.evaluators, { expected: f.expected })) {
      ctx.addIssue({ code: "custom", path: ["evaluators", p.index], message: `Evaluator ${p.index + 1}${p.field ? ` (${p.field})` : ""}: ${p.message}` });
    }
  });
/** Case fields as forms send them; `evaluators` absent means "keep the current ones". */
export type CaseFields = Omit<z.infer<typeof caseFieldsSchema>, "evaluators"> & { evaluators?: unknown[] };

/** Add case: fields plus the target prompt and an optional case ID. */
export const addCaseSchema = z.intersection(
  caseFieldsSchema,
  z.object({
    systemId: z.string().min(1),
    promptId: z.coerce.number({ error: "Choose the target prompt." }).int().positive({ error: "Choose the target prompt." }),
    caseKey: z
      .string()
      .max(LIMITS.caseId + 1)
      .default(""),
  }),
);
export type AddCaseInput = z.infer<typeof addCaseSchema>;

/** Save for future benches: fields plus the case and the revision the edit started from. */
export const editCaseSchema = z.intersection(
  caseFieldsSchema,
  z.object({
    caseId: z.coerce.number().int().positive(),
    baseRevision: z.coerce.number().int().positive(),
  }),
);
export type EditCaseInput = z.infer<typeof editCaseSchema>;

/** A criterion's content (rule, what passes, what fails, priority). */
export const criterionFieldsSchema = z.object({
  rule: required("Rule", LIMITS.criterionRule),
  passes: required("What passes", LIMITS.criterionPassFail),
  fails: required("What fails", LIMITS.criterionPassFail),
  priority: z.enum(["primary", "secondary"], { error: "Priority must be primary or secondary." }),
});
export type CriterionFields = z.infer<typeof criterionFieldsSchema>;

export const addCriterionSchema = criterionFieldsSchema.extend({
  systemId: z.string().min(1),
  promptId: z.coerce.number({ error: "Choose the prompt." }).int().positive({ error: "Choose the prompt." }),
});

export const editCriterionSchema = criterionFieldsSchema.extend({
  criterionId: z.coerce.number().int().positive(),
  baseRevision: z.coerce.number().int().positive(),
});

/**
 * Turns a zod error into `{ "history.2.content": "message" }` plus a one-line summary.
 * The first message of each field wins.
 */
export function fieldErrorsOf(error: z.ZodError): { message: string; fieldErrors: Record<string, string> } {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "_form";
    if (!(key in fieldErrors)) fieldErrors[key] = issue.message;
  }
  const first = error.issues[0]?.message ?? "The form has errors.";
  const count = Object.keys(fieldErrors).length;
  return { message: count > 1 ? `${first} (and ${count - 1} more problem${count > 2 ? "s" : ""})` : first, fieldErrors };
}

/** Trims the text fields a user typed, without touching inner whitespace (it may matter to a check). */
export function normaliseCaseFields(f: CaseFields): CaseFields {
  return {
    ...f,
    variables: f.variables.map((r) => ({ name: r.name.trim(), value: r.value })),
    context: f.context.map((r) => ({ name: r.name.trim(), value: r.value })),
  };
}

/** Applies edited fields to an existing content, keeping what the form does not edit (recorded outputs, evaluators …). */
export function mergeCaseFields(base: CaseContent, f: CaseFields): CaseContent {
  return {
    ...base,
    input: f.input,
    expected: f.expected,
    notes: f.notes,
    history: f.history,
    variables: f.variables,
    context: f.context,
    evaluators: f.evaluators ?? base.evaluators,
  };
}
