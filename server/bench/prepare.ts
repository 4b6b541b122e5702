/**
 * From a New bench request to a plan and a launched bench — shared by the web action and the
 * `benchwork bench run` command, so both pin the same things the same way.
 */
import { createHash } from "node:crypto";
import type { Db } from "@/db/client";
import { listPromptCases } from "@/db/queries/cases";
import { activeRubric } from "@/db/queries/criteria";
import { getModelConfig } from "@/db/queries/models";
import { getPrompt } from "@/db/queries/systems";
import { launchBench, type BaselineSetting, type BenchSettings } from "@/db/queries/benches";
import { getPromptRevision } from "@/db/queries/prompt-revisions";
import { getPromptDefaultChecks } from "@/db/queries/prompt-checks";
import { groupOf, planBench, selects } from "@/lib/bench/plan";
import type { RubricCriterion } from "@/lib/bench/score";
import type { BenchPlan, CandidateSpec, SuppliedCase } from "@/lib/bench/types";
import type { BenchRequest } from "@/lib/bench/request";
import { LibraryError } from "@/lib/library/errors";
import type { ModelConfig } from "@/lib/runtime/model-config";

/** What planning produced, ready to launch. */
export interface PreparedBench {
  plan: BenchPlan;
  supplied: SuppliedCase[];
  candidates: { spec: CandidateSpec; modelConfigId: number | null; promptRevisionId: number | null }[];
  rubric: RubricCriterion[];
  rubricHash: string;
  /** The judge's configuration as the bench pins it (no timestamps), or null. */
  judge: ModelConfig | null;
  settings: BenchSettings;
  baseline: BaselineSetting;
  promptName: string;
}

/** A stored model configuration as a bench pins it: the configuration without its row timestamps. */
function pinnedConfig({ createdAt: _c, updatedAt: _u, ...config }: NonNullable<Awaited<ReturnType<typeof getModelConfig>>>): ModelConfig {
  return config;
}

/** SHA-256 of the rubric's content, so history shows which benches judged with the same rubric. */
export function rubricHash(rubric: RubricCriterion[]): string {
  return createHash("sha256")
    .update(JSON.stringify(rubric.map((c) => [c.revisionId, c.rule, c.passes, c.fails, c.priority])))
    .digest("hex");
}

/**
 * Resolves a request against the store and plans it (nothing is written).
 * @throws LibraryError naming the field for an unknown prompt, model configuration or prompt revision
 */
