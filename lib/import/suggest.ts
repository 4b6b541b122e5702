/**
 * Suggests a column mapping from column names (issue 3). The user confirms or changes it; nothing
 * here is final. Names are compared after normalising (`Best Answer`, `bestAnswer`, `best-answer`
 * → `best_answer`).
 *
 * Rules, each with a score; for roles only one column may have, the highest score wins (ties: the
 * earlier column) and the other matches become extra columns:
 * - input: `input`, `question`, `user_message` (10) > `prompt`, `user_input` (9) > `query`,
 *   `instruction` (8) > `text`, `utterance` (7) > `message` (6) > `turn_1` (4);
 * - expected: `expected*`, `reference_answer`, `final_answer` (10) > `ideal*`, `ground_truth`,
 *   `gold*`, `best_answer`, `correct_answer` (9) > `answer`, `reference`, `target` (8) > `label`,
 *   `reference_*` (7) > `correct_answers` (6) > `category`, `intent` (5);
 * - history: `history`, `messages`, `conversation`, `chat_history` (10) > `dialog(ue)`,
 *   `transcript` (8) > `turns` (7); also, when sample rows are given and no name matched, a column
 *   whose non-empty cells all read as a JSON array of `{role, content}` turns;
 * - case_id: `id`, `case_id` (10) > `case_key` (9) > `uid`, `uuid`, `example_id`, `sample_id`
 *   (8) > any `*_id` (5);
 * - tags: `tags` (10) > `tag`, `labels` (9) > `keywords` (7);
 * - notes: `notes`, `note` (10) > `description`, `comment(s)` (9) > `remarks` (8);
 * - resolved_prompt: `resolved_prompt`, `rendered_prompt` (10) > `full_prompt`, `final_prompt` (9);
 * - variable: a name equal to a template variable, or `var_x` / `variable_x` (variable `x`);
 * - variables_json: `variables`, `vars`, `template_variables`, `prompt_variables`,
 *   `variables_json`, when every non-empty sample cell is written as a JSON object (`{…}`) and
 *   at least one reads as one (a broken cell is flagged on its row, not a reason to keep the column out);
 * - actual_output (one per column): a model-like name (a model family such as `gpt`, `llama`,
 *   `claude`, `vicuna`, the word `model`, or a size such as `6b`, `0_8b`) ending in `output`,
 *   `answer`, `response`, `completion`, `prediction`, `generation`, `reply`, `raw` or `turn_N`
 *   (`model_6b_finetuning_output`, `gpt_4_turn_1`), or a generic `output`, `actual_output`,
 *   `response`, `completion`, `prediction`. The candidate name is the column name without the
 *   output word, with `-` for `_` and version digits joined (`gpt_3_5_turbo_answer` →
 *   `gpt-3.5-turbo`); generic names give `recorded`. Names are made unique with `-2`, `-3`, …
 * - everything else: extra.
 */
import type { ColumnAssignment, ColumnMapping, ColumnRole } from "./mapping";
import { parseHistory } from "./history";
import { parseVariablesCell } from "./variables-json";

/** Options of {@link suggestMapping}. */
export interface SuggestOptions {
  /** Variables of the prompt template; a column with the same (normalised) name becomes that variable. */
  templateVariables?: string[];
  /** A few data rows (cells in column order) used to recognise history columns by content. */
  sampleRows?: string[][];
}

type SingleRole = Exclude<ColumnRole, "actual_output" | "variable" | "variables_json" | "extra">;

