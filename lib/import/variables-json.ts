/**
 * A "variables (JSON object)" cell → template variables, one per key (item 26): a column such as
 * `{"shop_name": "Northwind Goods", "tier": "gold"}` fills `{{shop_name}}` and `{{tier}}`.
 * Values become text like every cell (json-raw.ts `rawJsonToCell`): strings as is, numbers and
 * booleans as written, nested values as compact JSON; `null` and empty strings are left out
 * (nothing is invented, as for an empty variable column). Keys are kept exactly; a repeated key
 * keeps its last value (like `JSON.parse`).
 */
import type { NameValue } from "@/lib/library/case-content";
import { JsonSyntaxError, objectEntries, parseRawJson, rawJsonToCell, type RawJson } from "./json-raw";

/** Result of {@link parseVariablesCell}: the variables, or why the cell is not a JSON object of variables. */
export interface ParsedVariables {
  variables: NameValue[];
  error?: string;
}

/**
 * Reads one cell.
 * @param cell the cell text (empty or whitespace → no variables, no error)
 * @returns the variables in key order, or `error` (and none) when the cell is not valid JSON,
 *   not an object, or has an empty key
 */
export function parseVariablesCell(cell: string): ParsedVariables {
  if (cell.trim() === "") return { variables: [] };
  let node: RawJson;
  try {
    node = parseRawJson(cell, 64);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { variables: [], error: `invalid JSON: ${e.message}` };
    throw e;
  }
  if (node.kind !== "object") return { variables: [], error: `it is ${node.kind === "array" ? "an array" : `a ${node.kind}`}` };
  const variables: NameValue[] = [];
  for (const [name, value] of objectEntries(node).entries) {
    if (name.trim() === "") return { variables: [], error: "a key is empty" };
    const text = rawJsonToCell(value);
    if (text !== "") variables.push({ name, value: text });
  }
  return { variables };
}
