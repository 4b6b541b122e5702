/**
 * What an imported tool turn did, for showing it (issue item 31): a turn that only calls tools has
 * no text (`content` is ""), so the library showed an empty box. The calls live in the turn's
 * original JSON (`raw`, kept by lib/import/history.ts); this reads them back. Pure, display only:
 * nothing here changes the stored turn.
 *
 * Shapes read: OpenAI `tool_calls: [{ id, function: { name, arguments } }]` and the older
 * `function_call: { name, arguments }`; content parts `{ type: "tool_use", id, name, input }`
 * (Anthropic) and `{ type: "tool-call", toolCallId, toolName, input }` (ai SDK); and for results,
 * `tool_call_id` (OpenAI), `{ type: "tool_result", tool_use_id }` and
 * `{ type: "tool-result", toolCallId, toolName }` parts.
 */
import type { Turn } from "./case-content";

/** One tool call: `arguments` is pretty-printed JSON when the arguments are JSON, else the text as written. */
export interface TurnToolCall {
  id: string | null;
  name: string;
  arguments: string;
}

/** The tool calls a turn makes, and the call a tool-result turn answers (null when it is not one). */
export interface TurnToolActivity {
  calls: TurnToolCall[];
  result: { id: string | null; name: string | null } | null;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/**
 * The tool activity of a turn, read from its original JSON.
 * @param turn a stored conversation turn
 * @returns the calls in order (empty when none) and the answered call of a tool result
 */
export function turnToolActivity(turn: Turn): TurnToolActivity {
  const none: TurnToolActivity = { calls: [], result: null };
  if (!turn.raw) return none;
  let item: unknown;
  try {
    item = JSON.parse(turn.raw);
  } catch {
    return none;
  }
  if (!isObj(item)) return none;
  const calls: TurnToolCall[] = [];
  if (Array.isArray(item.tool_calls)) {
    for (const c of item.tool_calls) {
      if (!isObj(c)) continue;
      const fn = isObj(c.function) ? c.function : c;
      const name = str(fn.name);
      if (name) calls.push({ id: str(c.id), name, arguments: argumentsText(fn.arguments ?? fn.input) });
    }
  }
  if (isObj(item.function_call)) {
    const name = str(item.function_call.name);
    if (name) calls.push({ id: null, name, arguments: argumentsText(item.function_call.arguments) });
  }
  let result: TurnToolActivity["result"] = str(item.tool_call_id) ? { id: str(item.tool_call_id), name: str(item.name) } : null;
  if (Array.isArray(item.content)) {
    for (const p of item.content) {
      if (!isObj(p)) continue;
      if (p.type === "tool_use" && str(p.name)) calls.push({ id: str(p.id), name: str(p.name)!, arguments: argumentsText(p.input) });
      else if (p.type === "tool-call" && str(p.toolName)) calls.push({ id: str(p.toolCallId), name: str(p.toolName)!, arguments: argumentsText(p.input) });
      else if (p.type === "tool_result" && !result) result = { id: str(p.tool_use_id), name: null };
      else if (p.type === "tool-result" && !result) result = { id: str(p.toolCallId), name: str(p.toolName) };
    }
  }
  return { calls, result };
}

/** Arguments as shown: JSON (given as text or as a value) pretty-printed; other text as written. */
function argumentsText(args: unknown): string {
  if (args === undefined || args === null) return "{}";
  if (typeof args === "string") {
    try {
      return JSON.stringify(JSON.parse(args), null, 2);
    } catch {
      return args;
    }
  }
  return JSON.stringify(args, null, 2);
}
