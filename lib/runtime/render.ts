/**
 * Prompt rendering and history replay (DESIGN.md §4 step 4 "Run": render the prompt, replay text history).
 *
 * Rules (decided here, tested in render.test.ts):
 * - The system prompt template is filled from the case's `variables` (see template.ts). A missing
 *   variable is reported in `missingVariables` and its placeholder is left as written; nothing is invented.
 * - Only the system prompt is a template. History turns and the case input are data and are sent
 *   verbatim (a `{{x}}` inside them is not substituted).
 * - History is replayed in its saved order before the input:
 *   - text `user` / `assistant` turns become user / assistant messages;
 *   - text `system` turns are appended to the system prompt, in order, each separated by a blank
 *     line. They are not sent as mid-conversation system messages, because several providers
 *     (Anthropic among them) reject or move those; appending keeps their text and their precedence;
 *   - turns with `replayable === false`, `tool` turns, non-text turns (a `raw` original and not
 *     explicitly `replayable: true`) and turns with an unknown role are NOT sent. They are listed in
 *     `unreplayable` with the reason, so the bench can mark the case's checks `unscored` (§4 step 1).
 * - The case `input` is sent as the final user message when it is not blank. A blank input is not
 *   sent (`inputSent: false`); providers reject empty user messages.
 */
import type { ModelMessage } from "ai";
import type { CaseContent, Turn } from "@/lib/library/case-content";
import { fillTemplate } from "./template";

export { templateVariables, fillTemplate } from "./template";

/** A history turn that was not sent to the model, and why. */
export interface UnreplayableTurn {
  /** Index of the turn in `content.history` (0-based). */
  index: number;
  /** The turn's role as saved (may be a role the runtime does not know). */
  role: string;
  /** Why the turn cannot be replayed, in words a user understands. */
  reason: string;
}

/** Input of {@link renderPrompt}. */
export interface RenderPromptInput {
  /** The prompt revision's system prompt template, with `{{variables}}`. May be "". */
  systemPrompt: string;
  /** The case content (only `input`, `history` and `variables` are read). */
  content: Pick<CaseContent, "input" | "history" | "variables">;
}

/** Output of {@link renderPrompt}: exactly what will be sent to the model. */
export interface RenderedPrompt {
  /** The system prompt with variables filled and system turns appended ("" when there is none). */
  system: string;
  /** Replayed history followed by the input as the final user message (ai SDK messages). */
  messages: ModelMessage[];
  /** Variables used by the system prompt that the case does not define (in order of first use). */
  missingVariables: string[];
  /** History turns that were not sent, with the reason (makes the case's checks `unscored`). */
  unreplayable: UnreplayableTurn[];
  /** Whether the case input was sent as the final user message (false when it is blank). */
  inputSent: boolean;
}

const KNOWN_ROLES = new Set(["user", "assistant", "system", "tool"]);

/**
 * Why a turn cannot be replayed, or `null` when it can (see module doc).
 * @param turn a saved conversation turn
 */
export function unreplayableReason(turn: Turn): string | null {
  const role: string = turn.role;
  const note = turn.note ? ` (${turn.note})` : "";
  if (!KNOWN_ROLES.has(role)) return `unknown role "${role}" cannot be replayed${note}`;
  if (role === "tool") return `tool turns cannot be replayed${note}`;
  if (turn.replayable === false) return `turn is marked not replayable${note || " (non-text content)"}`;
  if (turn.raw !== undefined && turn.replayable !== true) return `non-text turn cannot be replayed${note}`;
  if (typeof turn.content !== "string") return `turn content is not text${note}`;
  return null;
}

/**
 * Renders the system prompt and the messages of one case (see module doc for the rules).
 * Pure; never throws for well-typed input.
 * @returns system text, ai SDK messages, missing variables and the turns that were not sent
 */
export function renderPrompt({ systemPrompt, content }: RenderPromptInput): RenderedPrompt {
  const values = new Map<string, string>();
  for (const v of content.variables ?? []) if (!values.has(v.name)) values.set(v.name, v.value);
  const filled = fillTemplate(systemPrompt ?? "", values);

  const systemParts: string[] = filled.text === "" ? [] : [filled.text];
  const messages: ModelMessage[] = [];
  const unreplayable: UnreplayableTurn[] = [];

  (content.history ?? []).forEach((turn, index) => {
    const reason = unreplayableReason(turn);
    if (reason !== null) {
      unreplayable.push({ index, role: String(turn.role), reason });
      return;
    }
    if (turn.role === "system") {
      if (turn.content !== "") systemParts.push(turn.content);
    } else if (turn.role === "user") {
      messages.push({ role: "user", content: turn.content });
    } else {
      messages.push({ role: "assistant", content: turn.content });
    }
  });

  const input = content.input ?? "";
  const inputSent = input.trim() !== "";
  if (inputSent) messages.push({ role: "user", content: input });

  return {
    system: systemParts.join("\n\n"),
    messages,
    missingVariables: filled.missingVariables,
    unreplayable,
    inputSent,
  };
}
