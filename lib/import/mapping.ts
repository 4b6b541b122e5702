/**
 * Column mapping: which column plays which role, and table rows → case drafts (DESIGN.md §5,
 * issue 3). Nothing is dropped: a column without a role is kept as an extra column, and there is
 * no "ignore" role.
 *
 * Where each role lands in {@link CaseContent}:
 * - `input` → `input`, `expected` → `expected`, `notes` → `notes` (text exactly as in the cell);
 * - `history` → `history` (history.ts); a cell that cannot be read is kept in `extra[column]`;
 * - `actual_output` → `recordedOutputs[candidate]` (one column per candidate; empty text kept);
 * - `variable` → `variables` `{ name, value }` (empty cells are left out: nothing is invented);
 * - `variables_json` → one `variables` entry per key of the cell's JSON object (variables-json.ts);
 *   a variable column wins over a JSON key of the same name (warning); a cell that is not a JSON
 *   object blocks the row and is kept in `extra[column]`;
 * - `resolved_prompt` → `context` entry named `resolved_prompt`;
 * - `case_id` → the draft's `caseKey` (trimmed; empty → none);
 * - `tags` → `tags`: split on commas and semicolons, trimmed, empty and repeated tags removed;
 * - `expected_tool_calls` → the draft's `expectedToolNames` (a JSON list of names, or names split on
 *   commas and semicolons), which the dataset's tool-call check uses (lib/datasets/checks.ts); the
 *   cell is also kept in `extra[column]`, so nothing is lost when no such check is chosen;
 * - `extra` (and any column missing from the mapping) → `extra[column]`, unchanged.
 */
import type { CaseContent, NameValue, Turn } from "@/lib/library/case-content";
import { parseHistory } from "./history";
import { parseVariablesCell } from "./variables-json";
import type { ImportProblem, ImportTable } from "./types";

/** Roles a column can have. There is deliberately no "ignore": every column is kept. */
export const COLUMN_ROLES = [
  "input",
  "expected",
  "history",
  "actual_output",
  "variable",
  "variables_json",
  "resolved_prompt",
  "notes",
  "case_id",
  "tags",
  "expected_tool_calls",
  "extra",
] as const;
/** One of {@link COLUMN_ROLES}. */
export type ColumnRole = (typeof COLUMN_ROLES)[number];

/** Roles at most one column may have. */
export const SINGLE_ROLES: readonly ColumnRole[] = ["input", "expected", "history", "resolved_prompt", "notes", "case_id", "expected_tool_calls"];

/**
 * The role of one column. `candidate` is required for `actual_output` (the recorded candidate's
 * name, e.g. `model-6b`); `variable` is required for `variable` (the template variable name).
 */
export interface ColumnAssignment {
  column: string;
  role: ColumnRole;
  candidate?: string;
  variable?: string;
}

/** A mapping: one assignment per column (columns left out count as `extra`). */
export type ColumnMapping = ColumnAssignment[];

/** A case ready for preview: the row it came from, its case key (if mapped) and its content. */
export interface CaseDraft {
  /** 1-based data-row number (first row after the header = 1). */
  rowNumber: number;
  caseKey?: string;
  content: CaseContent;
  /** Tool names of the expected-tool-calls column, when one is mapped and the cell names any. */
  expectedToolNames?: string[];
  /** True when the row has an error problem: it cannot become a golden case until corrected or excluded. */
  blocked: boolean;
}

/** Options of {@link applyMapping}. */
export interface ApplyMappingOptions {
  /** Variables the prompt template uses (`{{name}}`); rows lacking one get a warning. */
  templateVariables?: string[];
  /** Cell corrections from the preview: data-row number → column name → new text. */
  corrections?: Record<number, Record<string, string>>;
  /** Data-row numbers left out of the drafts (their problems are not reported). */
  excludedRows?: number[];
}

/** Result of {@link applyMapping}. */
export interface MappingResult {
  /** One draft per row that is not excluded, in row order. */
  drafts: CaseDraft[];
  /** Mapping-level problems (no `row`) first, then row problems in row order. */
  problems: ImportProblem[];
  /** Rows with at least one error, ascending. */
  blockedRows: number[];
  /** Rows excluded by the caller that exist in the table, ascending. */
  excludedRows: number[];
}

/**
 * Checks a mapping against the table's columns (no row data needed).
 * @param columns the table's stored column names
 * @param mapping the mapping to check
 * @returns problems without `row`: errors for unknown or repeated columns, a second column for a
 *   single role, missing or repeated candidate / variable names, and no input or expected column
 */
