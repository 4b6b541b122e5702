/**
 * The Benchwork store (DESIGN.md §3). SQLite through drizzle; written so the same tables can be
 * declared with drizzle's pg dialect later. Times are integers in ms since the Unix epoch.
 * Revisions are immutable rows: a case, criterion or prompt points at its current revision.
 */
import { sql } from "drizzle-orm";
import { blob, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Who made a revision or version (issue 19): the actor's user id and e-mail, copied (not a foreign
 * key) so the name survives a removed user; `local` in single-user mode; null for rows written
 * before authorship was recorded or by the seed.
 */
function authorColumns() {
  return { authorId: text("author_id"), authorEmail: text("author_email") };
}

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
 * A prompt's default checks (issue 15): JSON array of evaluator specs (lib/evaluators/spec.ts) that
 * apply to every case of the prompt that has no evaluator of its own. A bench pins them at launch.
 * A table of its own, so the prompt rows stay as they are. No row = no default checks.
 */
export const promptDefaultChecks = sqliteTable("prompt_default_checks", {
  promptId: integer("prompt_id")
    .primaryKey()
    .references(() => prompts.id),
  checks: text("checks").notNull().default("[]"),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Immutable snapshot of a prompt. `modelSettings` is JSON (temperature, maxOutputTokens, …);
 * `tools` is JSON: `[{ name, description, inputSchema }]`; `message` says why this revision was
 * made ("" for a prompt's first revision and for revisions made before messages existed).
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
    message: text("message").notNull().default(""),
    createdAt: integer("created_at").notNull(),
    ...authorColumns(),
  },
  (t) => [uniqueIndex("prompt_revisions_prompt_number").on(t.promptId, t.number)],
);

/**
 * A case of a prompt's library. `caseKey` is the user-visible case ID, unique within its prompt's
 * library among cases that are not removed (two prompts may both hold `cap-01`). `origin` is JSON describing the source
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
    status: text("status", { enum: ["active", "paused"] })
      .notNull()
      .default("active"),
    userCorrected: integer("user_corrected", { mode: "boolean" }).notNull().default(false),
    currentRevisionId: integer("current_revision_id"),
    revisionNumber: integer("revision_number").notNull().default(1),
    origin: text("origin"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    removedAt: integer("removed_at"),
  },
  (t) => [
    uniqueIndex("cases_prompt_case_key_live")
      .on(t.promptId, t.caseKey)
      .where(sql`removed_at IS NULL`),
    index("cases_system_updated")
      .on(t.systemId, t.updatedAt, t.id)
      .where(sql`removed_at IS NULL`),
    index("cases_system_source_updated")
      .on(t.systemId, t.source, t.updatedAt, t.id)
      .where(sql`removed_at IS NULL`),
    index("cases_system_status_updated")
      .on(t.systemId, t.status, t.updatedAt, t.id)
      .where(sql`removed_at IS NULL`),
    index("cases_system_prompt_updated")
      .on(t.systemId, t.promptId, t.updatedAt, t.id)
      .where(sql`removed_at IS NULL`),
    index("cases_system_key")
      .on(t.systemId, t.caseKey)
      .where(sql`removed_at IS NULL`),
    // Retention finds a case's retained copy by its origin's fromCaseId (db/queries/retention.ts): the
    // expression must stay the lookup's own for the index to serve it.
    index("retention_origin_index").on(sql`json_extract(${t.origin}, '$.fromCaseId')`),
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
    ...authorColumns(),
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
    status: text("status", { enum: ["active", "paused"] })
      .notNull()
      .default("active"),
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
    ...authorColumns(),
  },
  (t) => [uniqueIndex("criterion_revisions_criterion_number").on(t.criterionId, t.number)],
);

/** Key/value facts about the workspace (e.g. when the demo was seeded). */
export const workspaceMeta = sqliteTable("workspace_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * A model configuration (Models page). The API key is NEVER stored: `apiKeyEnv` names the
 * environment variable the server reads it from. Prices are USD per million tokens.
 */
export const modelConfigs = sqliteTable("model_configs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  provider: text("provider", { enum: ["openai", "anthropic", "openai-compatible"] }).notNull(),
  modelId: text("model_id").notNull(),
  baseUrl: text("base_url"),
  apiKeyEnv: text("api_key_env"),
  temperature: real("temperature"),
  maxOutputTokens: integer("max_output_tokens"),
  inputPricePerMTok: real("input_price_per_mtok"),
  outputPricePerMTok: real("output_price_per_mtok"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * A bench: candidates over a pinned suite of case revisions for one prompt. JSON columns hold
 * snapshots taken at launch (settings, rubric with its hash, baseline, judge model) and results
 * computed at the end (summary, recommendation). `launchKey` makes a double-clicked launch one bench.
 */
export const benches = sqliteTable(
  "benches",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    systemId: text("system_id")
      .notNull()
      .references(() => systems.id),
    promptId: integer("prompt_id")
      .notNull()
      .references(() => prompts.id),
    title: text("title").notNull(),
    status: text("status", { enum: ["queued", "running", "finished", "cancelled", "failed"] }).notNull(),
    launchKey: text("launch_key").notNull().unique(),
    settings: text("settings").notNull(),
    rubric: text("rubric").notNull(),
    rubricHash: text("rubric_hash").notNull(),
    baseline: text("baseline").notNull(),
    judge: text("judge"),
    trialCount: integer("trial_count").notNull(),
    createdAt: integer("created_at").notNull(),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
    cancelRequestedAt: integer("cancel_requested_at"),
    summary: text("summary"),
    recommendation: text("recommendation"),
    /** Who launched / asked to cancel (issue 19; null before authorship was recorded). */
    launchedById: text("launched_by_id"),
    launchedByEmail: text("launched_by_email"),
    cancelledById: text("cancelled_by_id"),
    cancelledByEmail: text("cancelled_by_email"),
    /** USD spent so far by its finished trials (model and judge calls): the spend cap is checked against it at every claim. */
    spentUsd: real("spent_usd").notNull().default(0),
    /** Trials that finished with an answer (`done`) and added to `spentUsd`: their mean cost is what a running trial counts for once it exceeds the plan's estimate. */
    spentTrials: integer("spent_trials").notNull().default(0),
    /** Trials the bench had when the last rerun inside it reopened it (all ended then; 0 before any rerun): the rerun's progress is timed over the trials after them. */
    rerunBase: integer("rerun_base").notNull().default(0),
  },
  (t) => [
    index("benches_system_created").on(t.systemId, t.createdAt),
    index("benches_prompt_created").on(t.promptId, t.createdAt),
    index("benches_status").on(t.status),
  ],
);

/** A candidate of a bench: a prompt revision × model configuration snapshot, or a recorded-output column. */
export const benchCandidates = sqliteTable(
  "bench_candidates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    benchId: integer("bench_id")
      .notNull()
      .references(() => benches.id),
    position: integer("position").notNull(),
    kind: text("kind", { enum: ["model", "recorded"] }).notNull(),
    label: text("label").notNull(),
    modelConfigId: integer("model_config_id").references(() => modelConfigs.id),
    modelConfig: text("model_config"),
    promptRevisionId: integer("prompt_revision_id").references(() => promptRevisions.id),
    recordedName: text("recorded_name"),
    /** USD spent so far by this candidate's finished trials (model and judge calls), stored with `benches.spent_usd`: its running trials count at its own cost under the spend cap. */
    spentUsd: real("spent_usd").notNull().default(0),
    /** This candidate's trials that finished with an answer (`done`) and added to `spentUsd`: their mean cost is what its running trials count for once above the plan's estimate. */
    spentTrials: integer("spent_trials").notNull().default(0),
    /** USD of this candidate's dearest finished trial (model and judge calls), stored with `spentUsd`: a hard cap counts its running trials at the worst it has seen (0 until one finishes, and on trials finished before the column). */
    maxTrialUsd: real("max_trial_usd").notNull().default(0),
  },
  (t) => [uniqueIndex("bench_candidates_position").on(t.benchId, t.position), index("bench_candidates_model").on(t.modelConfigId)],
);

/** The manifest: every supplied case with its pinned revision, `included` or not, and why. */
export const benchCases = sqliteTable(
  "bench_cases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    benchId: integer("bench_id")
      .notNull()
      .references(() => benches.id),
    position: integer("position").notNull(),
    caseId: integer("case_id")
      .notNull()
      .references(() => cases.id),
    caseRevisionId: integer("case_revision_id")
      .notNull()
      .references(() => caseRevisions.id),
    caseKey: text("case_key").notNull(),
    source: text("source").notNull(),
    group: text("group", { enum: ["explicit", "retained", "generated"] }).notNull(),
    included: integer("included", { mode: "boolean" }).notNull(),
    reason: text("reason"),
    note: text("note"),
  },
  (t) => [index("bench_cases_bench").on(t.benchId, t.position)],
);

/**
 * One execution of one included case by one candidate (repeat k). The queue lives here: status
 * `queued → running → done | error | skipped`, claimed through the job queue (db/schema-sqlite-queue.ts).
 * Check results are JSON with their counts in columns for fast aggregation.
 */
export const trials = sqliteTable(
  "trials",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    benchId: integer("bench_id")
      .notNull()
      .references(() => benches.id),
    candidateId: integer("candidate_id")
      .notNull()
      .references(() => benchCandidates.id),
    benchCaseId: integer("bench_case_id")
      .notNull()
      .references(() => benchCases.id),
    repeat: integer("repeat").notNull(),
    status: text("status", { enum: ["queued", "running", "done", "error", "skipped"] }).notNull(),
    workerId: text("worker_id"),
    attempts: integer("attempts").notNull().default(0),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
    latencyMs: integer("latency_ms"),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    costUsd: real("cost_usd"),
    finishReason: text("finish_reason"),
    output: text("output"),
    record: text("record"),
    checks: text("checks"),
    passedChecks: integer("passed_checks").notNull().default(0),
    failedChecks: integer("failed_checks").notNull().default(0),
    unscoredChecks: integer("unscored_checks").notNull().default(0),
    errorChecks: integer("error_checks").notNull().default(0),
    error: text("error"),
    /**
     * Why a trial was added after the bench's launch (issue #16 §3): `confirm` — a rerun of a
     * suspected regression's case; `error` — a rerun of the errored trial `rerunOf`. Null for the
     * trials the launch queued.
     */
    rerun: text("rerun", { enum: ["confirm", "error"] }),
    /** The errored trial this one reruns (the errored record itself is kept as it was). */
    rerunOf: integer("rerun_of"),
  },
  (t) => [
    uniqueIndex("trials_unique").on(t.benchId, t.candidateId, t.benchCaseId, t.repeat),
    index("trials_rerun_of")
      .on(t.rerunOf)
      .where(sql`rerun_of IS NOT NULL`),
    index("trials_bench_status").on(t.benchId, t.status, t.id),
    // No index on worker_id: nothing reads trials by worker (claims are the queue's: trial_jobs on
    // SQLite, trial_claims on PostgreSQL), and each index of trials is written by every claim and every
    // stored result (one page of the ~23 a SQLite store-and-claim wrote at 50 ms latency).
    // Covers the results matrix's per case × candidate counts: read from the index, not the trial rows with their outputs and checks (results page speed, issue #16).
    // Also covers the statistics' case figures (benchCaseFigures: cost, latency, rerun; issue #16's < 50 ms) and the progress clock's
    // per-candidate counts (finished_at): the columns ride in the entry a result rewrites anyway (its status and counts change),
    // so no second index is written per result.
    index("trials_matrix").on(
      t.benchId,
      t.benchCaseId,
      t.candidateId,
      t.status,
      t.passedChecks,
      t.failedChecks,
      t.errorChecks,
      t.costUsd,
      t.latencyMs,
      t.rerun,
      t.finishedAt,
    ),
  ],
);

