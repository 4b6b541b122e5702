/**
 * The Benchwork store (DESIGN.md §3). SQLite through drizzle; written so the same tables can be
 * declared with drizzle's pg dialect later. Times are integers in ms since the Unix epoch.
 * Revisions are immutable rows: a case, criterion or prompt points at its current revision.
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** A system: the AI application under test. `id` is a URL-safe slug, e.g. `grade-school-math`. */
export const systems = sqliteTable("systems", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  createdAt: integer("created_at").notNull(),
});

/** A prompt inside a system (an agent, a chain step). Cases and criteria belong to one prompt. */
export const prompts = sqliteTable(
  "prompts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    systemId: text("system_id")
      .notNull()
      .references(() => systems.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    currentRevisionId: integer("current_revision_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("prompts_system_name").on(t.systemId, t.name)],
);

/**
 * Immutable snapshot of a prompt. `modelSettings` is JSON (temperature, maxOutputTokens, …);
 * `tools` is JSON: `[{ name, description, inputSchema }]`.
 */
export const promptRevisions = sqliteTable(
  "prompt_revisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    promptId: integer("prompt_id")
      .notNull()
      .references(() => prompts.id),
    number: integer("number").notNull(),
    systemPrompt: text("system_prompt").notNull(),
    modelSettings: text("model_settings").notNull().default("{}"),
    tools: text("tools").notNull().default("[]"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("prompt_revisions_prompt_number").on(t.promptId, t.number)],
);

/**
 * A case of a prompt's library. `caseKey` is the user-visible case ID, unique in the workspace
 * among cases that are not removed. `origin` is JSON describing the source
 * (dataset id/version/row, code file/row, bench id) — null for custom cases.
 * `revisionNumber` is the current revision's number, used for optimistic edits.
 * A removed case keeps its row (benches point at its revisions) with `removedAt` set.
 */
export const cases = sqliteTable(
  "cases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    caseKey: text("case_key").notNull(),
    systemId: text("system_id")
      .notNull()
      .references(() => systems.id),
    promptId: integer("prompt_id")
      .notNull()
      .references(() => prompts.id),
    source: text("source", { enum: ["custom", "dataset", "generated", "retained", "code"] }).notNull(),
    status: text("status", { enum: ["active", "paused"] }).notNull().default("active"),
    userCorrected: integer("user_corrected", { mode: "boolean" }).notNull().default(false),
    currentRevisionId: integer("current_revision_id"),
    revisionNumber: integer("revision_number").notNull().default(1),
    origin: text("origin"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    removedAt: integer("removed_at"),
  },
  (t) => [
    uniqueIndex("cases_case_key_live").on(t.caseKey).where(sql`removed_at IS NULL`),
    index("cases_system_updated").on(t.systemId, t.updatedAt, t.id).where(sql`removed_at IS NULL`),
    index("cases_system_source_updated").on(t.systemId, t.source, t.updatedAt, t.id).where(sql`removed_at IS NULL`),
    index("cases_system_status_updated").on(t.systemId, t.status, t.updatedAt, t.id).where(sql`removed_at IS NULL`),
    index("cases_system_prompt_updated").on(t.systemId, t.promptId, t.updatedAt, t.id).where(sql`removed_at IS NULL`),
    index("cases_system_key").on(t.systemId, t.caseKey).where(sql`removed_at IS NULL`),
  ],
);

/**
 * Immutable snapshot of a case ("context revision"). `input` and `expected` are columns because
 * lists show them; the rest of the content (notes, history, variables, context, tags, recorded
 * outputs, evaluators, data, extra) is JSON in `details`. `erasedAt` is set when the case was
 * removed and its saved details were erased; bench scores that point here stay.
 */
export const caseRevisions = sqliteTable(
  "case_revisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    caseId: integer("case_id")
      .notNull()
      .references(() => cases.id),
    number: integer("number").notNull(),
    input: text("input").notNull(),
    expected: text("expected").notNull(),
    details: text("details").notNull().default("{}"),
    createdAt: integer("created_at").notNull(),
    erasedAt: integer("erased_at"),
  },
  (t) => [uniqueIndex("case_revisions_case_number").on(t.caseId, t.number)],
);

/** A criterion of a prompt. `customizedFromId` links a custom criterion to the generated one it came from. */
export const criteria = sqliteTable(
  "criteria",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    systemId: text("system_id")
      .notNull()
      .references(() => systems.id),
    promptId: integer("prompt_id")
      .notNull()
      .references(() => prompts.id),
    origin: text("origin", { enum: ["custom", "generated"] }).notNull(),
    status: text("status", { enum: ["active", "paused"] }).notNull().default("active"),
    currentRevisionId: integer("current_revision_id"),
    revisionNumber: integer("revision_number").notNull().default(1),
    customizedFromId: integer("customized_from_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("criteria_prompt").on(t.promptId, t.createdAt)],
);

/** Immutable snapshot of a criterion: rule text, what passes, what fails, priority. */
export const criterionRevisions = sqliteTable(
  "criterion_revisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    criterionId: integer("criterion_id")
      .notNull()
      .references(() => criteria.id),
    number: integer("number").notNull(),
    rule: text("rule").notNull(),
    passes: text("passes").notNull(),
    fails: text("fails").notNull(),
    priority: text("priority", { enum: ["primary", "secondary"] }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("criterion_revisions_criterion_number").on(t.criterionId, t.number)],
);

/** Key/value facts about the workspace (e.g. when the demo was seeded). */
export const workspaceMeta = sqliteTable("workspace_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