export function validateMapping(columns: readonly string[], mapping: ColumnMapping): ImportProblem[] {
  const problems: ImportProblem[] = [];
  const known = new Set(columns);
  const seenColumns = new Set<string>();
  const byRole = new Map<ColumnRole, string[]>();
  const candidates = new Map<string, string>();
  const variables = new Map<string, string>();
  for (const a of mapping) {
    if (!known.has(a.column)) {
      problems.push({
        severity: "error",
        code: "unknown_column",
        column: a.column,
        message: `The mapping names column "${a.column}", which the file does not have.`,
      });
      continue;
    }
    if (seenColumns.has(a.column)) {
      problems.push({
        severity: "error",
        code: "column_mapped_twice",
        column: a.column,
        message: `Column "${a.column}" has more than one role in the mapping.`,
      });
      continue;
    }
    seenColumns.add(a.column);
    byRole.set(a.role, [...(byRole.get(a.role) ?? []), a.column]);
    if (a.role === "actual_output") {
      const name = a.candidate?.trim() ?? "";
      if (name === "") {
        problems.push({
          severity: "error",
          code: "missing_candidate",
          column: a.column,
          message: `Column "${a.column}" holds actual outputs but has no candidate name.`,
        });
      } else if (candidates.has(name)) {
        problems.push({
          severity: "error",
          code: "duplicate_candidate",
          column: a.column,
          message: `Candidate "${name}" is used by both "${candidates.get(name)}" and "${a.column}"; each actual-output column needs its own candidate name.`,
        });
      } else candidates.set(name, a.column);
    }
    if (a.role === "variable") {
      const name = a.variable?.trim() ?? "";
      if (name === "") {
        problems.push({
          severity: "error",
          code: "missing_variable_name",
          column: a.column,
          message: `Column "${a.column}" is a variable but has no variable name.`,
        });
      } else if (variables.has(name)) {
        problems.push({
          severity: "error",
          code: "duplicate_variable",
          column: a.column,
          message: `Variable "${name}" is given by both "${variables.get(name)}" and "${a.column}".`,
        });
      } else variables.set(name, a.column);
    }
  }
  for (const role of SINGLE_ROLES) {
    const cols = byRole.get(role) ?? [];
    if (cols.length > 1) {
      problems.push({
        severity: "error",
        code: "role_mapped_twice",
        column: cols[1],
        message: `Only one column can be the ${ROLE_LABEL[role]}; ${cols.map((c) => `"${c}"`).join(" and ")} both are.`,
      });
    }
  }
  if (!byRole.has("input")) problems.push({ severity: "error", code: "no_input_column", message: "No column is mapped to the input." });
  if (!byRole.has("expected")) problems.push({ severity: "error", code: "no_expected_column", message: "No column is mapped to the expected result." });
  return problems;
}

/** Human names of the roles, for messages and UI labels. */
export const ROLE_LABEL: Record<ColumnRole, string> = {
  input: "input",
  expected: "expected result",
  history: "conversation history",
  actual_output: "actual output",
  variable: "variable",
  variables_json: "variables (JSON object)",
  resolved_prompt: "resolved prompt",
  notes: "notes",
  case_id: "case ID",
  tags: "tags",
  expected_tool_calls: "expected tool calls",
  extra: "extra column",
};

/**
 * Splits a tags cell: on commas and semicolons, trimmed, empty and repeated tags removed
 * (first occurrence kept, letter case kept).
 * @param cell the cell text
 */
export function splitTags(cell: string): string[] {
  if (cell.trim() === "") return [];
  const out: string[] = [];
  for (const part of cell.split(/[,;]/)) {
    const tag = part.trim();
    if (tag !== "" && !out.includes(tag)) out.push(tag);
  }
  // slice() gives an array of exactly the right length (push leaves spare capacity).
  return out.slice();
}

/**
 * Tool names of an expected-tool-calls cell: a JSON list of names (or of `{ toolName }` / `{ name }`
 * objects), else names split on commas and semicolons; trimmed, empty and repeated names removed.
 * @param cell the cell text
 */
export function splitToolNames(cell: string): string[] {
  const text = cell.trim();
  if (text === "") return [];
  if (text.startsWith("[")) {
    try {
      const list = JSON.parse(text) as unknown;
      if (Array.isArray(list)) {
        const names = list.map((x) =>
          typeof x === "string"
            ? x
            : x && typeof x === "object"
              ? ((x as { toolName?: unknown; name?: unknown }).toolName ?? (x as { name?: unknown }).name)
              : undefined,
        );
        return [
          ...new Set(
            names
              .filter((n): n is string => typeof n === "string")
              .map((n) => n.trim())
              .filter((n) => n !== ""),
          ),
        ];
      }
    } catch {
      // Not JSON: read it as a list of names.
    }
  }
  return splitTags(text);
}

