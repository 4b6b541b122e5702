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
  if (!Array.isArray(tools)) return 'Tools must be a JSON list, e.g. [{"name": "get_order", "description": "…", "inputSchema": {"type": "object", "properties": {}}}] (or [] for none).';
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
    if (!inputSchema || typeof inputSchema !== "object" || Array.isArray(inputSchema)) return `${named}: inputSchema must be a JSON-schema object, e.g. {"type": "object", "properties": {}}.`;
    if ((inputSchema as { type?: unknown }).type !== "object") return `${named}: inputSchema must have "type": "object" (tool inputs are objects).`;
    if (fixtures !== undefined) {
      if (!fixtures || typeof fixtures !== "object" || Array.isArray(fixtures)) return `${named}: fixtures must be an object with byArguments and/or default.`;
      const by = (fixtures as { byArguments?: unknown }).byArguments;
      if (by !== undefined && (!Array.isArray(by) || by.some((b) => !b || typeof b !== "object" || !(b as { when?: unknown }).when || typeof (b as { when?: unknown }).when !== "object")))
        return `${named}: fixtures.byArguments must be a list of {"when": {…}, "result": …}.`;
    }
    const extra = Object.keys(rest);
    if (extra.length) return `${named}: unknown field ${extra.map((k) => `"${k}"`).join(", ")} (a tool has name, description, inputSchema and fixtures).`;
  }
  return null;
}

/** Optional number field: "" = not set. */
const optionalNumber = (label: string) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? Number(v) : v), z.number({ error: `${label} must be a number.` }).optional());

/** JSON typed into a textarea; "" (or the field left out) = null. */
const jsonText = (label: string, max: number) =>
  z.preprocess(
    // Not .default(): zod returns a default as the output without running the transform.
    (v) => (v === undefined ? "" : v),
    z
      .string()
      .max(max, { error: `${label} is too long: the limit is ${max.toLocaleString("en-US")} characters.` })
      .transform((s, ctx) => {
        if (s.trim() === "") return null;
        try {
          return JSON.parse(s) as unknown;
        } catch (e) {
          ctx.addIssue({ code: "custom", message: `${label} is not valid JSON: ${(e as Error).message}` });
          return z.NEVER;
        }
      }),
  );

/** Edit prompt: the fields of the form, as sent. */
export const promptEditSchema = z
  .object({
    promptId: z.coerce.number().int().positive(),
    baseRevisionId: z.coerce.number().int().positive(),
    systemPrompt: z.string().max(PROMPT_EDIT_LIMITS.systemPrompt, { error: `The system prompt is too long: the limit is ${PROMPT_EDIT_LIMITS.systemPrompt.toLocaleString("en-US")} characters.` }),
    temperature: optionalNumber("Temperature"),
    maxOutputTokens: optionalNumber("Max output tokens"),
    topP: optionalNumber("Top P"),
    /** One stop sequence per line; blank lines are ignored. */
    stopSequences: z.string().max(10_000).default(""),
    providerOptions: jsonText("Provider options", 20_000),
    tools: jsonText("Tools", PROMPT_EDIT_LIMITS.toolsJson),
    message: z
      .string()
      .trim()
      .min(1, { error: "Say why you made this change (a short message)." })
      .max(PROMPT_EDIT_LIMITS.message, { error: `The message is at most ${PROMPT_EDIT_LIMITS.message} characters.` }),
  })
  .transform((f, ctx) => {
    const settings: Record<string, unknown> = {};
    if (f.temperature !== undefined) settings.temperature = f.temperature;
    if (f.maxOutputTokens !== undefined) settings.maxOutputTokens = f.maxOutputTokens;
    if (f.topP !== undefined) settings.topP = f.topP;
    const stops = f.stopSequences.split(/\r?\n/).filter((s) => s.trim() !== "");
    if (stops.length) settings.stopSequences = stops;
    if (f.providerOptions != null) settings.providerOptions = f.providerOptions;
    const parsed = promptModelSettingsSchema.safeParse(settings);
    if (!parsed.success) {
      for (const i of parsed.error.issues) ctx.addIssue({ code: "custom", path: [String(i.path[0] ?? "providerOptions")], message: i.message });
      return z.NEVER;
    }
    const tools = f.tools ?? [];
    const problem = toolsProblem(tools);
    if (problem) {
      ctx.addIssue({ code: "custom", path: ["tools"], message: problem });
      return z.NEVER;
    }
    return {
      promptId: f.promptId,
      baseRevisionId: f.baseRevisionId,
      systemPrompt: f.systemPrompt,
      modelSettings: parsed.data as PromptModelSettings,
      tools: tools as ToolDefinition[],
      message: f.message,
    };
  });
export type PromptEdit = z.output<typeof promptEditSchema>;
