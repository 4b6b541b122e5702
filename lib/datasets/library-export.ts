/**
 * A prompt's library as a table for CSV/JSONL export (issue 3 "Export"). Column names follow the
 * importer's suggestions, so an exported file imports back with the same roles: `case_id`,
 * `input`, `expected`, `notes`, `tags`, `history` (JSON turns), `var_<name>` per variable,
 * `resolved_prompt`, `<candidate>_output` per recorded output; extra columns keep their names.
 * Less common parts (other context, evaluators, private data, recorded tool calls) are JSON columns.
 */
import type { CaseContent } from "@/lib/library/case-content";
import { setOwn } from "./own";

/** One case to export. */
export interface ExportCase {
  caseKey: string;
  promptName: string;
  source: string;
  status: string;
  content: CaseContent;
}

/** Columns and rows of the export. */
export interface ExportTable {
  columns: string[];
  rows: Record<string, string>[];
}

/**
 * Builds the export table. Columns appear only when some case uses them (besides the fixed
 * `case_id, prompt, source, status, input, expected, notes, tags`); a name taken twice gets `_2`.
 * @param list the cases, in the order to write them
 */
export function libraryExportTable(list: readonly ExportCase[]): ExportTable {
  const columns: string[] = ["case_id", "prompt", "source", "status", "input", "expected", "notes", "tags"];
  const taken = new Set(columns);
  /** Column of each logical key (e.g. `var:shop` → `var_shop`), created on first use. */
  const columnOf = new Map<string, string>();
  const col = (key: string, wanted: string): string => {
    let name = columnOf.get(key);
    if (name === undefined) {
      name = wanted;
      for (let n = 2; taken.has(name); n++) name = `${wanted}_${n}`;
      taken.add(name);
      columnOf.set(key, name);
      columns.push(name);
    }
    return name;
  };
  const rows = list.map((c) => {
    const k = c.content;
    const row: Record<string, string> = {
      case_id: c.caseKey,
      prompt: c.promptName,
      source: c.source,
      status: c.status,
      input: k.input,
      expected: k.expected,
      notes: k.notes,
      tags: k.tags.join(", "),
    };
    if (k.history.length > 0) row[col("history", "history")] = JSON.stringify(k.history);
    for (const v of k.variables) setOwn(row, col(`var:${v.name}`, `var_${v.name}`), v.value);
    const otherContext = k.context.filter((x) => x.name !== "resolved_prompt");
    const resolved = k.context.find((x) => x.name === "resolved_prompt");
    if (resolved) row[col("resolved_prompt", "resolved_prompt")] = resolved.value;
    if (otherContext.length > 0) row[col("context", "context")] = JSON.stringify(otherContext);
    for (const [name, text] of Object.entries(k.recordedOutputs)) setOwn(row, col(`out:${name}`, `${name}_output`), text);
    for (const [name, value] of Object.entries(k.extra)) setOwn(row, col(`extra:${name}`, name), value);
    if (k.evaluators.length > 0) row[col("evaluators", "evaluators")] = JSON.stringify(k.evaluators);
    if (k.data !== null && k.data !== undefined) row[col("data", "data")] = JSON.stringify(k.data);
    if (k.recordedToolCalls && Object.keys(k.recordedToolCalls).length > 0)
      row[col("recorded_tool_calls", "recorded_tool_calls")] = JSON.stringify(k.recordedToolCalls);
    return row;
  });
  return { columns, rows };
}