/** A named dataset of a system; each upload under the same name is a new immutable version. */
export const datasets = sqliteTable(
  "datasets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    systemId: text("system_id")
      .notNull()
      .references(() => systems.id),
    name: text("name").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("datasets_system_name").on(t.systemId, t.name)],
);

/**
 * An immutable dataset version: the original file (bytes), what the importer saw (format,
 * encoding, delimiter, sheet, the header row chosen, columns), the mapping, the rows as saved (after the user's
 * corrections and redaction; JSON array of objects keyed by column), excluded rows, the
 * redaction report and the problems.
 */
export const datasetVersions = sqliteTable(
  "dataset_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    datasetId: integer("dataset_id")
      .notNull()
      .references(() => datasets.id),
    version: integer("version").notNull(),
    fileName: text("file_name").notNull(),
    fileBytes: blob("file_bytes", { mode: "buffer" }).notNull(),
    format: text("format").notNull(),
    encoding: text("encoding"),
    delimiter: text("delimiter"),
    sheet: text("sheet"),
    /**
     * Where the header is when it is not the first non-empty row (lib/import/header-row.ts): its
     * line (CSV) or sheet row (XLSX); the rows above it (e.g. a title) are left out. 0 = as read.
     */
    headerRow: integer("header_row").notNull().default(0),
    columns: text("columns").notNull(),
    mapping: text("mapping").notNull(),
    rows: text("rows").notNull(),
    rowCount: integer("row_count").notNull(),
    excludedRows: text("excluded_rows").notNull().default("[]"),
    corrections: text("corrections").notNull().default("{}"),
    /**
     * The checks confirmed at mapping time for the whole dataset (lib/datasets/checks.ts): JSON
     * array of dataset checks; the golden cases made from this version get them as evaluators.
     */
    checks: text("checks").notNull().default("[]"),
    redactionReport: text("redaction_report").notNull(),
    problems: text("problems").notNull(),
    createdAt: integer("created_at").notNull(),
    ...authorColumns(),
  },
  (t) => [uniqueIndex("dataset_versions_number").on(t.datasetId, t.version)],
);

