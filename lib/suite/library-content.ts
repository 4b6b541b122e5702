/**
 * How a release enters the test library (issue #6 `benchwork publish`): which library prompt each
 * case goes to, what a prompt created for it holds, and the case content stored for each case.
 *
 * Decisions (documented in README "Code-first suites"):
 * - target prompt: one library prompt per eval, named by the eval id — or one prompt for every case
 *   (`--prompt NAME`);
 * - a prompt created by publish gets the eval's system prompt (of its first case) and the JSON
 *   schemas of the tools its cases list, without fixtures (tool code runs only from the CLI);
 * - case content: `input` = prompt, `expected` = expected (or ""), `tags` = labels, `evaluators` =
 *   the declarative specs plus `judge` (criteria) and `expected_tool_calls` specs, `data` = data,
 *   `tools` = tool names; a case-level system prompt and the metadata go to `context`;
 * - an `evaluate` function is not stored as sandbox code (it is a function in a file, possibly
 *   using imports and helpers): the notes say "code evaluator … runs only from the CLI" with its
 *   module, export path and SHA-256, so a change to it is a change to the case.
 */
import type { CaseContent, NameValue, ToolDefinition } from "@/lib/library/case-content";
import type { EvaluatorSpec } from "@/lib/evaluators/spec";
import { contentHash } from "./canonical";
import { judgeSpecOf, reliabilitySpecOf } from "./checks";
import type { Release, ReleaseCase } from "./types";

/** A library prompt the release needs: its name, and what it holds if publish has to create it. */
export interface PromptPlan {
  name: string;
  systemPrompt: string;
  tools: ToolDefinition[];
  /** Case ids going to this prompt, in release order. */
  caseIds: string[];
}

/**
 * Groups the release's cases by target prompt.
 * @param release the release
 * @param promptName one prompt for every case; absent → one prompt per eval id
 * @returns the prompts in first-use order, and the target prompt name of each case id
 */
export function planPrompts(release: Pick<Release, "cases" | "tools">, promptName?: string): { prompts: PromptPlan[]; promptOf: Map<string, string> } {
  const schemas = new Map(release.tools.map((t) => [t.name, t]));
  const prompts = new Map<string, PromptPlan & { toolNames: Set<string> }>();
  const promptOf = new Map<string, string>();
  for (const c of release.cases) {
    const name = promptName ?? c.evalId;
    let p = prompts.get(name);
    if (!p) prompts.set(name, (p = { name, systemPrompt: c.systemPrompt ?? "", tools: [], caseIds: [], toolNames: new Set() }));
    p.caseIds.push(c.id);
    for (const t of c.tools) p.toolNames.add(t);
    promptOf.set(c.id, name);
  }
  return {
    prompts: [...prompts.values()].map(({ toolNames, ...p }) => ({
      ...p,
      tools: [...toolNames].flatMap((n) => {
        const t = schemas.get(n);
        return t ? [{ name: t.name, description: t.description, inputSchema: (t.inputSchema ?? {}) as Record<string, unknown> }] : [];
      }),
    })),
    promptOf,
  };
}

function metadataValue(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * The library content of a release case (see module doc for the mapping).
 * @param c the case
 * @param promptSystemPrompt the target prompt's system prompt: a case whose own system prompt
 *   differs keeps it in `context` as `system_prompt`
 */
export function caseContentOf(c: ReleaseCase, promptSystemPrompt: string): CaseContent {
  const evaluators: EvaluatorSpec[] = [...c.evaluators];
  const judge = judgeSpecOf(c);
  if (judge) evaluators.push(judge);
  const reliability = reliabilitySpecOf(c);
  if (reliability) evaluators.push(reliability);
  const notes: string[] = [];
  if (c.title) notes.push(c.title);
  if (c.description) notes.push(c.description);
  if (c.evaluatorFunction) {
    notes.push(
      `code evaluator: ${c.evaluatorFunction.module} ${c.evaluatorFunction.exportPath} (sha256 ${c.evaluatorFunction.sha256.slice(0, 12)}) runs only from the CLI (benchwork run); it is not a check of this case in the app`,
    );
  }
  if (c.hasSetup || c.hasTeardown) notes.push(`setup/teardown in ${c.source.module} run only from the CLI`);
  const context: NameValue[] = [];
  if (c.systemPrompt !== null && c.systemPrompt !== promptSystemPrompt) context.push({ name: "system_prompt", value: c.systemPrompt });
  for (const [k, v] of Object.entries(c.metadata)) context.push({ name: `metadata.${k}`, value: metadataValue(v) });
  return {
    input: c.prompt,
    expected: c.expected ?? "",
    notes: notes.join("\n"),
    history: [],
    variables: [],
    context,
    tags: [...c.labels],
    recordedOutputs: {},
    evaluators,
    data: c.data,
    extra: {},
    tools: [...c.tools],
  };
}

/** Content hash of a case's library content (stored in the case's origin to tell code changes from library edits). */
export function libraryContentHash(content: CaseContent): string {
  return contentHash(content);
}