/**
 * Turns every row into a case draft (see the module comment for where each role goes) and flags:
 * rows missing input or expected result (error: blocks the row until corrected or excluded), a
 * history cell that cannot be read (error), a repeated case ID (error, naming the first row),
 * a template variable the row lacks (warning; nothing is invented), corrections that name unknown
 * rows or columns (error). Mapping-level problems from {@link validateMapping} come first; with no
 * input (or expected) column every row is blocked but flagged only once.
 * @param table the parsed table (not modified)
 * @param mapping the column roles
 * @param options template variables, preview corrections, excluded rows
 * @returns drafts, problems, and the blocked / excluded row numbers
 */
export function applyMapping(table: ImportTable, mapping: ColumnMapping, options: ApplyMappingOptions = {}): MappingResult {
  const problems = validateMapping(table.columns, mapping);
  const plan = planColumns(table.columns, mapping);
  const needed = neededVariables(plan, options.templateVariables ?? [], problems);
  const rowCount = table.rows.length;
  const excluded = new Set<number>();
  for (const r of options.excludedRows ?? []) if (Number.isInteger(r) && r >= 1 && r <= rowCount) excluded.add(r);
  const corrections = resolveCorrections(table, options.corrections ?? {}, problems);

  const cols = table.columns;
  const { input, expected, history, resolvedPrompt, notes, caseId } = plan;
  const blockAll = input === undefined || expected === undefined;
  const lineKind = table.sourceKind === "line";
  const drafts: CaseDraft[] = [];
  const blocked: number[] = [];
  const rowProblems: ImportProblem[] = [];
  const firstRowOfKey = new Map<string, number>();
  const tagStrings = new Map<string, string>();

  for (let i = 0; i < rowCount; i++) {
    const rowNumber = i + 1;
    if (excluded.has(rowNumber)) continue;
    let cells = table.rows[i];
    const fix = corrections.get(rowNumber);
    if (fix) {
      cells = cells.slice();
      for (const [j, v] of fix) cells[j] = v;
    }
    const before = rowProblems.length;
    const flag = (severity: ImportProblem["severity"], code: string, j: number, message: string) =>
      rowProblems.push(rowProblem(lineKind, table.rowSources[i], rowNumber, severity, code, cols[j], message));

    const inputText = input === undefined ? "" : cells[input];
    if (input !== undefined && isBlank(inputText)) flag("error", "missing_input", input, `Row ${rowNumber} has no input.`);
    const expectedText = expected === undefined ? "" : cells[expected];
    if (expected !== undefined && isBlank(expectedText)) {
      flag("error", "missing_expected", expected, `Row ${rowNumber} has no expected result.`);
    }
    let turns: Turn[] = [];
    // Cells that cannot be read for their role are kept as extra columns.
    let malformed: number[] | null = null;
    if (history !== undefined) {
      const parsed = parseHistory(cells[history]);
      if (parsed.error) {
        malformed = [history];
        const why = `the conversation history cannot be read (${parsed.error}); the cell is kept as an extra column`;
        flag("error", "malformed_history", history, `Row ${rowNumber}: ${why}.`);
      } else turns = parsed.turns;
    }
    const variables: NameValue[] = [];
    // Variable name → column that gave it (variable columns first: they win over JSON keys).
    const givenBy = new Map<string, number>();
    for (const v of plan.variables) {
      if (cells[v.index] === "") continue;
      variables.push({ name: v.name, value: cells[v.index] });
      givenBy.set(v.name, v.index);
    }
    for (const j of plan.variableObjects) {
      const parsed = parseVariablesCell(cells[j]);
      if (parsed.error) {
        (malformed ??= []).push(j);
        flag(
          "error",
          "malformed_variables",
          j,
          `Row ${rowNumber}: column "${cols[j]}" is not a JSON object of variables (${parsed.error}); the cell is kept as an extra column.`,
        );
        continue;
      }
      for (const v of parsed.variables) {
        const by = givenBy.get(v.name);
        if (by !== undefined) {
          const message = `Row ${rowNumber}: {{${v.name}}} is given by column "${cols[by]}" and by the JSON object in "${cols[j]}"; the value of "${cols[by]}" is used.`;
          flag("warning", "duplicate_variable", j, message);
          continue;
        }
        variables.push(v);
        givenBy.set(v.name, j);
      }
    }
    for (const n of needed) {
      if (!givenBy.has(n.name)) flag("warning", "missing_variable", n.index, `Row ${rowNumber} has no value for {{${n.name}}}; it is left unset.`);
    }
    const context: NameValue[] = [];
    if (resolvedPrompt !== undefined && cells[resolvedPrompt] !== "") context.push({ name: "resolved_prompt", value: cells[resolvedPrompt] });
    const tags = plan.tags.length === 0 ? [] : splitTags(plan.tags.length === 1 ? cells[plan.tags[0]] : plan.tags.map((j) => cells[j]).join(","));
    // The same few tags repeat on many rows: share one string per distinct tag.
    for (let k = 0; k < tags.length; k++) {
      const known = tagStrings.get(tags[k]);
      if (known === undefined) tagStrings.set(tags[k], tags[k]);
      else tags[k] = known;
    }
    const recordedOutputs: Record<string, string> = {};
    for (const o of plan.outputs) setOwn(recordedOutputs, o.candidate, cells[o.index]);
    const extra: Record<string, string> = {};
    for (const j of malformed ? [...plan.extras, ...malformed].sort((a, b) => a - b) : plan.extras) setOwn(extra, cols[j], cells[j]);
    const content: CaseContent = {
      input: inputText,
      expected: expectedText,
      notes: notes === undefined ? "" : cells[notes],
      history: turns,
      variables,
      context,
      tags,
      recordedOutputs,
      evaluators: [],
      data: null,
      extra,
    };

    const toolNames = plan.toolCalls === undefined ? [] : splitToolNames(cells[plan.toolCalls]);
    const key = caseId === undefined ? "" : cells[caseId].trim();
    if (key !== "") {
      const first = firstRowOfKey.get(key);
      if (first === undefined) firstRowOfKey.set(key, rowNumber);
      else flag("error", "duplicate_case_id", caseId!, `Row ${rowNumber} repeats case ID "${key}" from row ${first}; case IDs must be unique.`);
    }
    let isBlocked = blockAll;
    for (let k = before; k < rowProblems.length; k++) if (rowProblems[k].severity === "error") isBlocked = true;
    // Two literal shapes (with and without caseKey) keep every draft a compact object.
    const draft: CaseDraft = key === "" ? { rowNumber, content, blocked: isBlocked } : { rowNumber, caseKey: key, content, blocked: isBlocked };
    if (toolNames.length > 0) draft.expectedToolNames = toolNames;
    drafts.push(draft);
    if (isBlocked) blocked.push(rowNumber);
  }
  return {
    drafts,
    problems: [...problems, ...rowProblems],
    blockedRows: blocked,
    excludedRows: [...excluded].sort((a, b) => a - b),
  };
}