/**
 * An uploaded file waiting to be mapped and saved (Upload cases → Map and preview → Save). Deleted
 * when saved as a dataset version or abandoned (older than a day). Uploading alone stores no version.
 */
export const datasetUploads = sqliteTable("dataset_uploads", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  systemId: text("system_id")
    .notNull()
    .references(() => systems.id),
  fileName: text("file_name").notNull(),
  fileBytes: blob("file_bytes", { mode: "buffer" }).notNull(),
  sheet: text("sheet"),
  createdAt: integer("created_at").notNull(),
});

/**
 * One run of the criteria-and-scenarios generator (issue 17) for a prompt revision: who generated
 * (model `provider:modelId`, generator instructions revision), what was asked, and what the batch
 * looked like. JSON columns: `dropped` (items dropped as invalid or near-duplicate, with reasons),
 * `diversity` (`{ criteria, scenarios }`, each null or 0..1), `usage` (`{ inputTokens, outputTokens,
 * calls }`), `concepts` (`{ concepts, personas }`).
 */
export const generationRuns = sqliteTable(
  "generation_runs",
  {
    id: text("id").primaryKey(),
    systemId: text("system_id")
      .notNull()
      .references(() => systems.id),
    promptId: integer("prompt_id")
      .notNull()
      .references(() => prompts.id),
    promptRevisionId: integer("prompt_revision_id")
      .notNull()
      .references(() => promptRevisions.id),
    model: text("model").notNull(),
    generatorRevision: text("generator_revision").notNull(),
    requestedCriteria: integer("requested_criteria").notNull(),
    requestedScenarios: integer("requested_scenarios").notNull(),
    dropped: text("dropped").notNull().default("[]"),
    diversity: text("diversity").notNull().default("{}"),
    usage: text("usage").notNull().default("{}"),
    concepts: text("concepts").notNull().default("{}"),
    durationMs: integer("duration_ms").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("generation_runs_prompt_created").on(t.promptId, t.createdAt)],
);