export async function prepareBench(db: Db, r: BenchRequest): Promise<PreparedBench> {
  const prompt = await getPrompt(db, r.promptId);
  if (!prompt || prompt.systemId !== r.systemId) throw new LibraryError("validation", `Prompt #${r.promptId} does not exist in system "${r.systemId}".`, { promptId: "Unknown prompt." });
  const candidates: PreparedBench["candidates"] = [];
  for (const [i, c] of r.candidates.entries()) {
    if (c.kind === "recorded") {
      candidates.push({ spec: { kind: "recorded", label: c.recordedName, recordedName: c.recordedName }, modelConfigId: null, promptRevisionId: null });
      continue;
    }
    const model = await getModelConfig(db, c.modelConfigId);
    if (!model) throw new LibraryError("validation", `Candidate ${i + 1}: model configuration #${c.modelConfigId} does not exist.`, { [`candidates.${i}`]: "Unknown model configuration." });
    const rev = c.promptRevisionId ? await getPromptRevision(db, c.promptRevisionId) : prompt.revision ? await getPromptRevision(db, prompt.revision.id) : null;
    if (!rev || rev.promptId !== prompt.id) throw new LibraryError("validation", `Candidate ${i + 1}: prompt revision #${c.promptRevisionId} is not a revision of ${prompt.name}.`, { [`candidates.${i}`]: "Unknown prompt revision." });
    // "current" and the current revision's id are the same candidate: running it twice compares nothing.
    const twin = candidates.findIndex((x) => x.modelConfigId === Number(model.id) && x.promptRevisionId === rev.id);
    if (twin >= 0) {
      const msg = `Candidate ${i + 1} is the same as candidate ${twin + 1} (${candidates[twin].spec.label}): pick another revision or model.`;
      throw new LibraryError("validation", msg, { [`candidates.${i}`]: msg });
    }
    candidates.push({
      spec: {
        kind: "model",
        // Named by revision and message ("… r3 · tighten refund wording"), so results say which change ran.
        label: `${model.name} · ${prompt.name} r${rev.number}${rev.message ? ` · ${rev.message}` : ""}`,
        model: pinnedConfig(model),
        promptRevision: { id: rev.id, number: rev.number, systemPrompt: rev.systemPrompt, tools: rev.tools, modelSettings: rev.modelSettings },
      },
      modelConfigId: Number(model.id),
      promptRevisionId: rev.id,
    });
  }
  const judgeRow = r.judgeModelConfigId ? await getModelConfig(db, r.judgeModelConfigId) : null;
  if (r.judgeModelConfigId && !judgeRow) throw new LibraryError("validation", `Judge model configuration #${r.judgeModelConfigId} does not exist.`, { judgeModelConfigId: "Unknown model configuration." });
  const rubric: RubricCriterion[] = (await activeRubric(db, prompt.id)).map((c) => ({
    criterionId: c.id,
    revisionId: c.revisionId,
    rule: c.rule,
    passes: c.passes,
    fails: c.fails,
    priority: c.priority,
  }));
  const all = await listPromptCases(db, prompt.id);
  // A map, not a search per case: a prompt may hold 100,000 cases.
  const origins = new Map(all.map((c) => [c.caseId, c.origin]));
  const datasetOf = (c: SuppliedCase) => {
    const o = origins.get(c.caseId);
    return o?.kind === "dataset" ? o.datasetName : null;
  };
  const includeRetained = r.includeRetained !== false;
  const supplied: SuppliedCase[] = all
    .map((c) => ({
      caseId: c.caseId,
      caseKey: c.caseKey,
      caseRevisionId: c.caseRevisionId,
      source: c.source,
      status: c.status,
      content: c.content,
      retainedFromCaseId: c.origin?.kind === "bench" ? (c.origin.fromCaseId ?? null) : null,
      userCorrected: c.userCorrected,
    }))
    .filter((c) => selects(r.selection, c, datasetOf, { includeRetained }));
  // Retained and generated cases join every selection; a selection that matches none of the cases
  // it names is a mistake (a mistyped tag or dataset), not a bench of regression copies. A source
  // selection names its source, retained and generated included.
  const sel = r.selection;
  const named = (c: SuppliedCase) => (sel.kind === "source" ? c.source === sel.source : groupOf(c.source) === "explicit");
  if (sel.kind !== "all" && !supplied.some(named)) {
    const what = sel.kind === "tag" ? `tag ${sel.tag}` : sel.kind === "source" ? `source ${sel.source}` : `dataset ${sel.dataset}`;
    const msg = `No case of prompt ${prompt.name} matches ${what}${sel.kind === "source" && sel.source === "retained" && !includeRetained ? " (retained cases are left out: turn “include retained regression cases” on)" : ""}: pick another ${sel.kind}, or all cases. (Retained and generated cases join a selection, but they do not make one on their own.)`;
    throw new LibraryError("validation", msg, { selection: msg });
  }
  const settings: BenchSettings = { selection: r.selection, includeRetained, budget: r.budget, repeats: r.repeats, concurrency: r.concurrency, timeoutMs: r.timeoutSeconds * 1000, maxSteps: r.maxSteps };
  // The prompt's default checks are pinned with the bench: a later edit does not change what it scores.
  const defaultChecks = await getPromptDefaultChecks(db, prompt.id);
  if (defaultChecks.length > 0) settings.defaultChecks = defaultChecks;
  const judge = judgeRow ? pinnedConfig(judgeRow) : null;
  const plan = planBench(
    supplied,
    candidates.map((c) => c.spec),
    { budget: r.budget, repeats: r.repeats, criteriaCount: rubric.length, judge, maxSteps: r.maxSteps, defaultCheckCount: defaultChecks.length },
  );
  const baseline: BaselineSetting = r.baseline.kind === "candidate" ? { kind: "candidate", position: r.baseline.index } : r.baseline;
  return { plan, supplied, candidates, rubric, rubricHash: rubricHash(rubric), judge, settings, baseline, promptName: prompt.name };
}

/**
 * Plans and launches: ONE transaction stores the bench, its pinned rubric, candidates, manifest
 * and queued trials. A repeated `launchKey` returns the first bench.
 */
export async function launchFromRequest(db: Db, r: BenchRequest): Promise<{ id: number; created: boolean; plan: BenchPlan }> {
  const p = await prepareBench(db, r);
  const bySupplied = new Map(p.supplied.map((c) => [c.caseId, c]));
  const title = r.title?.trim() || `${p.promptName}: ${p.candidates.map((c) => c.spec.label).join(" vs ")}`.slice(0, 200);
  const launched = await launchBench(db, {
    systemId: r.systemId,
    promptId: r.promptId,
    title,
    launchKey: r.launchKey,
    settings: p.settings,
    rubric: p.rubric,
    rubricHash: p.rubricHash,
    baseline: p.baseline,
    judge: p.judge,
    candidates: p.candidates,
    plan: p.plan,
    hasRecording: (caseId, name) => {
      const c = bySupplied.get(caseId)?.content;
      return Boolean(c && (name in c.recordedOutputs || name in (c.recordedToolCalls ?? {})));
    },
  });
  return { ...launched, plan: p.plan };
}
