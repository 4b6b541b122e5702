/**
 * The shapes the generator asks the model for (zod schemas sent as structured output) and checks
 * each returned item against. Items are validated one by one, so one bad item drops only itself.
 * Ranges and lengths are stated in descriptions and checked after parsing: some providers' strict
 * schema modes reject `minLength`/`maximum`.
 */
import { z } from "zod";

/** Longest text field of a proposal, in characters (a runaway model answer is refused, not stored). */
export const MAX_FIELD_CHARS = 4_000;

const text = (what: string) =>
  z.string().trim().min(1, "must not be empty").max(MAX_FIELD_CHARS, `must be at most ${MAX_FIELD_CHARS} characters`).describe(what);

/** One proposed criterion as the model writes it. */
export const criterionItemSchema = z.object({
  rule: text("One observable rule the answer must follow, as a short imperative sentence."),
  passes: text("What an answer that passes looks like."),
  fails: text("What an answer that fails looks like."),
  priority: z.enum(["primary", "secondary"]).describe("primary: breaking it makes the answer wrong; secondary: a quality preference."),
  check: z
    .enum(["static", "judge", "unobservable"])
    .describe(
      "static: a code evaluator can check it (give `evaluator`); judge: an LLM judge must read the answer; unobservable: the answer alone cannot show it.",
    ),
  evaluator: z
    .object({ kind: z.string() })
    .loose()
    .nullable()
    .optional()
    .describe(
      'For check "static": an evaluator spec, e.g. {"kind":"contains","expected":"…"}, {"kind":"regex","pattern":"…"}, {"kind":"json","schema":{…}}, {"kind":"expected_tool_calls","names":["…"]}. Otherwise null.',
    ),
  reason: z.string().max(MAX_FIELD_CHARS).optional().describe("Why this rule matters for this prompt, or why it cannot be observed."),
});
export type CriterionItem = z.infer<typeof criterionItemSchema>;

/** The criteria call's answer. */
export const criteriaAnswerSchema = z.object({ criteria: z.array(criterionItemSchema) });

const named = z.object({ name: text("A short name."), description: text("One sentence.") });

/** The concepts call's answer: what the prompt is about and who uses it. */
export const conceptsAnswerSchema = z.object({
  concepts: z.array(named).describe("Topics, tasks and risks the prompt must handle."),
  personas: z.array(named).describe("Distinct kinds of users who send it messages."),
});
export type ConceptsAnswer = z.infer<typeof conceptsAnswerSchema>;

/** One proposed scenario (case) as the model writes it. */
export const scenarioItemSchema = z.object({
  input: text("The user's message, exactly as the persona would write it."),
  expected: text("The expected behaviour of a good answer."),
  variables: z
    .array(z.object({ name: z.string().max(200), value: z.string().max(MAX_FIELD_CHARS) }))
    .max(50)
    .describe("A value for every {{variable}} of the system prompt.")
    .default([]),
  tags: z.array(z.string().max(100)).max(20).describe("Short labels, e.g. edge-case, tool:NAME.").default([]),
  covers: text("The concept this scenario exercises."),
  edgeCase: z.boolean().describe("True for an edge case or adversarial input.").default(false),
});
export type ScenarioItem = z.infer<typeof scenarioItemSchema>;

/** The scenarios call's answer. */
export const scenariosAnswerSchema = z.object({ scenarios: z.array(scenarioItemSchema) });
