/**
 * A conversation-history cell → turns (issue 3; DESIGN.md §4 "nothing is silently dropped,
 * shortened or invented").
 *
 * Accepted shapes:
 * - a JSON array of turns `{ "role": …, "content": … }` (or an object `{ "messages": [...] }`);
 * - a plain transcript where lines starting with `user:`, `assistant:`, `system:` or `tool:`
 *   (any letter case, leading spaces allowed) start a turn; following lines without a prefix
 *   continue it. Blank lines between turns are not part of a turn.
 *
 * Replayable turns are plain-text `user` / `assistant` / `system` turns. Everything else is kept
 * with `replayable: false`, a `note` saying why, and the original turn JSON in `raw`:
 * tool calls (`tool_calls`, `function_call`), `tool` / `function` roles, non-string content
 * (images, content-part arrays — text parts are joined into `content`), and unknown roles (stored
 * with role `user`, the original role in `raw` and `note`). A plain-text turn with extra fields
 * (e.g. `name`) stays replayable and keeps the original in `raw`.
 * Numbers inside `raw` keep their source text (json-raw.ts).
 */
import type { Turn, TurnRole } from "@/lib/library/case-content";
import { getMember, stringifyRawJson, tryParseRawJson, type RawJson } from "./json-raw";

/** Result of {@link parseHistory}. `error` is set when the cell could not be read as a history. */
export interface ParsedHistory {
  turns: Turn[];
  error?: string;
}

const TEXT_ROLES = new Set(["user", "assistant", "system"]);
const PREFIX_RE = /^[ \t]*(user|assistant|system|tool)[ \t]*:[ \t]?/i;

/**
 * Parses one history cell.
 * @param cell the cell text (empty or whitespace → no turns, no error)
 * @returns the turns, or `error` (and no turns) when the cell is neither a turn array nor a transcript
 */
export function parseHistory(cell: string): ParsedHistory {
  const text = cell.trim();
  if (text === "") return { turns: [] };
  if (text.startsWith("[")) {
    const fast = plainTextTurns(text);
    if (fast) return { turns: fast };
  }
  if (text.startsWith("[") || text.startsWith("{")) {
    const node = tryParseRawJson(text);
    if (node) return fromJson(node);
    if (!PREFIX_RE.test(text)) return { turns: [], error: "it looks like JSON but is not valid JSON" };
  }
  return fromTranscript(cell);
}

/**
 * Fast path for the common shape — an array of `{role, content}` objects with a text role and
 * string content and no other keys — using the native `JSON.parse` (no numbers are involved, so
 * nothing loses its source text). Returns null for anything else; the full path then decides.
 */
function plainTextTurns(text: string): Turn[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  for (const item of value) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return null;
    const { role, content } = item as { role?: unknown; content?: unknown };
    if (typeof role !== "string" || typeof content !== "string" || !TEXT_ROLES.has(role)) return null;
    if (Object.keys(item).length !== 2) return null;
  }
  // Memory: a content without JSON escapes appears verbatim in the cell, so it is taken as a slice
  // of the cell (which is kept anyway) instead of the copy JSON.parse made. `map` gives an array of
  // exactly the right length.
  let from = 0;
  return (value as { role: TurnRole; content: string }[]).map((item) => {
    let content = item.content;
    const at = content.length >= 13 ? text.indexOf(content, from) : -1;
    if (at !== -1) {
      content = text.slice(at, at + content.length);
      from = at + content.length;
    }
    return { role: item.role, content, replayable: true };
  });
}

function fromJson(node: RawJson): ParsedHistory {
  let list: RawJson | undefined = node;
  if (node.kind === "object") list = getMember(node, "messages");
  if (!list || list.kind !== "array") {
    return { turns: [], error: "expected a JSON array of {role, content} turns" };
  }
  const turns: Turn[] = [];
  for (let i = 0; i < list.items.length; i++) {
    const item = list.items[i];
    if (item.kind !== "object") {
      return { turns: [], error: `turn ${i + 1} is not an object` };
    }
    const role = getMember(item, "role");
    if (!role || role.kind !== "string") {
      return { turns: [], error: `turn ${i + 1} has no "role"` };
    }
    turns.push(turnFromObject(item, role.value));
  }
  return { turns };
}

function turnFromObject(item: Extract<RawJson, { kind: "object" }>, roleText: string): Turn {
  const roleKey = roleText.trim().toLowerCase();
  const content = getMember(item, "content");
  const reasons: string[] = [];
  let role: TurnRole;
  if (TEXT_ROLES.has(roleKey)) role = roleKey as TurnRole;
  else if (roleKey === "tool" || roleKey === "function") {
    role = "tool";
    reasons.push(`a ${roleKey} turn cannot be replayed as text`);
  } else {
    role = "user";
    reasons.push(`unknown role "${roleText}"`);
  }
  const toolCalls = getMember(item, "tool_calls");
  const functionCall = getMember(item, "function_call");
  if (
    (toolCalls && toolCalls.kind !== "null" && !(toolCalls.kind === "array" && toolCalls.items.length === 0)) ||
    (functionCall && functionCall.kind !== "null")
  ) {
    reasons.push("the turn contains tool calls");
  }
  let text = "";
  if (!content || content.kind === "null") text = "";
  else if (content.kind === "string") text = content.value;
  else if (content.kind === "array") {
    const parts = content.items.map((p) => {
      if (p.kind === "string") return p.value;
      const t = getMember(p, "text");
      return t && t.kind === "string" ? t.value : null;
    });
    const nonText = parts.filter((p) => p === null).length;
    text = parts.filter((p): p is string => p !== null).join("\n");
    reasons.push(nonText > 0 ? "the content has non-text parts (e.g. images)" : "the content is a list of parts, not plain text");
  } else {
    text = stringifyRawJson(content);
    reasons.push("the content is not plain text");
  }
  const extraKeys = item.entries.some(([k]) => k !== "role" && k !== "content");
  const turn: Turn = { role, content: text };
  if (reasons.length > 0) {
    turn.replayable = false;
    turn.note = reasons.join("; ");
    turn.raw = stringifyRawJson(item);
  } else if (extraKeys || roleText !== roleKey) {
    turn.replayable = true;
    turn.raw = stringifyRawJson(item);
  } else {
    turn.replayable = true;
  }
  return turn;
}

function fromTranscript(cell: string): ParsedHistory {
  const lines = cell.split(/\r\n|\r|\n/);
  const turns: Turn[] = [];
  let current: { role: TurnRole; lines: string[] } | null = null;
  const flush = () => {
    if (!current) return;
    while (current.lines.length > 0 && current.lines[current.lines.length - 1].trim() === "") current.lines.pop();
    const turn: Turn = { role: current.role, content: current.lines.join("\n") };
    if (current.role === "tool") {
      turn.replayable = false;
      turn.note = "a tool turn cannot be replayed as text";
    } else turn.replayable = true;
    turns.push(turn);
  };
  for (const line of lines) {
    const m = PREFIX_RE.exec(line);
    if (m) {
      flush();
      current = { role: m[1].toLowerCase() as TurnRole, lines: [line.slice(m[0].length)] };
    } else if (current) {
      current.lines.push(line);
    } else if (line.trim() !== "") {
      return { turns: [], error: 'the text before the first turn has no "user:", "assistant:" or "system:" prefix' };
    }
  }
  flush();
  if (turns.length === 0) return { turns: [], error: "no turns found" };
  return { turns };
}