/**
 * Column indexes by role, after resolving conflicts (a second column for a single role, a missing
 * or repeated candidate / variable name) by keeping the column as an extra column.
 */
interface ColumnPlan {
  input?: number;
  expected?: number;
  history?: number;
  resolvedPrompt?: number;
  notes?: number;
  caseId?: number;
  /** The expected-tool-calls column (also kept as an extra column). */
  toolCalls?: number;
  outputs: { index: number; candidate: string }[];
  variables: { index: number; name: string }[];
  /** Columns holding a JSON object of variables, in column order. */
  variableObjects: number[];
  tags: number[];
  extras: number[];
}

function planColumns(columns: readonly string[], mapping: ColumnMapping): ColumnPlan {
  const assigned = new Map<string, ColumnAssignment>();
  for (const a of mapping) if (!assigned.has(a.column)) assigned.set(a.column, a);
  const plan: ColumnPlan = { outputs: [], variables: [], variableObjects: [], tags: [], extras: [] };
  const single: Partial<Record<ColumnRole, keyof ColumnPlan>> = {
    input: "input",
    expected: "expected",
    history: "history",
    resolved_prompt: "resolvedPrompt",
    notes: "notes",
    case_id: "caseId",
  };
  const candidates = new Set<string>();
  const names = new Set<string>();
  columns.forEach((column, index) => {
    const a = assigned.get(column);
    const role = a?.role ?? "extra";
    const slot = single[role] as "input" | "expected" | "history" | "resolvedPrompt" | "notes" | "caseId" | undefined;
    if (slot) {
      if (plan[slot] === undefined) plan[slot] = index;
      else plan.extras.push(index);
    } else if (role === "actual_output") {
      const name = a?.candidate?.trim() ?? "";
      if (name !== "" && !candidates.has(name)) {
        candidates.add(name);
        plan.outputs.push({ index, candidate: name });
      } else plan.extras.push(index);
    } else if (role === "variable") {
      const name = a?.variable?.trim() ?? "";
      if (name !== "" && !names.has(name)) {
        names.add(name);
        plan.variables.push({ index, name });
      } else plan.extras.push(index);
    } else if (role === "variables_json") plan.variableObjects.push(index);
    else if (role === "tags") plan.tags.push(index);
    else if (role === "expected_tool_calls" && plan.toolCalls === undefined) {
      plan.toolCalls = index;
      plan.extras.push(index);
    } else plan.extras.push(index);
  });
  return plan;
}

