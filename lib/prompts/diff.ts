/**
 * What changed between two prompt revisions: the template as a word diff (prompts are often one
 * long paragraph, where a line diff would only say "the line changed"), each model setting that
 * differs, and each tool added, removed or changed (with the fields that changed). Pure.
 */
import { diffWordsWithSpace } from "diff";
import type { ToolDefinition } from "../library/case-content";

/** One piece of the template diff, in order: unchanged text, text only in `to`, or only in `from`. */
export interface TemplatePart {
  kind: "same" | "added" | "removed";
  text: string;
}

/** A model setting whose value differs (`undefined` = not set on that side). */
export interface SettingChange {
  key: string;
  from: unknown;
  to: unknown;
}

/** A tool that differs between the two revisions. */
export interface ToolChange {
  name: string;
  change: "added" | "removed" | "changed";
  /** For `changed`: which fields differ (description, inputSchema, fixtures). */
  fields: string[];
}

/** The diff of two revisions (`from` → `to`). */
export interface PromptRevisionDiff {
  template: TemplatePart[];
  settings: SettingChange[];
  tools: ToolChange[];
  /** True when template, settings and tools are all the same. */
  same: boolean;
}

/** The parts of a revision the diff reads. */
export interface DiffSide {
  systemPrompt: string;
  modelSettings: Record<string, unknown>;
  tools: ToolDefinition[];
}

function canonical(v: unknown): string {
  return (
    JSON.stringify(v, (_k, x: unknown) =>
      x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
    ) ?? "undefined"
  );
}

/**
 * Diffs two revisions (`from` is the older one by convention, but any two may be compared).
 * Settings keys are listed in a fixed order (temperature, maxOutputTokens, topP, stopSequences,
 * providerOptions, then others by name); tools in `from`'s order, then the added ones.
 */
export function diffPromptRevisions(from: DiffSide, to: DiffSide): PromptRevisionDiff {
  const template: TemplatePart[] =
    from.systemPrompt === to.systemPrompt
      ? [{ kind: "same", text: to.systemPrompt }]
      : diffWordsWithSpace(from.systemPrompt, to.systemPrompt).map((c) => ({ kind: c.added ? "added" : c.removed ? "removed" : "same", text: c.value }));
  const order = ["temperature", "maxOutputTokens", "topP", "stopSequences", "providerOptions"];
  const keys = [...new Set([...Object.keys(from.modelSettings ?? {}), ...Object.keys(to.modelSettings ?? {})])].sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib) || (a < b ? -1 : a > b ? 1 : 0);
  });
  const settings = keys
    .filter((k) => canonical(from.modelSettings?.[k]) !== canonical(to.modelSettings?.[k]))
    .map((k) => ({ key: k, from: from.modelSettings?.[k], to: to.modelSettings?.[k] }));
  const toolsTo = new Map(to.tools.map((t) => [t.name, t]));
  const toolsFrom = new Map(from.tools.map((t) => [t.name, t]));
  const tools: ToolChange[] = [];
  for (const t of from.tools) {
    const other = toolsTo.get(t.name);
    if (!other) {
      tools.push({ name: t.name, change: "removed", fields: [] });
      continue;
    }
    const fields = (["description", "inputSchema", "fixtures"] as const).filter((f) => canonical(t[f]) !== canonical(other[f]));
    if (fields.length) tools.push({ name: t.name, change: "changed", fields });
  }
  for (const t of to.tools) if (!toolsFrom.has(t.name)) tools.push({ name: t.name, change: "added", fields: [] });
  return { template, settings, tools, same: from.systemPrompt === to.systemPrompt && settings.length === 0 && tools.length === 0 };
}
