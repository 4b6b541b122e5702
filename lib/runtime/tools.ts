/**
 * Tools of a trial: which tools a case exposes, what a tool call returns (fixtures, never real side
 * effects), and the ai SDK ToolSet built from tool definitions.
 */
import { jsonSchema, tool, type JSONSchema7, type ToolSet } from "ai";
import type { CaseContent, ToolDefinition } from "@/lib/library/case-content";
import { jsonEqual } from "./json-equal";

/**
 * The tools exposed to the model for one case: the case's own `toolDefinitions` first (always
 * exposed: they belong to the case), then the prompt revision's tools — all of them when
 * `content.tools` is absent, otherwise only those named in `content.tools` (in the prompt's order).
 * A case definition wins over a prompt tool of the same name; names are unique in the result.
 * @param promptTools the prompt revision's tool definitions
 * @param content the case content (`tools` and `toolDefinitions` are read)
 * @returns the definitions to expose, deduplicated by name
 */
export function exposedTools(promptTools: readonly ToolDefinition[], content: Pick<CaseContent, "tools" | "toolDefinitions">): ToolDefinition[] {
  const out: ToolDefinition[] = [];
  const seen = new Set<string>();
  for (const def of content.toolDefinitions ?? []) {
    if (seen.has(def.name)) continue;
    seen.add(def.name);
    out.push(def);
  }
  const allowed = content.tools ? new Set(content.tools) : null;
  for (const def of promptTools) {
    if (seen.has(def.name)) continue;
    if (allowed && !allowed.has(def.name)) continue;
    seen.add(def.name);
    out.push(def);
  }
  return out;
}

/**
 * Names listed in `content.tools` that match neither a case definition nor a prompt tool, so the
 * planner can report them (a case asking for a tool that does not exist).
 * @returns unknown names, in the order of `content.tools`, without duplicates
 */
export function missingToolNames(promptTools: readonly ToolDefinition[], content: Pick<CaseContent, "tools" | "toolDefinitions">): string[] {
  if (!content.tools) return [];
  const known = new Set([...promptTools.map((t) => t.name), ...(content.toolDefinitions ?? []).map((t) => t.name)]);
  return [...new Set(content.tools.filter((n) => !known.has(n)))];
}

/** Which fixture answered a tool call. */
export type FixtureSource = "byArguments" | "default" | "none";

/** Result of {@link matchFixture}. */
export interface FixtureMatch {
  /** The value returned to the model (the error object when `source` is `none`). */
  result: unknown;
  source: FixtureSource;
  /** Index of the matching `byArguments` entry (only when `source` is `byArguments`). */
  index?: number;
}

const MAX_ARGS_IN_MESSAGE = 300;

function argsForMessage(input: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(input) ?? String(input);
  } catch {
    text = String(input);
  }
  return text.length > MAX_ARGS_IN_MESSAGE ? `${text.slice(0, MAX_ARGS_IN_MESSAGE)}…` : text;
}

function asArguments(input: unknown): unknown {
  if (typeof input !== "string") return input;
  const text = input.trim();
  if (text === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return input;
  }
}

/**
 * Finds the fixture result of one tool call: the first `fixtures.byArguments` entry whose `when`
 * values all deep-equal the call's arguments of the same name wins (an empty `when` matches any
 * call), else `fixtures.default` when the tool has one (even `null`), else an error object
 * `{ error: "no fixture for tool NAME with arguments {…}" }` that is returned to the model as the
 * tool result (a trial never throws because of a missing fixture).
 * @param def the tool definition with its fixtures
 * @param input the call's arguments (an object; a JSON string is parsed first)
 */
export function matchFixture(def: ToolDefinition, input: unknown): FixtureMatch {
  const args = asArguments(input);
  const fixtures = def.fixtures;
  const entries = fixtures?.byArguments ?? [];
  const record = typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : null;
  for (let i = 0; i < entries.length; i++) {
    const when = entries[i].when ?? {};
    const keys = Object.keys(when);
    if (keys.length > 0 && record === null) continue;
    if (keys.every((k) => record !== null && jsonEqual(when[k], record[k]))) {
      return { result: entries[i].result, source: "byArguments", index: i };
    }
  }
  if (fixtures && Object.prototype.hasOwnProperty.call(fixtures, "default") && fixtures.default !== undefined) {
    return { result: fixtures.default, source: "default" };
  }
  return {
    result: { error: `no fixture for tool ${def.name} with arguments ${argsForMessage(args)}` },
    source: "none",
  };
}