/**
 * A generated proposal awaiting review: a criterion or a scenario, inactive until accepted.
 * `content` is the proposal as generated (JSON, never changed). Accept / Customize make a
 * criterion (`criterionId`) or a case (`caseId`); Dismiss only records the decision.
 */
export const proposals = sqliteTable(
  "proposals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: text("run_id")
      .notNull()
      .references(() => generationRuns.id),
    systemId: text("system_id")
      .notNull()
      .references(() => systems.id),
    promptId: integer("prompt_id")
      .notNull()
      .references(() => prompts.id),
    kind: text("kind", { enum: ["criterion", "scenario"] }).notNull(),
    position: integer("position").notNull(),
    status: text("status", { enum: ["proposed", "accepted", "customized", "dismissed"] })
      .notNull()
      .default("proposed"),
    content: text("content").notNull(),
    criterionId: integer("criterion_id").references(() => criteria.id),
    caseId: integer("case_id").references(() => cases.id),
    createdAt: integer("created_at").notNull(),
    decidedAt: integer("decided_at"),
  },
  (t) => [index("proposals_prompt_status").on(t.promptId, t.status, t.kind, t.id), uniqueIndex("proposals_run_position").on(t.runId, t.kind, t.position)],
);

/**
 * The audit trail (issue 19): one row per change, written in the same transaction as the change.
 * `actorId`/`actorEmail` are copied from the actor (they survive a removed user); `subjectType` +
 * `subjectId` name what changed (e.g. `case` + `17`); `detail` is one short line for the list.
 */