/**
 * Template variables and the column that should give each: its variable column, else the first
 * JSON-object column (whose keys vary by row). A variable no column can give is reported once.
 */
function neededVariables(plan: ColumnPlan, templateVariables: readonly string[], problems: ImportProblem[]): { name: string; index: number }[] {
  const out: { name: string; index: number }[] = [];
  for (const name of new Set(templateVariables.map((v) => v.trim()).filter((v) => v !== ""))) {
    const v = plan.variables.find((x) => x.name === name);
    if (v) out.push({ name, index: v.index });
    else if (plan.variableObjects.length > 0) out.push({ name, index: plan.variableObjects[0] });
    else {
      problems.push({
        severity: "warning",
        code: "variable_not_mapped",
        message: `The prompt template uses {{${name}}} but no column is mapped to it; every row lacks it and it will not be filled in.`,
      });
    }
  }
  return out;
}

/** Corrections as row → [column index, text] pairs; unknown rows and columns are reported. */
function resolveCorrections(
  table: ImportTable,
  corrections: Record<number, Record<string, string>>,
  problems: ImportProblem[],
): Map<number, [number, string][]> {
  const colIndex = new Map<string, number>();
  table.columns.forEach((c, i) => colIndex.set(c, i));
  const rowCount = table.rows.length;
  const out = new Map<number, [number, string][]>();
  for (const [key, cells] of Object.entries(corrections)) {
    const r = Number(key);
    if (!Number.isInteger(r) || r < 1 || r > rowCount) {
      problems.push({
        severity: "error",
        code: "unknown_row",
        message: `A correction names row ${key}, which the table does not have (rows 1–${rowCount}).`,
      });
      continue;
    }
    const list: [number, string][] = [];
    for (const [column, value] of Object.entries(cells)) {
      const j = colIndex.get(column);
      if (j === undefined) {
        problems.push({
          severity: "error",
          code: "unknown_column",
          row: r,
          column,
          message: `A correction for row ${r} names column "${column}", which the table does not have.`,
        });
      } else list.push([j, String(value)]);
    }
    if (list.length > 0) out.set(r, list);
  }
  return out;
}

/**
 * Applies preview corrections to a copy of the table (e.g. before redaction and saving).
 * @param table the parsed table (not modified)
 * @param corrections data-row number → column name → new text; unknown rows/columns are ignored
 *   here (applyMapping reports them)
 * @returns a table sharing unchanged rows with the input
 */
export function applyCorrections(table: ImportTable, corrections: Record<number, Record<string, string>>): ImportTable {
  const colIndex = new Map<string, number>();
  table.columns.forEach((c, i) => colIndex.set(c, i));
  const rows = table.rows.slice();
  for (const [key, cells] of Object.entries(corrections)) {
    const i = Number(key) - 1;
    if (!Number.isInteger(i) || i < 0 || i >= rows.length) continue;
    const row = rows[i].slice();
    for (const [column, value] of Object.entries(cells)) {
      const j = colIndex.get(column);
      if (j !== undefined) row[j] = String(value);
    }
    rows[i] = row;
  }
  return { ...table, rows };
}

/** True for an empty or whitespace-only cell. */
function isBlank(cell: string): boolean {
  return cell.length === 0 || cell.trim().length === 0;
}

/** Sets an own enumerable property, also for the key `__proto__` (which `obj[key] = …` would not). */
function setOwn(obj: Record<string, string>, key: string, value: string): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** A row problem with the row's data-row number and its source line (text files) or sheet row. */
function rowProblem(
  lineKind: boolean,
  source: number,
  row: number,
  severity: ImportProblem["severity"],
  code: string,
  column: string,
  message: string,
): ImportProblem {
  const p: ImportProblem = { severity, code, column, message, row };
  if (lineKind) p.line = source;
  else p.sheetRow = source;
  return p;
}
