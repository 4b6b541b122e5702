/**
 * Planning (DESIGN.md §4 step 1), pure: from the supplied cases, build the manifest — explicit
 * cases first, then retained regression cases, then generated ones; paused cases, cases missing
 * input or expected result or a template variable, duplicates and cases over the budget are
 * excluded with their reason. A retained copy the user corrected replaces its original: it runs in
 * the original's place, and the original is excluded ("replaced by its correction"). Nothing is silently dropped, shortened or invented: a case whose
 * history cannot be replayed is included, with a note that its checks will be unscored.
 */
import { templateVariables } from "../runtime/template";
import { unreplayableReason } from "../runtime/render";
import { DEFAULT_MAX_STEPS } from "../runtime/run-trial";
import { exposedTools } from "../runtime/tools";
import { effectiveCallSettings } from "../prompts/settings";
import { planGeneration } from "./generation-plan";
import type { BenchPlan, CandidateSpec, CaseGroup, CaseSelection, ManifestEntry, PlanSettings, SuppliedCase } from "./types";

/** Group of a case by its source. */
export function groupOf(source: SuppliedCase["source"]): CaseGroup {
  return source === "retained" ? "retained" : source === "generated" ? "generated" : "explicit";
}

const GROUP_ORDER: Record<CaseGroup, number> = { explicit: 0, retained: 1, generated: 2 };

/**
 * Whether a case is in the selection. Generated cases of the prompt always are, and retained
 * ones unless `includeRetained` is false (they follow the explicit ones).
 * @param o.includeRetained retained regression cases join the selection (default true)
 */
export function selects(
  selection: CaseSelection,
  c: SuppliedCase,
  datasetOf: (c: SuppliedCase) => string | null,
  o: { includeRetained?: boolean } = {},
): boolean {
  if (c.source === "retained" && o.includeRetained === false) return false;
  if (groupOf(c.source) !== "explicit") return true;
  switch (selection.kind) {
    case "all":
      return true;
    case "tag":
      return c.content.tags.includes(selection.tag);
    case "source":
      return c.source === selection.source;
    case "dataset":
      return datasetOf(c) === selection.dataset;
  }
}