const EXACT: Record<SingleRole, Record<string, number>> = {
  input: { input: 10, question: 10, user_message: 10, prompt: 9, user_input: 9, query: 8, instruction: 8, text: 7, utterance: 7, message: 6, turn_1: 4 },
  expected: {
    expected: 10,
    expected_output: 10,
    expected_answer: 10,
    expected_result: 10,
    expected_response: 10,
    reference_answer: 10,
    final_answer: 10,
    ideal: 9,
    ideal_answer: 9,
    ideal_response: 9,
    ground_truth: 9,
    gold: 9,
    gold_answer: 9,
    gold_label: 9,
    best_answer: 9,
    correct_answer: 9,
    answer: 8,
    reference: 8,
    target: 8,
    label: 7,
    correct_answers: 6,
    category: 5,
    intent: 5,
  },
  history: {
    history: 10,
    messages: 10,
    conversation: 10,
    chat_history: 10,
    conversation_history: 10,
    message_history: 10,
    dialog: 8,
    dialogue: 8,
    transcript: 8,
    turns: 7,
  },
  case_id: { id: 10, case_id: 10, caseid: 10, case_key: 9, uid: 8, uuid: 8, example_id: 8, sample_id: 8 },
  tags: { tags: 10, tag: 9, labels: 9, keywords: 7 },
  notes: { notes: 10, note: 10, description: 9, comment: 9, comments: 9, remarks: 8 },
  resolved_prompt: { resolved_prompt: 10, rendered_prompt: 10, full_prompt: 9, final_prompt: 9, compiled_prompt: 9 },
  expected_tool_calls: { expected_tool_calls: 10, expected_tools: 10, expected_calls: 9, expected_functions: 9, tool_calls_expected: 9 },
};

const VARIABLE_OBJECT_NAMES = new Set(["variables", "vars", "template_variables", "prompt_variables", "variables_json"]);

const MODEL_WORDS = new Set([
  "gpt",
  "chatgpt",
  "llama",
  "claude",
  "mistral",
  "mixtral",
  "gemini",
  "gemma",
  "vicuna",
  "alpaca",
  "qwen",
  "phi",
  "falcon",
  "palm",
  "bard",
  "davinci",
  "turbo",
  "opus",
  "sonnet",
  "haiku",
  "deepseek",
  "command",
  "cohere",
  "ada",
  "babbage",
  "curie",
  "o1",
  "o3",
  "o4",
  "model",
  "llm",
  "koala",
  "dolly",
  "olmo",
  "granite",
  "nemotron",
  "grok",
  "glm",
  "chatglm",
  "baichuan",
]);
const OUTPUT_WORDS = new Set([
  "output",
  "outputs",
  "answer",
  "answers",
  "response",
  "responses",
  "completion",
  "completions",
  "prediction",
  "predictions",
  "generation",
  "reply",
  "raw",
]);
const GENERIC_OUTPUTS = new Set([
  "output",
  "outputs",
  "actual_output",
  "actual",
  "response",
  "completion",
  "prediction",
  "model_output",
  "llm_output",
  "generated_output",
]);
const NOT_OUTPUT_PREFIX = /^(expected|reference|gold|ideal|correct|incorrect|best|ground|target)(_|$)/;
const SIZE_TOKEN = /^\d+(b|m|k)$/;

/**
 * Normalises a column name for matching: camelCase split, lower case, runs of other characters → `_`.
 * @example normalizeName("Best Answer") === "best_answer"; normalizeName("userMessage") === "user_message"
 */
export function normalizeName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

function singleScore(role: SingleRole, n: string): number {
  const exact = EXACT[role][n];
  if (exact !== undefined) return exact;
  if (role === "expected") {
    if (/^expected_/.test(n)) return 9;
    if (/^(ideal|gold)_/.test(n)) return 9;
    if (/^reference_/.test(n)) return 7;
  }
  if (role === "case_id" && /_id$/.test(n)) return 5;
  return 0;
}

/**
 * Recognises a recorded-output column and derives its candidate name.
 * @param name the column name as stored
 * @returns the candidate name, or null when the name does not look like a model's output
 */
export function outputCandidateName(name: string): string | null {
  const n = normalizeName(name);
  if (n === "" || NOT_OUTPUT_PREFIX.test(n)) return null;
  if (GENERIC_OUTPUTS.has(n)) return "recorded";
  const tokens = n.split("_");
  const modelLike = tokens.some((t) => MODEL_WORDS.has(t) || SIZE_TOKEN.test(t));
  if (!modelLike) return null;
  let end = tokens.length;
  const last = tokens[end - 1];
  const turn = end >= 2 && tokens[end - 2] === "turn" && /^\d+$/.test(last);
  if (!turn && OUTPUT_WORDS.has(last)) end--;
  else if (!turn) return null;
  const kept = tokens.slice(0, end);
  if (kept.length === 0 || kept.every((t) => t === "model" || t === "actual")) return "recorded";
  // Join version digits: 3_5 → 3.5, 1_1 → 1.1, 0_8b → 0.8b (but not 2_7b, 4_0613).
  const parts: string[] = [];
  for (let i = 0; i < kept.length; i++) {
    const t = kept[i];
    const prev = parts[parts.length - 1];
    const joinDigits =
      prev !== undefined && /^\d{1,2}$/.test(prev.split(".").pop()!) && /^\d$/.test(t) && /^\d{1,2}$/.test(kept[i - 1]) && kept[i - 2] !== "turn";
    const joinZeroSize = prev !== undefined && kept[i - 1] === "0" && SIZE_TOKEN.test(t);
    if (joinDigits || joinZeroSize) parts[parts.length - 1] = `${prev}.${t}`;
    else parts.push(t);
  }
  return parts.join("-");
}

