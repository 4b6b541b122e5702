/**
 * The Edit prompt form as data (DESIGN.md §2: shells validate input with zod on the server).
 * The form sends text fields; {@link promptEditSchema} turns them into a new revision's content
 * (lib/prompts/settings.ts for the settings, a tools list checked item by item), with messages
 * that name the field and, for tools, the item.
 */
import { z } from "zod";
import type { ToolDefinition } from "../library/case-content";
import { promptModelSettingsSchema, type PromptModelSettings } from "./settings";

/** Limits of the edit form (also stated on the page). */
export const PROMPT_EDIT_LIMITS = { systemPrompt: 100_000, message: 200, tools: 64, toolsJson: 500_000 } as const;

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Checks a tools list: each item `{ name, description, inputSchema, fixtures? }`, names unique and
 * made of letters, digits, `_` or `-` (at most 64, as providers require), `inputSchema` a JSON-schema
 * object of `type: "object"`.
 * @returns the problem in words naming the item, or null
 */
export function toolsProblem(tools: unknown): string | null {
  if (!Array.isArray(tools))
    return 'Tools must be a JSON list, e.g. [{"name": "get_order", "description": "…", "inputSchema": {"type": "object", "properties": {}}}] (or [] for none).';
  if (tools.length > PROMPT_EDIT_LIMITS.tools) return `At most ${PROMPT_EDIT_LIMITS.tools} tools.`;
  const seen = new Set<string>();
  for (const [i, t] of tools.entries()) {
    const at = `Tool ${i + 1}`;
    if (!t || typeof t !== "object" || Array.isArray(t)) return `${at} must be an object with name, description and inputSchema.`;
    const { name, description, inputSchema, fixtures, ...rest } = t as Record<string, unknown>;
    if (typeof name !== "string" || !TOOL_NAME.test(name)) return `${at}: name must be 1–64 letters, digits, _ or - (got ${JSON.stringify(name ?? null)}).`;
    const named = `${at} (${name})`;
    if (seen.has(name)) return `${named}: another tool has the same name.`;
    seen.add(name);
    if (typeof description !== "string") return `${named}: description must be text.`;
    if (!inputSchema || typeof inputSchema !== "object" || Array.isArray(inputSchema))
      return `${named}: inputSchema must be a JSON-schema object, e.g. {"type": "object", "properties": {}}.`;
    if ((inputSchema as { type?: unknown }).type !== "object") return `${named}: inputSchema must have "type": "object" (tool inputs are objects).`;
    if (fixtures !== undefined) {
      if (!fixtures || typeof fixtures !== "object" || Array.isArray(fixtures)) return `${named}: fixtures must be an object with byArguments and/or default.`;
      const by = (fixtures as { byArguments?: unknown }).byArguments;
      if (
        by !== undefined &&
        (!Array.isArray(by) ||
          by.some((b) => !b || typeof b !== "object" || !(b as { when?: unknown }).when || typeof (b as { when?: unknown }).when !== "object"))
      )
        return `${named}: fixtures.byArguments must be a list of {"when": {…}, "result": …}.`;
    }
    const extra = Object.keys(rest);
    if (extra.length) return `${named}: unknown field ${extra.map((k) => `"${k}"`).join(", ")} (a tool has name, description, inputSchema and fixtures).`;
  }
  return null;
}

/** Most characters of each text field of the edit form, with the label its refusal names. */
const FIELD_LIMITS = {
  systemPrompt: [PROMPT_EDIT_LIMITS.systemPrompt, "The system prompt"],
  temperature: [50, "Temperature"],
  maxOutputTokens: [50, "Max output tokens"],
  topP: [50, "Top P"],
  stopSequences: [10_000, "Stop sequences"],
  providerOptions: [20_000, "Provider options"],
  tools: [PROMPT_EDIT_LIMITS.toolsJson, "Tools"],
  message: [1_000, "The message"],
} as const satisfies Record<string, readonly [number, string]>;

const tooLong = (max: number, label: string) => `${label} is too long: the limit is ${max.toLocaleString("en-US")} characters.`;