/** Rough token count of a text: one token per 4 characters (the usual rule of thumb for English). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function exclusionReason(c: SuppliedCase, required: string[]): string | null {
  if (c.status === "paused") return "paused";
  if (!c.content.input.trim()) return "missing input";
  if (!c.content.expected.trim() && c.content.evaluators.length === 0) return "missing expected result";
  const have = new Set(c.content.variables.map((v) => v.name));
  const missing = required.filter((v) => !have.has(v));
  if (missing.length) return `missing variable ${missing.map((m) => `\`${m}\``).join(", ")}`;
  return null;
}

/** The kind of a reason, for counts: "missing variable `x`" → "missing variable". */
export function reasonKind(reason: string): string {
  return reason
    .replace(/ `.*$/, "")
    .replace(/ \(.*\)$/, "")
    .replace(/ of .*$/, "");
}

/**
 * Builds the manifest and the estimates.
 * @param supplied the prompt's cases as pinned (any order; sorted here by group, then `caseId`)
 * @param candidates the bench's candidates
 * @param settings budget (max included cases, null = all), repeats, rubric size, judge model
 * @returns the plan; throws nothing (a plan with nothing included is valid and says so in `warnings`)
 */
export function planBench(supplied: SuppliedCase[], candidates: CandidateSpec[], settings: PlanSettings): BenchPlan {
  const modelCandidates = candidates.filter((c) => c.kind === "model");
  // A case must define every variable any candidate's prompt revision uses.
  const required = [...new Set(modelCandidates.flatMap((c) => (c.kind === "model" ? templateVariables(c.promptRevision.systemPrompt) : [])))];
  // A user's correction of a retained case replaces its original for future benches (the two are
  // never both run): original case id → its runnable correction, when the original is supplied.
  const suppliedIds = new Set(supplied.map((c) => c.caseId));
  const correctionOf = new Map<number, SuppliedCase>();
  for (const c of [...supplied].sort((a, b) => a.caseId - b.caseId)) {
    const from = c.retainedFromCaseId;
    if (c.source === "retained" && c.userCorrected && from != null && suppliedIds.has(from) && !correctionOf.has(from) && !exclusionReason(c, required))
      correctionOf.set(from, c);
  }
  const replaces = new Map([...correctionOf].map(([from, c]) => [c.caseId, from]));
  // A correction takes its original's place in the order, so the budget never cuts one for the other.
  const rank = (c: SuppliedCase): [number, number, number] => {
    const from = replaces.get(c.caseId);
    if (from !== undefined) return [GROUP_ORDER[groupOf(supplied.find((x) => x.caseId === from)!.source)], from, 1];
    return [GROUP_ORDER[groupOf(c.source)], c.caseId, 0];
  };
  const ranks = new Map(supplied.map((c) => [c.caseId, rank(c)]));
  const sorted = [...supplied].sort((a, b) => {
    const ra = ranks.get(a.caseId)!;
    const rb = ranks.get(b.caseId)!;
    return ra[0] - rb[0] || ra[1] - rb[1] || ra[2] - rb[2];
  });
  const includedCaseIds = new Set<number>();
  const manifest: ManifestEntry[] = [];
  let included = 0;

  for (const c of sorted) {
    let reason = exclusionReason(c, required);
    const correction = correctionOf.get(c.caseId);
    if (!reason && correction) reason = `replaced by its correction \`${correction.caseKey}\``;
    if (!reason && c.retainedFromCaseId != null && includedCaseIds.has(c.retainedFromCaseId)) reason = "duplicate (its original case is already included)";
    if (!reason && settings.budget !== null && included >= settings.budget) reason = `over budget (${settings.budget} cases)`;
    let note: string | null = null;
    if (!reason) {
      const bad = c.content.history.map((t) => unreplayableReason(t)).filter((r): r is string => r !== null);
      if (bad.length && modelCandidates.length)
        note = `history has ${bad.length} turn${bad.length > 1 ? "s" : ""} the runtime cannot replay (${bad[0]}): model candidates' checks stay unscored`;
      included++;
      includedCaseIds.add(c.caseId);
    }
    manifest.push({
      position: manifest.length + 1,
      caseId: c.caseId,
      caseKey: c.caseKey,
      caseRevisionId: c.caseRevisionId,
      source: c.source,
      group: groupOf(c.source),
      included: !reason,
      reason,
      note,
    });
  }

  const inc = sorted.filter((c) => includedCaseIds.has(c.caseId));
  // Retained cases that joined the selection (a correction standing in for its original did not join).
  const retainedJoined = inc.filter((c) => c.source === "retained" && !replaces.has(c.caseId)).length;
  const trialCount = inc.length * candidates.length * settings.repeats;
  const modelTrials = inc.length * modelCandidates.length * settings.repeats;
  // A trial that exposes tools makes a model call per tool round, up to the step limit: counted at
  // that limit (an upper bound); one without tools makes one call.
  const maxSteps = Math.max(1, settings.maxSteps ?? DEFAULT_MAX_STEPS);
  const stepsOf = (cand: Extract<CandidateSpec, { kind: "model" }>, k: SuppliedCase) =>
    exposedTools(cand.promptRevision.tools, k.content).length ? maxSteps : 1;
  let modelCalls = 0;
  let modelCallsUpperBound = false;
  const missingRecordings = candidates
    .filter((c): c is Extract<CandidateSpec, { kind: "recorded" }> => c.kind === "recorded")
    .map((c) => ({
      candidate: c.label,
      count:
        inc.filter((k) => !(c.recordedName in k.content.recordedOutputs) && !(c.recordedName in (k.content.recordedToolCalls ?? {}))).length * settings.repeats,
    }))
    .filter((m) => m.count > 0);
  const scoredTrials = trialCount - missingRecordings.reduce((a, m) => a + m.count, 0);
  const judgeCalls = settings.judge ? scoredTrials * settings.criteriaCount : 0;

  let inputTokens = 0;
  // What one trial's first call sends (the judge sees about that, once, plus the answer).
  let trialInput = 0;
  let outputTokens = 0;
  let cost = 0;
  let costKnown = true;
  /** Per model candidate: its calls' estimated cost (null without prices). */
  const candidateCost = new Map<CandidateSpec, number | null>();
  for (const cand of modelCandidates) {
    if (cand.kind !== "model") continue;
    const maxOut = effectiveCallSettings(cand.promptRevision.modelSettings, cand.model).maxOutputTokens ?? 512;
    const fixed = estimateTokens(cand.promptRevision.systemPrompt) + estimateTokens(JSON.stringify(cand.promptRevision.tools));
    let inTok = 0;
    let calls = 0;
    for (const k of inc) {
      const steps = stepsOf(cand, k);
      if (steps > 1) modelCallsUpperBound = true;
      calls += steps;
      // Each call sends the prompt and the conversation again (tool rounds add to it: not counted).
      const oneCall = fixed + estimateTokens(k.content.input) + k.content.history.reduce((a, t) => a + estimateTokens(t.content), 0);
      inTok += steps * oneCall;
      trialInput += oneCall * settings.repeats;
    }
    inTok *= settings.repeats;
    modelCalls += calls * settings.repeats;
    const outTok = calls * settings.repeats * maxOut;
    inputTokens += inTok;
    outputTokens += outTok;
    if (cand.model.inputPricePerMTok === undefined || cand.model.outputPricePerMTok === undefined) {
      costKnown = false;
      candidateCost.set(cand, null);
    } else {
      const c = (inTok * cand.model.inputPricePerMTok + outTok * cand.model.outputPricePerMTok) / 1e6;
      cost += c;
      candidateCost.set(cand, c);
    }
  }
  let judgeCost: number | null = 0;
  if (settings.judge && judgeCalls > 0) {
    // A judge call sees the case and the answer (~ input + output) plus the criterion; it answers briefly.
    const perCall = 400 + Math.round(trialInput / Math.max(1, modelTrials));
    const jIn = judgeCalls * perCall;
    const jOut = judgeCalls * 120;
    inputTokens += jIn;
    outputTokens += jOut;
    if (settings.judge.inputPricePerMTok === undefined || settings.judge.outputPricePerMTok === undefined) {
      costKnown = false;
      judgeCost = null;
    } else {
      judgeCost = (jIn * settings.judge.inputPricePerMTok + jOut * settings.judge.outputPricePerMTok) / 1e6;
      cost += judgeCost;
    }
  }
  // What one trial of each candidate is estimated to cost: its own calls over its trials, plus the
  // judge's share per scored trial (the same for every candidate). The spend cap counts a running
  // trial at its candidate's figure: candidates priced 10× apart must not share one mean.
  const trialsPerCandidate = inc.length * settings.repeats;
  const judgePerTrial = judgeCost === null ? null : scoredTrials > 0 ? judgeCost / scoredTrials : 0;
  const candidateTrialCostUsd = candidates.map((c) => {
    const own = c.kind === "model" ? candidateCost.get(c)! : 0;
    if (own === null || judgePerTrial === null) return null;
    return (trialsPerCandidate > 0 ? own / trialsPerCandidate : 0) + judgePerTrial;
  });

  const excludedBy: Record<string, number> = {};
  for (const m of manifest) if (m.reason) excludedBy[reasonKind(m.reason)] = (excludedBy[reasonKind(m.reason)] ?? 0) + 1;
  const warnings: string[] = [];
  const generatedFit =
    (settings.generation && settings.budget !== null ? Math.min(settings.generation.scenarios, settings.budget) : settings.generation?.scenarios) ?? 0;
  if (inc.length === 0 && generatedFit === 0) warnings.push("No case is included: nothing would run. Check the case selection, paused cases and the budget.");
  if (candidates.length === 0) warnings.push("Choose at least one candidate.");
  if (modelCallsUpperBound)
    warnings.push(
      `Model calls, tokens and cost are upper bounds: a trial with tools makes up to ${maxSteps} model calls (the step limit), one per tool round.`,
    );
  if (retainedJoined > 0 && retainedJoined > inc.length - retainedJoined)
    warnings.push(
      `${retainedJoined} of the ${inc.length} included cases are retained regression cases from earlier benches, not from your selection: they can decide the recommendation on their own. Turn off “include retained regression cases” to run only the selection.`,
    );
  if (settings.criteriaCount > 0 && !settings.judge)
    warnings.push(
      settings.criteriaCount === 1
        ? "No judge model: the criterion of the rubric will be unscored."
        : `No judge model: the ${settings.criteriaCount} criteria of the rubric will be unscored.`,
    );
  // A case with nothing to score ends "no check was scored": say so before launch (issue 15).
  // Criteria count only with a judge model: without one they are unscored, which scores nothing.
  const criteriaUnjudged = settings.criteriaCount > 0 && !settings.judge;
  const hasShared = (settings.criteriaCount > 0 && !criteriaUnjudged) || (settings.defaultCheckCount ?? 0) > 0;
  const unchecked = hasShared ? [] : inc.filter((k) => k.content.evaluators.length === 0);
  if (unchecked.length > 0) {
    const why = criteriaUnjudged ? "no judge model is chosen for the prompt's criteria" : "the prompt has no criterion";
    warnings.push(
      `${unchecked.length === 1 ? "1 included case has" : `${unchecked.length} included cases have`} no check and ${why}: their trials would end “no check was scored”.`,
    );
  }
  for (const m of missingRecordings)
    warnings.push(
      `${m.count} trial${m.count > 1 ? "s" : ""} of recorded candidate “${m.candidate}” will be skipped: those cases have no recorded output for it.`,
    );
  const g = settings.generation;
  const generation = g
    ? planGeneration(g, {
        promptTokens: g.promptTokens,
        includedCount: inc.length,
        budget: settings.budget,
        candidates: candidates.length,
        repeats: settings.repeats,
        criteriaCount: settings.criteriaCount,
        judged: settings.judge !== null,
      })
    : undefined;
  if (generation && generation.scenariosIncluded < generation.scenarios)
    warnings.push(
      `Only ${generation.scenariosIncluded} of the ${generation.scenarios} scenarios to generate fit the case budget (${settings.budget} cases): generated cases join after the explicit and retained ones, and the rest will be excluded “over budget”.`,
    );
  if (generation && generation.criteria > 0 && !settings.judge)
    warnings.push(`No judge model: the ${generation.criteria === 1 ? "generated criterion" : `${generation.criteria} generated criteria`} will be unscored.`);

  return {
    manifest,
    includedCount: inc.length,
    retainedJoined,
    excludedCount: manifest.length - inc.length,
    excludedBy,
    trialCount,
    modelCalls,
    modelCallsUpperBound,
    judgeCalls,
    missingRecordings,
    estimate: { inputTokens, outputTokens, costUsd: modelCalls + judgeCalls === 0 ? 0 : costKnown ? cost : null },
    candidateTrialCostUsd,
    warnings,
    ...(unchecked.length > 0 ? { unchecked: { count: unchecked.length, caseKeys: unchecked.slice(0, 5).map((k) => k.caseKey), criteriaUnjudged } } : {}),
    ...(generation ? { generation } : {}),
  };
}