/**
 * Suggests a role for every column (see the module comment for the rules).
 * @param columns stored column names, in table order
 * @param options template variables and sample rows
 * @returns one assignment per column, in column order; roles not suggested are `extra`
 */
export function suggestMapping(columns: readonly string[], options: SuggestOptions = {}): ColumnMapping {
  const norm = columns.map(normalizeName);
  const result: (ColumnAssignment | null)[] = columns.map(() => null);

  // A column of JSON objects named like a set of variables: one variable per key.
  norm.forEach((n, i) => {
    if (!VARIABLE_OBJECT_NAMES.has(n)) return;
    const cells = (options.sampleRows ?? []).map((r) => r[i] ?? "").filter((c) => c.trim() !== "");
    // Written as objects: a cell with broken JSON still makes the column a variables column (its row is flagged).
    if (cells.every((c) => c.trim().startsWith("{")) && (cells.length === 0 || cells.some((c) => !parseVariablesCell(c).error)))
      result[i] = { column: columns[i], role: "variables_json" };
  });

  // Variables first: a column named like a template variable is that variable.
  const wanted = new Map<string, string>();
  for (const v of options.templateVariables ?? []) if (v.trim() !== "") wanted.set(normalizeName(v), v.trim());
  const usedVariables = new Set<string>();
  norm.forEach((n, i) => {
    if (result[i]) return;
    let name = wanted.get(n);
    if (!name) {
      const m = /^(?:var|variable|vars)_(.+)$/.exec(n);
      if (m) name = m[1];
    }
    if (name && !usedVariables.has(name)) {
      usedVariables.add(name);
      result[i] = { column: columns[i], role: "variable", variable: name };
    }
  });

  // Single roles: best score wins, ties go to the earlier column.
  const options_: { i: number; role: SingleRole; score: number }[] = [];
  norm.forEach((n, i) => {
    if (result[i]) return;
    for (const role of Object.keys(EXACT) as SingleRole[]) {
      const score = singleScore(role, n);
      if (score > 0) options_.push({ i, role, score });
    }
  });
  options_.sort((a, b) => b.score - a.score || a.i - b.i);
  const taken = new Set<string>();
  for (const o of options_) {
    if (result[o.i] || (taken.has(o.role) && o.role !== "tags")) continue;
    taken.add(o.role);
    result[o.i] = { column: columns[o.i], role: o.role };
  }

  // History by content, when no name matched.
  if (!taken.has("history") && options.sampleRows && options.sampleRows.length > 0) {
    for (let i = 0; i < columns.length; i++) {
      if (result[i]) continue;
      const cells = options.sampleRows.map((r) => r[i] ?? "").filter((c) => c.trim() !== "");
      if (cells.length > 0 && cells.every((c) => c.trim().startsWith("[") && isTurnArray(c))) {
        result[i] = { column: columns[i], role: "history" };
        break;
      }
    }
  }

  // Recorded outputs, one candidate per column with unique names.
  const usedCandidates = new Set<string>();
  columns.forEach((c, i) => {
    if (result[i]) return;
    const base = outputCandidateName(c);
    if (!base) return;
    let name = base;
    for (let k = 2; usedCandidates.has(name); k++) name = `${base}-${k}`;
    usedCandidates.add(name);
    result[i] = { column: c, role: "actual_output", candidate: name };
  });

  return columns.map((c, i) => result[i] ?? { column: c, role: "extra" });
}

function isTurnArray(cell: string): boolean {
  const parsed = parseHistory(cell);
  return !parsed.error && parsed.turns.length > 0;
}
