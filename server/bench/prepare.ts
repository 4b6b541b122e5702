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
import { benchIdByLaunchKey, launchBench, type BaselineSetting, type BenchSettings } from "@/db/queries/benches";
import { getPromptRevision } from "@/db/queries/prompt-revisions";
import { getPromptDefaultChecks } from "@/db/queries/prompt-checks";
import { estimateTokens, groupOf, planBench, selects } from "@/lib/bench/plan";
import { applyBudgetSettings } from "./budget-settings";
import type { RubricCriterion } from "@/lib/bench/score";
import { launchCalibrationStates } from "../review/calibration";
import type { BenchPlan, CandidateSpec, PlanSettings, SuppliedCase } from "@/lib/bench/types";
import type { BenchRequest } from "@/lib/bench/request";
import { LibraryError } from "@/lib/library/errors";
import type { ModelConfig } from "@/lib/runtime/model-config";
import { generatorModelChoices } from "@/server/generate/with-config";
import { generateForBench, type LaunchGenerator } from "./generate-at-launch";
import type { Author } from "@/lib/audit/author";
import { isPostgres } from "@/db/dialect";
import { reserveBenchId } from "@/db/queries/trial-jobs";
import { prepareTrialJobs, sqliteTrialJobs } from "./trial-jobs";

/** The server's environment, for the generator model's key (never read here from `process.env`). */
type Env = Record<string, string | undefined>;

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
 * What the plan needs to know of a bench's generation: the generator model must exist and be
 * usable now (its key set), and the prompt must have a revision for it to read.
 * @throws LibraryError `validation` / `not_allowed` naming `generate.modelConfigId` and the missing setting
 */
async function generationSettings(
  db: Db,
  g: NonNullable<BenchRequest["generate"]>,
  revision: { systemPrompt: string; tools: unknown } | null,
  promptName: string,
  env: Env,
): Promise<PlanSettings["generation"]> {
  const config = await getModelConfig(db, g.modelConfigId);
  if (!config)
    throw new LibraryError("validation", `Generator model configuration #${g.modelConfigId} does not exist; choose another generator model.`, {
      "generate.modelConfigId": "Unknown model configuration.",
    });
  const choice = (await generatorModelChoices(db, env)).find((c) => c.id === g.modelConfigId);
  if (choice?.missing) throw new LibraryError("not_allowed", `The generator model cannot run: ${choice.missing}`, { "generate.modelConfigId": choice.missing });
  if (!revision)
    throw new LibraryError("validation", `Prompt "${promptName}" has no revision yet: write its system prompt before generating for it.`, {
      "generate.modelConfigId": "The prompt has no revision to generate from.",
    });
  return {
    criteria: g.criteria,
    scenarios: g.scenarios,
    model: { name: config.name, inputPricePerMTok: config.inputPricePerMTok, outputPricePerMTok: config.outputPricePerMTok },
    promptTokens: estimateTokens(revision.systemPrompt) + estimateTokens(JSON.stringify(revision.tools)),
  };
}

/**
 * Resolves a request against the store and plans it (nothing is written).
 * @param o.env the server's environment, read only for the generator model's key (default: none set)
 * @throws LibraryError naming the field for an unknown prompt, model configuration or prompt
 *   revision, or a generator model that cannot run (the message says which setting is missing)
 */
