/**
 * `bench run`'s options (names: system id, prompt name, candidate specs, model configuration names)
 * turned into a bench request, for the CLI on a database file and for the HTTP API (issue 19), with
 * the same checks and the same messages in both.
 */
import type { Db } from "@/db/client";
import { getModelConfigByName } from "@/db/queries/models";
import { recordedNames } from "@/db/queries/prompt-facets";
import { listPromptRevisions } from "@/db/queries/prompt-revisions";
import { getSystem, listPrompts, listSystems } from "@/db/queries/systems";
import { benchRequestSchema, type BenchRequest, type CandidateRequest } from "@/lib/bench/request";
import { CASE_SOURCES } from "@/lib/library/case-content";
import { LibraryError } from "@/lib/library/errors";
import { resolveRevisionRef } from "@/lib/prompts/revision-ref";

/** `bench run`'s options as typed (numbers as text). */
export interface BenchRunInput {
  system: string;
  prompt: string;
  candidate: string[];
  baseline?: string;
  cases?: string;
  /** False with `--no-retained`: retained regression cases do not join the selection. */
  retained?: boolean;
  budget?: string;
  repeats?: string;
  concurrency?: string;
  timeout?: string;
  judge?: string;
  /** `--generate-criteria N` / `--generate-scenarios M`: generate at launch (issue 17). */
  generateCriteria?: string;
  generateScenarios?: string;
  /** `--generator CONFIG`: the generator model (default: the first model candidate's, else the judge's). */
  generator?: string;
  /** `--max-cost USD`: the bench's spend cap (issue #16 §4). */
  maxCost?: string;
  /** `--max-latency-increase PCT` / `--max-cost-increase PCT`: gate limits over the baseline. */
  maxLatencyIncrease?: string;
  maxCostIncrease?: string;
}

/** A refused option: LibraryError `validation` with the message on the option's field. */
function refuse(field: string, message: string): LibraryError {
  return new LibraryError("validation", message, { [field]: message });
}

function parseCases(s: string | undefined) {
  if (!s || s === "all") return { kind: "all" as const };
  const [kind, ...rest] = s.split(":");
  const value = rest.join(":");
  if (kind === "tag" && value) return { kind: "tag" as const, tag: value };
  if (kind === "source" && (CASE_SOURCES as readonly string[]).includes(value))
    return { kind: "source" as const, source: value as (typeof CASE_SOURCES)[number] };
  if (kind === "dataset" && value) return { kind: "dataset" as const, dataset: value };
  throw refuse("cases", `--cases must be all, tag:TAG, source:${CASE_SOURCES.join("|")} or dataset:NAME (got "${s}")`);
}

/**
 * Resolves the options against the library.
 * @param where names the library in messages (the database file, or "this server")
 * @param launchKey the request's launch key (one bench per key)
 * @returns the validated bench request
 * @throws LibraryError `validation` naming the option (field) and what is wrong, in one line
 */
