/**
 * The content of one case revision: everything a bench needs to run and judge the case.
 * Shared by the library (issue 2), import ("Use a dataset"), evaluators and bench planning.
 * Pure data: JSON-serialisable, no functions.
 */

/** Roles a conversation turn may have (DESIGN.md §4: only text user/assistant turns replay). */
export const TURN_ROLES = ["user", "assistant", "system", "tool"] as const;
export type TurnRole = (typeof TURN_ROLES)[number];

/**
 * One turn of saved conversation history.
 * `replayable` is false for turns the runtime cannot replay (tool calls, images, unknown roles);
 * such turns are kept verbatim, never dropped, and make the case's checks `unscored` in a bench.
 * `raw` keeps the original JSON of a turn that was not plain text, so nothing is lost.
 */
export interface Turn {
  role: TurnRole;
  content: string;
  replayable?: boolean;
  note?: string;
  raw?: string;
}

/** A name/value row (variables, context). Names are unique within one list. */
export interface NameValue {
  name: string;
  value: string;
}

/** Where a case came from (DESIGN.md §1, "source"). */
export const CASE_SOURCES = ["custom", "dataset", "generated", "retained", "code"] as const;
export type CaseSource = (typeof CASE_SOURCES)[number];

export const CASE_STATUSES = ["active", "paused"] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/**
 * Content of a case revision.
 * - `input`: the user message sent to the model (text).
 * - `expected`: the expected result (text; empty string when the case only has evaluators).
 * - `recordedOutputs`: candidate name → recorded answer text, so a recorded candidate can be
 *   scored without calling a model (DESIGN.md §1 "candidate").
 * - `evaluators`: evaluator declarations (see lib/evaluators), stored as data with the revision.
 * - `data`: private JSON-compatible data for custom evaluators (`caseData`).
 * - `extra`: columns kept from an imported row that had no role.
 */
export interface CaseContent {
  input: string;
  expected: string;
  notes: string;
  history: Turn[];
  variables: NameValue[];
  context: NameValue[];
  tags: string[];
  recordedOutputs: Record<string, string>;
  evaluators: unknown[];
  data: Record<string, unknown> | null;
  extra: Record<string, string>;
  /** Names of the tools exposed for this case; absent = every tool of the prompt revision. */
  tools?: string[];
  /** Tools defined by the case itself (e.g. BFCL functions), in addition to the prompt's. */
  toolDefinitions?: ToolDefinition[];
  /** Candidate name → recorded tool calls `{toolName, input}`, for recorded candidates of tool-use cases. */
  recordedToolCalls?: Record<string, { toolName: string; input: unknown }[]>;
}

/**
 * A tool a model may call: name, description, JSON-schema input, and optional fixtures that
 * give its result (static, or per argument values) so benches never run real side effects.
 */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  fixtures?: ToolFixtures;
}

/** Fixture results of a tool: the first `byArguments` entry whose `when` values all equal the call's wins, else `default`. */
export interface ToolFixtures {
  byArguments?: { when: Record<string, unknown>; result: unknown }[];
  default?: unknown;
}

/** An empty case content, for forms and defaults. */
export function emptyCaseContent(): CaseContent {
  return {
    input: "",
    expected: "",
    notes: "",
    history: [],
    variables: [],
    context: [],
    tags: [],
    recordedOutputs: {},
    evaluators: [],
    data: null,
    extra: {},
  };
}