export async function prepareBench(db: Db, r: BenchRequest, o: { env?: Env } = {}): Promise<PreparedBench> {
  const prompt = await getPrompt(db, r.promptId);
  if (!prompt || prompt.systemId !== r.systemId)
    throw new LibraryError("validation", `Prompt #${r.promptId} does not exist in system "${r.systemId}".`, { promptId: "Unknown prompt." });
  const candidates: PreparedBench["candidates"] = [];
  for (const [i, c] of r.candidates.entries()) {
    if (c.kind === "recorded") {
      candidates.push({ spec: { kind: "recorded", label: c.recordedName, recordedName: c.recordedName }, modelConfigId: null, promptRevisionId: null });
      continue;
    }
    const model = await getModelConfig(db, c.modelConfigId);
    if (!model)
      throw new LibraryError("validation", `Candidate ${i + 1}: model configuration #${c.modelConfigId} does not exist.`, {
        [`candidates.${i}`]: "Unknown model configuration.",
      });
    const rev = c.promptRevisionId ? await getPromptRevision(db, c.promptRevisionId) : prompt.revision ? await getPromptRevision(db, prompt.revision.id) : null;
    if (!rev || rev.promptId !== prompt.id)
      throw new LibraryError("validation", `Candidate ${i + 1}: prompt revision #${c.promptRevisionId} is not a revision of ${prompt.name}.`, {
        [`candidates.${i}`]: "Unknown prompt revision.",
      });
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
  if (r.judgeModelConfigId && !judgeRow)
    throw new LibraryError("validation", `Judge model configuration #${r.judgeModelConfigId} does not exist.`, {
      judgeModelConfigId: "Unknown model configuration.",
    });
  const rubric: RubricCriterion[] = (await activeRubric(db, prompt.id)).map((c) => ({
    criterionId: c.id,
    revisionId: c.revisionId,
    rule: c.rule,
    passes: c.passes,
    fails: c.fails,
    priority: c.priority,
    ...(c.origin === "generated" ? { origin: "generated" as const } : {}),
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
  // Generating scenarios for a bench of generated cases names the cases it is about to make.
  const generatesNamed = sel.kind === "source" && sel.source === "generated" && (r.generate?.scenarios ?? 0) > 0;
  if (sel.kind !== "all" && !generatesNamed && !supplied.some(named)) {
    const what = sel.kind === "tag" ? `tag ${sel.tag}` : sel.kind === "source" ? `source ${sel.source}` : `dataset ${sel.dataset}`;
    const msg = `No case of prompt ${prompt.name} matches ${what}${sel.kind === "source" && sel.source === "retained" && !includeRetained ? " (retained cases are left out: turn “include retained regression cases” on)" : ""}: pick another ${sel.kind}, or all cases. (Retained and generated cases join a selection, but they do not make one on their own.)`;
    throw new LibraryError("validation", msg, { selection: msg });
  }
  const settings: BenchSettings = {
    selection: r.selection,
    includeRetained,
    budget: r.budget,
    repeats: r.repeats,
    concurrency: r.concurrency,
    timeoutMs: r.timeoutSeconds * 1000,
    maxSteps: r.maxSteps,
  };
  // The prompt's default checks are pinned with the bench: a later edit does not change what it scores.
  const defaultChecks = await getPromptDefaultChecks(db, prompt.id);
  if (defaultChecks.length > 0) settings.defaultChecks = defaultChecks;
  const judge = judgeRow ? pinnedConfig(judgeRow) : null;
  // Each criterion's calibration state is pinned with the rubric: History shows what gated (issue 18).
  const { states } = await launchCalibrationStates(
    db,
    prompt.id,
    rubric.map((c) => c.criterionId),
    judge,
  );
  for (const c of rubric) c.calibration = states.get(c.criterionId);
  const generation = r.generate ? await generationSettings(db, r.generate, prompt.revision, prompt.name, o.env ?? {}) : undefined;
  const plan = planBench(
    supplied,
    candidates.map((c) => c.spec),
    {
      budget: r.budget,
      repeats: r.repeats,
      criteriaCount: rubric.length,
      judge,
      maxSteps: r.maxSteps,
      defaultCheckCount: defaultChecks.length,
      ...(generation ? { generation } : {}),
    },
  );
  applyBudgetSettings(settings, r, plan);
  const baseline: BaselineSetting = r.baseline.kind === "candidate" ? { kind: "candidate", position: r.baseline.index } : r.baseline;
  return { plan, supplied, candidates, rubric, rubricHash: rubricHash(rubric), judge, settings, baseline, promptName: prompt.name };
}

/** Launches in progress by launch key: a double-clicked Launch that generates waits for the first instead of generating twice. */
const launching = new Map<string, Promise<{ id: number; created: boolean; plan: BenchPlan }>>();

/**
 * Plans and launches: ONE transaction stores the bench, its pinned rubric, candidates, manifest
 * and queued trials. A repeated `launchKey` returns the first bench. With `r.generate`, the
 * request is planned first (so a bad request or a generator model without its key costs no call),
 * then one batch is generated and accepted into the library (see generate-at-launch.ts), then the
 * bench is planned again with the generated items and launched; the bench's settings record the
 * generation run. Generated items stay in the library when the launch itself is then refused.
 * @param o.env the server's environment (the generator model's key); `o.generator` overrides how
 *   the generator model is reached (tests pass a mock model); `o.author` is who launches (issue 19)
 * @throws LibraryError as {@link prepareBench}, `validation` when nothing would run;
 *   GenerationFailed when the generator's answer is unusable (nothing stored, no bench)
 */
export async function launchFromRequest(
  db: Db,
  r: BenchRequest,
  o: { env?: Record<string, string | undefined>; generator?: LaunchGenerator; author?: Author | null } = {},
): Promise<{ id: number; created: boolean; plan: BenchPlan }> {
  if (!r.generate) return launchPrepared(db, r, await prepareBench(db, r, o), o.author, o.env);
  const running = launching.get(r.launchKey);
  if (running) return running;
  const work = (async () => {
    const first = await benchIdByLaunchKey(db, r.launchKey);
    const pre = await prepareBench(db, r, o);
    if (first !== null) return { id: first, created: false, plan: pre.plan };
    if (pre.plan.includedCount === 0 && !pre.plan.generation?.scenariosIncluded)
      throw new LibraryError("validation", "Nothing to run: the plan includes no case. " + (pre.plan.warnings[0] ?? ""));
    const generated = await generateForBench(db, { systemId: r.systemId, promptId: r.promptId, generate: r.generate! }, o.generator ?? { env: o.env ?? {} });
    const p = await prepareBench(db, { ...r, generate: null }, o);
    p.settings.generated = generated;
    return launchPrepared(db, r, p, o.author, o.env);
  })();
  launching.set(r.launchKey, work);
  try {
    return await work;
  } finally {
    launching.delete(r.launchKey);
  }
}

async function launchPrepared(
  db: Db,
  r: BenchRequest,
  p: PreparedBench,
  author?: Author | null,
  env: Record<string, string | undefined> = {},
): Promise<{ id: number; created: boolean; plan: BenchPlan }> {
  const bySupplied = new Map(p.supplied.map((c) => [c.caseId, c]));
  // The launch transaction enqueues the trials' jobs (server/bench/trial-jobs.ts). PostgreSQL: the
  // bench's id is reserved and its job queues made before it. SQLite: the insert gives the id.
  const id = isPostgres(db) ? await reserveBenchId(db) : undefined;
  const lanes = p.candidates.map((c) => ({ kind: c.spec.kind, modelConfig: c.spec.kind === "model" ? c.spec.model : null }));
  const onQueued = id === undefined ? sqliteTrialJobs(lanes, p.settings.concurrency, env) : await prepareTrialJobs(db, id, lanes, p.settings.concurrency, env);
  const title = r.title?.trim() || `${p.promptName}: ${p.candidates.map((c) => c.spec.label).join(" vs ")}`.slice(0, 200);
  const launched = await launchBench(
    db,
    {
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
      author,
    },
    { id, onQueued },
  );
  return { ...launched, plan: p.plan };
}