export async function resolveBenchRun(db: Db, o: BenchRunInput, where: string, launchKey: string): Promise<BenchRequest> {
  const system = await getSystem(db, o.system);
  if (!system) {
    const ids = (await listSystems(db)).map((x) => x.id);
    throw refuse(
      "system",
      `--system: no system "${o.system}" in ${where} (${ids.length ? `it has ${ids.join(", ")}` : "it has none: `npm run db:seed` adds the demo workspace"})`,
    );
  }
  const prompts = await listPrompts(db, system.id);
  const prompt = prompts.find((p) => p.name === o.prompt);
  if (!prompt) throw refuse("prompt", `--prompt: system "${system.id}" has no prompt "${o.prompt}" (it has ${prompts.map((p) => p.name).join(", ")})`);
  if (!o.candidate?.length) throw refuse("candidate", "give at least one --candidate recorded:COLUMN or model:CONFIG[@REVISION]");
  const revisions = await listPromptRevisions(db, prompt.id);
  const recorded = (await recordedNames(db, prompt.id)).map((r) => r.name);
  const candidates: CandidateRequest[] = [];
  for (const spec of o.candidate) {
    const m = /^(recorded|model):(.+)$/.exec(spec);
    if (!m) throw refuse("candidate", `--candidate "${spec}": write recorded:COLUMN or model:CONFIG[@REVISION]`);
    if (m[1] === "recorded") {
      // A mistyped column would otherwise run as a bench of skipped trials and pass.
      if (!recorded.includes(m[2]))
        throw refuse(
          "candidate",
          `--candidate "${spec}": prompt ${prompt.name} has no recorded outputs named "${m[2]}" (it has ${recorded.length ? recorded.join(", ") : "none"})`,
        );
      candidates.push({ kind: "recorded", recordedName: m[2] });
      continue;
    }
    const parts = m[2].split("@");
    if (parts.length > 2 || !parts[0]) throw refuse("candidate", `--candidate "${spec}": write model:CONFIG or model:CONFIG@REVISION (one @)`);
    const [name, rev] = parts;
    const config = await getModelConfigByName(db, name);
    if (!config) throw refuse("candidate", `--candidate "${spec}": no model configuration named "${name}"`);
    let promptRevisionId: number | undefined;
    if (rev !== undefined) {
      const r = resolveRevisionRef(rev, revisions, prompt.revision?.id ?? 0);
      if ("error" in r) throw refuse("candidate", `--candidate "${spec}": prompt ${prompt.name} has ${r.error}`);
      promptRevisionId = r.id;
    }
    candidates.push({ kind: "model", modelConfigId: Number(config.id), promptRevisionId });
  }
  let judgeModelConfigId: number | null = null;
  if (o.judge) {
    const j = await getModelConfigByName(db, o.judge);
    if (!j) throw refuse("judge", `--judge: no model configuration named "${o.judge}"`);
    judgeModelConfigId = Number(j.id);
  }
  let generate: { modelConfigId: number; criteria: string; scenarios: string } | null = null;
  if (o.generateCriteria !== undefined || o.generateScenarios !== undefined) {
    let generatorId: number | null = null;
    if (o.generator) {
      const g = await getModelConfigByName(db, o.generator);
      if (!g) throw refuse("generator", `--generator: no model configuration named "${o.generator}"`);
      generatorId = Number(g.id);
    } else generatorId = candidates.find((c) => c.kind === "model")?.modelConfigId ?? judgeModelConfigId;
    if (generatorId === null)
      throw refuse("generator", "--generate-criteria/--generate-scenarios need a generator model: give --generator CONFIG (a model configuration of the app)");
    generate = { modelConfigId: generatorId, criteria: o.generateCriteria ?? "0", scenarios: o.generateScenarios ?? "0" };
  }
  if (o.baseline !== undefined && !["last", "none"].includes(o.baseline) && !/^\d+$/.test(o.baseline))
    throw refuse("baseline", `--baseline must be a candidate's index (0 for the first --candidate), last or none (got "${o.baseline}")`);
  const parsed = benchRequestSchema.safeParse({
    systemId: system.id,
    promptId: prompt.id,
    candidates,
    baseline:
      o.baseline === undefined
        ? { kind: "candidate", index: 0 }
        : o.baseline === "last"
          ? { kind: "last-bench" }
          : o.baseline === "none"
            ? { kind: "none" }
            : { kind: "candidate", index: Number(o.baseline) },
    selection: parseCases(o.cases),
    includeRetained: o.retained !== false,
    budget: o.budget ?? null,
    repeats: o.repeats ?? 1,
    concurrency: o.concurrency ?? 8,
    timeoutSeconds: o.timeout ?? 60,
    maxSteps: 5,
    judgeModelConfigId,
    launchKey,
    generate,
    spendCapUsd: o.maxCost ?? null,
    maxLatencyIncreasePct: o.maxLatencyIncrease ?? null,
    maxCostIncreasePct: o.maxCostIncrease ?? null,
  });
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    const field = i.path.join(".") || "options";
    // The budget fields are named by their flag, as the user typed them.
    const flag: Record<string, [string, string]> = {
      spendCapUsd: ["maxCost", "--max-cost"],
      maxLatencyIncreasePct: ["maxLatencyIncrease", "--max-latency-increase"],
      maxCostIncreasePct: ["maxCostIncrease", "--max-cost-increase"],
    };
    const f = flag[field];
    throw refuse(f ? f[0] : field, `${f ? f[1] : field}: ${i.message}`);
  }
  return parsed.data;
}