/**
 * The edit form's fields that are over their limit, as field errors worded as the server's.
 * The form checks this before sending: a server action's body is capped at 1 MB, and a pasted
 * document over it would otherwise fail the request instead of getting its message.
 * @param values the form's text fields (missing ones count as empty)
 * @returns field name → message; empty when every field fits
 */
export function oversizedFields(values: Partial<Record<keyof typeof FIELD_LIMITS, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, [max, label]] of Object.entries(FIELD_LIMITS)) {
    if ((values[key as keyof typeof FIELD_LIMITS] ?? "").length > max) out[key] = tooLong(max, label);
  }
  return out;
}

/** A form field as text; left out = "". */
const field = (max: number, label: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? "" : typeof v === "number" ? String(v) : v),
    z.string({ error: `${label} must be text.` }).max(max, { error: tooLong(max, label) }),
  );

/**
 * Edit prompt: the fields of the form, as sent (text). Every field is checked in one pass, so the
 * form shows all its problems at once (a blank message does not hide a bad temperature).
 */
export const promptEditSchema = z
  .object({
    promptId: z.coerce.number().int().positive(),
    baseRevisionId: z.coerce.number().int().positive(),
    systemPrompt: field(...FIELD_LIMITS.systemPrompt),
    temperature: field(...FIELD_LIMITS.temperature),
    maxOutputTokens: field(...FIELD_LIMITS.maxOutputTokens),
    topP: field(...FIELD_LIMITS.topP),
    /** One stop sequence per line; blank lines are ignored. */
    stopSequences: field(...FIELD_LIMITS.stopSequences),
    /** JSON keyed by provider; "" = none. */
    providerOptions: field(...FIELD_LIMITS.providerOptions),
    /** A JSON list of tools; "" = none. */
    tools: field(...FIELD_LIMITS.tools),
    message: field(...FIELD_LIMITS.message),
  })
  .transform((f, ctx) => {
    let problems = 0;
    const problem = (path: string, message: string) => {
      problems++;
      ctx.addIssue({ code: "custom", path: [path], message });
    };
    const settings: Record<string, unknown> = {};
    for (const [key, label] of [
      ["temperature", "Temperature"],
      ["maxOutputTokens", "Max output tokens"],
      ["topP", "Top P"],
    ] as const) {
      const text = f[key].trim();
      if (text === "") continue;
      const n = Number(text);
      if (Number.isFinite(n)) settings[key] = n;
      else problem(key, `${label} must be a number (got "${text}").`);
    }
    const stops = f.stopSequences.split(/\r?\n/).filter((x) => x.trim() !== "");
    if (stops.length) settings.stopSequences = stops;
    const json = (key: "providerOptions" | "tools", label: string): unknown => {
      if (f[key].trim() === "") return null;
      try {
        return JSON.parse(f[key]) as unknown;
      } catch (e) {
        problem(key, `${label} is not valid JSON: ${(e as Error).message}`);
        return undefined;
      }
    };
    const providerOptions = json("providerOptions", "Provider options");
    if (providerOptions != null) settings.providerOptions = providerOptions;
    const parsed = promptModelSettingsSchema.safeParse(settings);
    if (!parsed.success) for (const i of parsed.error.issues) problem(String(i.path[0] ?? "providerOptions"), i.message);
    const tools = json("tools", "Tools");
    const toolsError = tools === undefined ? null : toolsProblem(tools ?? []);
    if (toolsError) problem("tools", toolsError);
    const message = f.message.trim();
    if (!message) problem("message", "Say why you made this change (a short message).");
    else if (message.length > PROMPT_EDIT_LIMITS.message) problem("message", `The message is at most ${PROMPT_EDIT_LIMITS.message} characters.`);
    if (problems || !parsed.success) return z.NEVER;
    return {
      promptId: f.promptId,
      baseRevisionId: f.baseRevisionId,
      systemPrompt: f.systemPrompt,
      modelSettings: parsed.data as PromptModelSettings,
      tools: (tools ?? []) as ToolDefinition[],
      message,
    };
  });
export type PromptEdit = z.output<typeof promptEditSchema>;