/**
 * The value a tool call returns to the model (see {@link matchFixture}). Never throws.
 * @param def the tool definition with its fixtures
 * @param input the call's arguments
 */
export function fixtureResult(def: ToolDefinition, input: unknown): unknown {
  return matchFixture(def, input).result;
}

/** What {@link toAiSdkTools} reports for every executed tool call. */
export interface ToolResultEvent {
  toolCallId: string;
  toolName: string;
  input: unknown;
  output: unknown;
  source: FixtureSource;
}

const BFCL_TYPES: Record<string, string | null> = { dict: "object", float: "number", tuple: "array", any: null };

function mapSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(mapSchema);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === "type") {
      if (typeof value === "string" && value in BFCL_TYPES) {
        const mapped = BFCL_TYPES[value];
        if (mapped !== null) out.type = mapped;
      } else if (Array.isArray(value)) {
        const mapped = value.map((t) => (typeof t === "string" && t in BFCL_TYPES ? BFCL_TYPES[t] : t)).filter((t) => t !== null);
        if (mapped.length > 0) out.type = [...new Set(mapped)];
      } else {
        out.type = value;
      }
    } else if (key === "properties" || key === "$defs" || key === "definitions" || key === "patternProperties") {
      const props: Record<string, unknown> = {};
      if (typeof value === "object" && value !== null) {
        for (const [name, sub] of Object.entries(value as Record<string, unknown>)) props[name] = mapSchema(sub);
      }
      out[key] = props;
    } else if (["items", "additionalProperties", "anyOf", "oneOf", "allOf", "not", "prefixItems", "contains"].includes(key)) {
      out[key] = mapSchema(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * The JSON schema sent to providers for a tool's input. The stored definition is not changed.
 * - The top level is always an object schema (`type: "object"`, `properties: {}` when absent), as
 *   OpenAI and Anthropic require.
 * - Berkeley Function Calling Leaderboard type names are mapped to JSON Schema: `dict` → `object`,
 *   `float` → `number`, `tuple` → `array`, `any` → no type constraint (recursively).
 * @param schema a tool's `inputSchema`
 */
export function toProviderJsonSchema(schema: Record<string, unknown>): JSONSchema7 {
  const mapped = mapSchema(schema ?? {}) as Record<string, unknown>;
  if (mapped.type === undefined || mapped.type !== "object") mapped.type = "object";
  if (typeof mapped.properties !== "object" || mapped.properties === null) mapped.properties = {};
  return mapped as JSONSchema7;
}

/**
 * Builds the ai SDK ToolSet for `generateText`: one `tool({ description, inputSchema, execute })`
 * per definition (first definition wins for a repeated name), whose `execute` returns the fixture
 * result ({@link fixtureResult}) and never throws. Inputs are not validated against the schema:
 * the model's call is recorded as sent and judged by evaluators.
 * @param defs the exposed tool definitions
 * @param onResult called synchronously after each executed call with the call and its result
 */
export function toAiSdkTools(defs: readonly ToolDefinition[], onResult?: (event: ToolResultEvent) => void): ToolSet {
  const set: ToolSet = {};
  for (const def of defs) {
    if (Object.prototype.hasOwnProperty.call(set, def.name)) continue;
    set[def.name] = tool<unknown, unknown>({
      description: def.description,
      inputSchema: jsonSchema<unknown>(toProviderJsonSchema(def.inputSchema)),
      execute: async (input, options) => {
        const match = matchFixture(def, input);
        onResult?.({ toolCallId: options.toolCallId, toolName: def.name, input, output: match.result, source: match.source });
        return match.result;
      },
    });
  }
  return set;
}
