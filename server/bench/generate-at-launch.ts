/**
 * "Generate criteria and scenarios for this bench" at launch (issue 17 item 3): one batch through
 * the existing generator (stored as a generation run with its proposals, so the library keeps the
 * provenance), each proposal accepted as a generated criterion or case (origin `generated`,
 * read-only with Customize), so the bench plan pins them: the criteria in its rubric, the cases
 * after the explicit and retained ones (they are the newest cases of the prompt) within the budget.
 */
import type { Db } from "@/db/client";
import type { BenchSettings } from "@/db/queries/benches";
import type { BenchGenerateRequest } from "@/lib/bench/request";
import { LibraryError } from "@/lib/library/errors";
import type { FetchImpl } from "@/lib/runtime/providers";
import { GenerateError } from "@/lib/generate/structured";
import { generateForPrompt, type GenerateOutcome, type GenerateWorkflowDeps } from "@/server/generate/generate";
import { acceptProposal } from "@/server/generate/review";
import { GenerationFailed, generateWithModelConfig } from "@/server/generate/with-config";

/** How the generator model is reached: the saved configuration with the server's environment, or (tests) a model passed in. */
export type LaunchGenerator = { env: Record<string, string | undefined>; fetch?: FetchImpl; model?: undefined } | { model: GenerateWorkflowDeps };

/**
 * Generates one batch for the bench's prompt and accepts every proposal.
 * @returns what the bench records in its settings (`generated`): run, model, counts, ids made,
 *   how many the generator dropped, and the proposals refused on accept (a rule already in the rubric)
 * @throws GenerationFailed when the model's answer is unusable or its call fails (nothing stored);
 *   LibraryError as {@link generateWithModelConfig}
 */
export async function generateForBench(
  db: Db,
  req: { systemId: string; promptId: number; generate: BenchGenerateRequest },
  gen: LaunchGenerator,
): Promise<NonNullable<BenchSettings["generated"]>> {
  const ask = { systemId: req.systemId, promptId: req.promptId, criteria: req.generate.criteria, scenarios: req.generate.scenarios };
  let out: GenerateOutcome;
  if (gen.model) {
    try {
      out = await generateForPrompt(db, ask, gen.model);
    } catch (e) {
      if (e instanceof GenerateError) throw new GenerationFailed(e.code, `${e.message} Nothing was stored and no bench was launched.`);
      throw e;
    }
  } else {
    try {
      out = await generateWithModelConfig(db, { ...ask, modelConfigId: req.generate.modelConfigId }, { env: gen.env, fetch: gen.fetch });
    } catch (e) {
      if (e instanceof GenerationFailed)
        throw new GenerationFailed(e.code, `${e.message.replace(/ Nothing was stored\.$/, "")} Nothing was stored and no bench was launched.`);
      throw e;
    }
  }
  const criterionIds: number[] = [];
  const caseIds: number[] = [];
  const refused: string[] = [];
  for (const p of out.proposals) {
    try {
      const d = await acceptProposal(db, p.id);
      if (d.criterionId !== undefined) criterionIds.push(d.criterionId);
      if (d.caseId !== undefined) caseIds.push(d.caseId);
    } catch (e) {
      // A generated rule already in the rubric is refused and stays a proposal to review; the others go on.
      if (!(e instanceof LibraryError)) throw e;
      refused.push(`${p.kind === "criterion" ? p.content.rule : p.content.input}: ${e.fieldErrors?.rule ?? e.message}`);
    }
  }
  return {
    runId: out.run.id,
    model: out.run.model,
    requested: { criteria: ask.criteria, scenarios: ask.scenarios },
    criterionIds,
    caseIds,
    dropped: out.run.dropped.length,
    refused,
  };
}
