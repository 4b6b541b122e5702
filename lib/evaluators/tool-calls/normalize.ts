/**
 * Tool-call normalisation: turns tool calls in any common shape into `{ toolName, input }` with the
 * arguments parsed from JSON strings.
 *
 * Accepted shapes (first match wins):
 * - ai SDK: `{ toolCallId?, toolName, input }` (also the older `args`); `input` an object or a JSON string.
 * - OpenAI chat completions: `{ id?, type: "function", function: { name, arguments } }`, `arguments` a JSON string.
 * - Recorded / BFCL / Anthropic-like: `{ name, arguments }` or `{ name, input }` (object or JSON string).
 *
 * Argument strings: "" or whitespace means "no arguments" (`{}`); a string that is not valid JSON
 * stays a string and `argumentsError` records the parser message; a JSON string that itself
 * decodes to a JSON-object string (double encoding) is decoded once more.
 * An entry without a recognisable name keeps `toolName: ""` and its raw value as input.
 */
import type { NormalizedToolCall } from "../types";

type Rec = Record<string, unknown>;

function isRecord(v: unknown): v is Rec {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Parses tool-call arguments. Objects and other non-string values are returned as they are;
 * strings are parsed as JSON (see module doc).
 * @returns the parsed input and, for an unparsable string, the parser's message
 */
export function parseToolArguments(raw: unknown): { input: unknown; error?: string } {
  if (typeof raw !== "string") return { input: raw === undefined || raw === null ? {} : raw };
  const text = raw.trim();
  if (text === "") return { input: {} };
  try {
    let value: unknown = JSON.parse(text);
    if (typeof value === "string") {
      const inner = value.trim();
      if (inner.startsWith("{") && inner.endsWith("}")) {
        try {
          value = JSON.parse(inner);
        } catch {
          /* keep the decoded string */
        }
      }
    }
    return { input: value };
  } catch (e) {
    return { input: raw, error: (e as Error).message };
  }
}

/** Normalises one raw tool call (see module doc). Never throws. */
export function normalizeToolCall(raw: unknown): NormalizedToolCall {
  if (!isRecord(raw)) return { toolName: "", input: raw };
  let toolName: unknown;
  let args: unknown;
  let id: unknown;
  const fn = raw.function;
  if (typeof raw.toolName === "string") {
    toolName = raw.toolName;
    args = "input" in raw ? raw.input : raw.args;
    id = raw.toolCallId ?? raw.id;
  } else if (isRecord(fn) && typeof fn.name === "string") {
    toolName = fn.name;
    args = fn.arguments;
    id = raw.id;
  } else if (typeof raw.name === "string") {
    toolName = raw.name;
    args = "arguments" in raw ? raw.arguments : "input" in raw ? raw.input : raw.parameters;
    id = raw.id ?? raw.toolCallId;
  } else {
    return { toolName: "", input: raw };
  }
  const parsed = parseToolArguments(args);
  const out: NormalizedToolCall = { toolName: toolName as string, input: parsed.input };
  if (typeof id === "string") out.toolCallId = id;
  if (parsed.error !== undefined) out.argumentsError = parsed.error;
  return out;
}

/**
 * Normalises a list of raw tool calls (ai SDK, OpenAI raw, or `{ name, arguments }`), keeping their order.
 * @param raw the calls as the model or dataset gave them; a non-array is treated as no calls
 * @returns one `{ toolName, input }` per entry
 */
export function normalizeToolCalls(raw: readonly unknown[] | null | undefined): NormalizedToolCall[] {
  if (!Array.isArray(raw)) return [];
  const out = new Array<NormalizedToolCall>(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = normalizeToolCall(raw[i]);
  return out;
}

const cache = new WeakMap<object, readonly NormalizedToolCall[]>();

/**
 * The trial's normalised tool calls: `trial.normalizedToolCalls` when given, otherwise
 * `normalizeToolCalls(trial.toolCalls)` (memoised per trial object).
 */
export function normalizedCallsOf(trial: {
  toolCalls?: readonly unknown[] | null;
  normalizedToolCalls?: readonly NormalizedToolCall[] | null;
}): readonly NormalizedToolCall[] {
  if (trial.normalizedToolCalls) return trial.normalizedToolCalls;
  const hit = cache.get(trial);
  if (hit) return hit;
  const calls = normalizeToolCalls(trial.toolCalls ?? []);
  cache.set(trial, calls);
  return calls;
}