export const activity = sqliteTable(
  "activity",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    actorId: text("actor_id").notNull(),
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    systemId: text("system_id"),
    detail: text("detail").notNull().default(""),
  },
  (t) => [index("activity_at").on(t.at, t.id), index("activity_actor_at").on(t.actorId, t.at), index("activity_action_at").on(t.action, t.at)],
);

/**
 * A reviewer's verdict on one check of one trial (issue 18). Never changes the judge's record in
 * `trials.checks`: the scoring reads it beside that record, and a human `pass`/`fail` takes
 * precedence there (`cant_tell` leaves the judge's verdict standing). One row per trial, check key
 * and reviewer (`local` until accounts exist); a later verdict of the same reviewer replaces theirs.
 */
export const humanVerdicts = sqliteTable(
  "human_verdicts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    trialId: integer("trial_id")
      .notNull()
      .references(() => trials.id),
    checkKey: text("check_key").notNull(),
    verdict: text("verdict", { enum: ["pass", "fail", "cant_tell"] }).notNull(),
    note: text("note").notNull().default(""),
    reviewer: text("reviewer").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("human_verdicts_trial_check_reviewer").on(t.trialId, t.checkKey, t.reviewer), index("human_verdicts_trial").on(t.trialId)],
);

/**
 * Per prompt, when a judged criterion counts as calibrated (issue 18): at least `minReviewed`
 * human-reviewed trials and Cohen's κ ≥ `kappaThreshold`. No row = the defaults (20, 0.6).
 */
export const promptCalibrationSettings = sqliteTable("prompt_calibration_settings", {
  promptId: integer("prompt_id")
    .primaryKey()
    .references(() => prompts.id),
  kappaThreshold: real("kappa_threshold").notNull(),
  minReviewed: integer("min_reviewed").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/*
 * Accounts (issue 19). The four tables better-auth reads and writes through its drizzle adapter
 * (server/auth/auth.ts): users, their sessions, their sign-in methods (a password hash or an
 * OpenID Connect link) and short-lived verification values (OIDC state). Timestamps are ms.
 * `role` (admin, editor, viewer) and the ban columns are the admin plugin's.
 */
export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
  image: text("image"),
  role: text("role").notNull().default("viewer"),
  banned: integer("banned", { mode: "boolean" }).default(false),
  banReason: text("ban_reason"),
  banExpires: integer("ban_expires", { mode: "timestamp_ms" }),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

/** A signed-in browser. The cookie carries `token` (signed); deleting the row signs it out. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    impersonatedBy: text("impersonated_by"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

/** A way to sign in: `providerId` "credential" holds the password hash; an OIDC provider holds its tokens. */
export const authAccounts = sqliteTable(
  "auth_accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: integer("access_token_expires_at", { mode: "timestamp_ms" }),
    refreshTokenExpiresAt: integer("refresh_token_expires_at", { mode: "timestamp_ms" }),
    scope: text("scope"),
    password: text("password"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("auth_accounts_user").on(t.userId)],
);

/** Short-lived values better-auth checks once (OIDC state, PKCE verifier). */
export const authVerifications = sqliteTable(
  "auth_verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("auth_verifications_identifier").on(t.identifier)],
);

/**
 * A personal API token (CI): only the SHA-256 of the secret is stored (the secret is shown once).
 * `scope` read = viewer-level reads; run = also launch benches, publish, import. `expiresAt` null =
 * never; `revokedAt` set = refused from then on. Times in ms.
 */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    scope: text("scope", { enum: ["read", "run"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    /** The first characters of the secret, to tell tokens apart in the list. */
    prefix: text("prefix").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [index("api_tokens_user").on(t.userId)],
);
