/**
 * Workflow: generate proposals for a prompt (issue 17). Reads what the generator needs (the
 * prompt's current revision, its active criteria, a sample of its cases, the proposals still
 * awaiting review), runs lib/generate with
 * the model passed in, and stores the run with its proposals in one transaction. A failed batch
 * (GenerateError) stores nothing.
 */
import { randomUUID } from "node:crypto";
import type { LanguageModel } from "ai";
import type { Db } from "@/db/client";
import { activeRubric } from "@/db/queries/criteria";
import { listPromptCases } from "@/db/queries/cases";
import { getGenerationRun, insertGenerationRun, listProposals, proposalsByIds, type GenerationRunRow, type ProposalRow } from "@/db/queries/proposals";
import { getPrompt } from "@/db/queries/systems";
import { generateProposals } from "@/lib/generate/generate";
import { LibraryError } from "@/lib/library/errors";

/** How many of the prompt's case inputs the generator sees (so it does not repeat them). */
export const CASE_SAMPLE = 50;

/** What to generate. */
export interface GenerateRequest {
  systemId: string;
  promptId: number;
  criteria: number;
  scenarios: number;
}

/** The model and the impure parts. */
export interface GenerateWorkflowDeps {
  model: LanguageModel;
  /** `provider:modelId`, recorded with every proposal. */
  modelLabel: string;
  abortSignal?: AbortSignal;
  /** Clock in ms (default `Date.now`). */
  now?: () => number;
  /** Run id maker (default a random UUID). */
  newRunId?: () => string;
}

/** The stored run and its proposals (criteria first, batch order). */
export interface GenerateOutcome {
  run: GenerationRunRow;
  proposals: ProposalRow[];
}

/**
 * Generates and stores one batch of proposals for a prompt.
 * @throws LibraryError `validation` when the prompt is not in the system or has no revision;
 *   RangeError for counts out of range; GenerateError when the model's answer is unusable or the
 *   call fails or is cancelled (nothing stored then)
 */
export async function generateForPrompt(db: Db, req: GenerateRequest, deps: GenerateWorkflowDeps): Promise<GenerateOutcome> {
  const now = deps.now ?? Date.now;
  const prompt = await getPrompt(db, req.promptId);
  if (!prompt || prompt.systemId !== req.systemId) throw new LibraryError("validation", `Prompt #${req.promptId} does not exist in system "${req.systemId}".`);
  if (!prompt.revision) throw new LibraryError("validation", `Prompt "${prompt.name}" has no revision yet; write its system prompt first.`);
  const rubric = await activeRubric(db, req.promptId);
  const cases = (await listPromptCases(db, req.promptId)).slice(-CASE_SAMPLE);
  // Proposals still awaiting review count as existing: generating twice must not fill the list with copies.
  const open = await listProposals(db, req.promptId, { status: "proposed" });
  const started = now();
  const result = await generateProposals(
    {
      prompt: {
        name: prompt.name,
        revisionId: prompt.revision.id,
        revisionNumber: prompt.revision.number,
        systemPrompt: prompt.revision.systemPrompt,
        tools: prompt.revision.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
      },
      criteria: req.criteria,
      scenarios: req.scenarios,
      existingRules: [...rubric.map((c) => c.rule), ...open.flatMap((p) => (p.kind === "criterion" ? [p.content.rule] : []))],
      existingInputs: [...cases.map((c) => c.content.input), ...open.flatMap((p) => (p.kind === "scenario" ? [p.content.input] : []))],
    },
    { model: deps.model, modelLabel: deps.modelLabel, runId: (deps.newRunId ?? randomUUID)(), abortSignal: deps.abortSignal },
  );
  const finished = now();
  const ids = await insertGenerationRun(db, {
    systemId: req.systemId,
    promptId: req.promptId,
    result,
    requestedCriteria: req.criteria,
    requestedScenarios: req.scenarios,
    durationMs: finished - started,
    now: finished,
  });
  return { run: (await getGenerationRun(db, result.runId))!, proposals: await proposalsByIds(db, ids) };
}

/** The label recorded for a generator model: `provider:modelId`. */
export function generatorModelLabel(config: { provider: string; modelId: string }): string {
  return `${config.provider}:${config.modelId}`;
}
