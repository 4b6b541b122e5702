"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import type { BenchPlan } from "@/lib/bench/types";
import { BENCH_LIMITS, GENERATE_LIMIT, type BaselineRequest, type CandidateRequest } from "@/lib/bench/request";
import { CASE_SOURCES } from "@/lib/library/case-content";
import { launchBenchAction, planBenchAction } from "@/app/systems/[systemId]/benches/actions";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { PlanView } from "./plan-view";
import { BudgetFields, type BudgetValues } from "./budget-fields";
import { promptChangeCandidates } from "@/lib/bench/prompt-change";

type Selection =
  { kind: "all" } | { kind: "tag"; tag: string } | { kind: "source"; source: (typeof CASE_SOURCES)[number] } | { kind: "dataset"; dataset: string };

/**
 * New bench: target prompt, candidates, baseline, which cases, budget, repeats, concurrency,
 * timeout and judge. Plan shows the manifest and estimates before anything runs; Launch is one
 * action (a double click is still one bench) and opens the bench page.
 */
export function NewBenchForm({
  systemId,
  prompts,
  prompt,
  models,
  recorded,
  tags,
  datasets,
  criteria,
  promptChange = false,
  generators = [],
}: {
  systemId: string;
  prompts: { id: number; name: string }[];
  /** Revisions newest first (the first is the current one); `message` says why each was made. */
  prompt: { id: number; name: string; revisions: { id: number; number: number; message?: string }[] };
  models: { id: number; name: string; provider: string; modelId: string }[];
  recorded: { name: string; cases: number }[];
  tags: { tag: string; cases: number }[];
  datasets: { dataset: string; cases: number }[];
  criteria: { rule: string; priority: string }[];
  /** Open with the prompt-change default (current vs previous revision on one model, baseline = previous). */
  promptChange?: boolean;
  /** Saved model configurations as generator models: `missing` is the setting one needs before it can generate (null = ready). */
  generators?: { id: number; name: string; label: string; missing: string | null }[];
}) {
  const router = useRouter();
  const [launchKey] = useState(() => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`));
  // Opened for a prompt change (the Prompt page's "Bench r3 vs r2"): current vs previous on one model.
  const [change] = useState(() => (promptChange && models.length ? promptChangeCandidates(prompt.revisions, models[0].id) : null));
  const [candidates, setCandidates] = useState<CandidateRequest[]>(
    () => change?.candidates ?? (recorded.length ? recorded.slice(0, 2).map((r) => ({ kind: "recorded" as const, recordedName: r.name })) : []),
  );
  const [baseline, setBaseline] = useState<BaselineRequest>(change?.baseline ?? { kind: "candidate", index: 0 });
  const [selection, setSelection] = useState<Selection>({ kind: "all" });
  const [includeRetained, setIncludeRetained] = useState(true);
  const [budget, setBudget] = useState("");
  const [repeats, setRepeats] = useState("1");
  const [concurrency, setConcurrency] = useState("8");
  const [timeoutSeconds, setTimeoutSeconds] = useState("60");
  const [limits, setLimits] = useState<BudgetValues>({ spendCapUsd: "", maxLatencyIncreasePct: "", maxCostIncreasePct: "" });
  const [judge, setJudge] = useState("");
  const [title, setTitle] = useState("");
  const [generate, setGenerate] = useState(false);
  const [generator, setGenerator] = useState(() => String((generators.find((g) => !g.missing) ?? generators[0])?.id ?? ""));
  const [genCriteria, setGenCriteria] = useState("3");
  const [genScenarios, setGenScenarios] = useState("5");
  const chosenGenerator = generators.find((g) => String(g.id) === generator);
  const ready = generators.some((g) => !g.missing);
  const [plan, setPlan] = useState<BenchPlan | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const [launching, setLaunching] = useState(false);
  const current = prompt.revisions[0];

  const request = useMemo(
    () => ({
      systemId,
      promptId: prompt.id,
      title,
      candidates,
      baseline,
      selection,
      includeRetained,
      budget,
      repeats,
      concurrency,
      timeoutSeconds,
      maxSteps: 5,
      judgeModelConfigId: judge,
      launchKey,
      generate: generate ? { modelConfigId: generator, criteria: genCriteria, scenarios: genScenarios } : null,
      ...limits,
    }),
    [
      systemId,
      prompt.id,
      title,
      candidates,
      baseline,
      selection,
      includeRetained,
      budget,
      repeats,
      concurrency,
      timeoutSeconds,
      judge,
      launchKey,
      generate,
      generator,
      genCriteria,
      genScenarios,
      limits,
    ],
  );

  const fail = (e: { message: string; fieldErrors?: Record<string, string> }) => {
    setErrors(e.fieldErrors ?? {});
    setMessage(e.message);
  };
  const doPlan = () =>
    startTransition(async () => {
      setMessage(null);
      const r = await planBenchAction(request);
      if (r.ok) {
        setErrors({});
        setPlan(r.data);
      } else {
        setPlan(null);
        fail(r.error);
      }
    });
  const doLaunch = () => {
    setLaunching(true);
    startTransition(async () => {
      setMessage(null);
      const r = await launchBenchAction(request);
      if (r.ok) router.push(`/systems/${systemId}/benches/${r.data.id}`);
      else {
        setLaunching(false);
        fail(r.error);
      }
    });
  };

  const setCand = (i: number, c: CandidateRequest) => (setCandidates((l) => l.map((x, j) => (j === i ? c : x))), setPlan(null));
  // After a candidate is removed, focus goes to the remove button now in its place (or the one
  // before it, or the Add button) instead of being lost to the page.
  const candidateList = useRef<HTMLOListElement>(null);
  // Which remove button to focus once the list has re-rendered (a ref: focusing is not state).
  const focusAfterRemove = useRef<number | null>(null);
  useEffect(() => {
    const at = focusAfterRemove.current;
    if (at === null) return;
    focusAfterRemove.current = null;
    const list = candidateList.current;
    const removes = list ? [...list.querySelectorAll<HTMLButtonElement>("button[data-remove-candidate]")] : [];
    const target = removes[at] ?? removes[at - 1] ?? list?.parentElement?.querySelector<HTMLButtonElement>("button[data-add-candidate]:not(:disabled)");
    target?.focus();
  }, [candidates]);
  const removeCand = (i: number) => {
    setCandidates((l) => l.filter((_, j) => j !== i));
    focusAfterRemove.current = i;
    if (baseline.kind === "candidate" && baseline.index >= i)
      setBaseline({ kind: "candidate", index: Math.max(0, baseline.index - (baseline.index === i ? baseline.index : 1)) });
    setPlan(null);
  };
  const revName = (r: { number: number; message?: string } | undefined) => (r ? `r${r.number}${r.message ? ` · ${r.message}` : ""}` : "");
  const label = (c: CandidateRequest) =>
    c.kind === "recorded"
      ? `recorded: ${c.recordedName}`
      : `${models.find((m) => m.id === c.modelConfigId)?.name ?? "model"} · ${prompt.name} ${revName(prompt.revisions.find((r) => r.id === c.promptRevisionId) ?? current)}`;
  const applyPromptChange = () => {
    const first = candidates.find((c) => c.kind === "model");
    const next = promptChangeCandidates(prompt.revisions, first?.kind === "model" ? first.modelConfigId : models[0].id);
    if (!next) return;
    setCandidates(next.candidates);
    setBaseline(next.baseline);
    setPlan(null);
  };
  const touch =
    <T,>(set: (v: T) => void) =>
    (v: T) => (set(v), setPlan(null));

  return (
    <div className="grid items-start gap-5 xl:grid-cols-[minmax(0,560px)_minmax(0,1fr)]">
      <form
        className="flex flex-col gap-5 rounded-lg border border-slate-200 bg-white p-5"
        onSubmit={(e) => {
          e.preventDefault();
          doPlan();
        }}
        noValidate
      >
        <h2 className="text-base font-semibold">New bench</h2>
        {message ? (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
            {message}
          </p>
        ) : null}
        <Field label="Target prompt" htmlFor="nb-prompt">
          <select
            id="nb-prompt"
            value={prompt.name}
            onChange={(e) => router.push(`/systems/${systemId}/benches/new?prompt=${encodeURIComponent(e.target.value)}`)}
            className={inputClass()}
          >
            {prompts.map((p) => (
              <option key={p.id}>{p.name}</option>
            ))}
          </select>
        </Field>

        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium text-slate-800">Candidates</legend>
          <p className="text-xs text-slate-500">
            Each candidate runs every included case. A prompt revision × model calls the model; a recorded-output column reads the answers stored with the cases
            (no model, no key).
          </p>
          {candidates.length === 0 ? <p className="text-sm text-slate-500">No candidate yet.</p> : null}
          <ol ref={candidateList} className="flex flex-col gap-2">
            {candidates.map((c, i) => (
              <li
                key={i}
                className={`flex flex-wrap items-center gap-2 rounded-md border p-2 ${errors[`candidates.${i}`] ? "border-red-300" : "border-slate-200"}`}
                data-testid="candidate"
              >
                <span className="w-5 text-xs text-slate-500">{i + 1}.</span>
                {c.kind === "recorded" ? (
                  <select
                    aria-label={`Candidate ${i + 1} recorded output`}
                    value={c.recordedName}
                    onChange={(e) => setCand(i, { kind: "recorded", recordedName: e.target.value })}
                    className="h-8 flex-1 rounded border border-slate-300 bg-white px-2 text-sm"
                  >
                    {recorded.map((r) => (
                      <option key={r.name} value={r.name}>
                        recorded: {r.name} ({r.cases} cases)
                      </option>
                    ))}
                  </select>
                ) : (
                  <>
                    <select
                      aria-label={`Candidate ${i + 1} model`}
                      value={c.modelConfigId}
                      onChange={(e) => setCand(i, { ...c, modelConfigId: Number(e.target.value) })}
                      className="h-8 flex-1 rounded border border-slate-300 bg-white px-2 text-sm"
                    >
                      {models.map((m) => (
                        <option key={m.id} value={m.id}>
                          {m.name} ({m.provider} {m.modelId})
                        </option>
                      ))}
                    </select>
                    <select
                      aria-label={`Candidate ${i + 1} prompt revision`}
                      value={c.promptRevisionId ?? ""}
                      onChange={(e) => setCand(i, { ...c, promptRevisionId: e.target.value ? Number(e.target.value) : undefined })}
                      className="h-8 rounded border border-slate-300 bg-white px-2 text-sm"
                    >
                      <option value="">current ({revName(current)})</option>
                      {prompt.revisions
                        .filter((r) => r.id !== current?.id)
                        .map((r) => (
                          <option key={r.id} value={r.id}>
                            {revName(r)}
                          </option>
                        ))}
                    </select>
                  </>
                )}
                <Button size="sm" variant="ghost" aria-label={`Remove candidate ${i + 1}`} data-remove-candidate onClick={() => removeCand(i)}>
                  ✕
                </Button>
                {errors[`candidates.${i}`] ? <p className="w-full text-xs text-red-700">{errors[`candidates.${i}`]}</p> : null}
              </li>
            ))}
          </ol>
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              data-add-candidate
              disabled={!models.length || candidates.length >= BENCH_LIMITS.candidates}
              onClick={() => (setCandidates((l) => [...l, { kind: "model", modelConfigId: models[0].id }]), setPlan(null))}
            >
              Add model candidate
            </Button>
            {models.length && prompt.revisions.length > 1 ? (
              <Button size="sm" onClick={applyPromptChange} title="Candidates: the previous revision (baseline) and the current one, on the same model">
                Prompt change: r{current?.number} vs r{prompt.revisions[1].number}
              </Button>
            ) : null}
            <Button
              size="sm"
              data-add-candidate
              disabled={!recorded.length || candidates.length >= BENCH_LIMITS.candidates}
              onClick={() => (
                setCandidates((l) => [...l, { kind: "recorded", recordedName: recorded[Math.min(l.length, recorded.length - 1)].name }]),
                setPlan(null)
              )}
            >
              Add recorded candidate
            </Button>
          </div>
          {!models.length ? <p className="text-xs text-slate-500">No model configuration yet: add one on the Models page to run live models.</p> : null}
          {!recorded.length ? <p className="text-xs text-slate-500">This prompt&apos;s cases have no recorded outputs.</p> : null}
          {errors.candidates ? <p className="text-xs text-red-700">{errors.candidates}</p> : null}
        </fieldset>

        <Field
          label="Baseline"
          htmlFor="nb-baseline"
          error={errors.baseline}
          hint="Regressions are checks that passed for the baseline or in the last finished bench of this prompt (always compared when there is one) and fail for a candidate."
        >
          <select
            id="nb-baseline"
            value={baseline.kind === "candidate" ? `c${baseline.index}` : baseline.kind}
            onChange={(e) =>
              touch(setBaseline)(
                e.target.value.startsWith("c") ? { kind: "candidate", index: Number(e.target.value.slice(1)) } : ({ kind: e.target.value } as BaselineRequest),
              )
            }
            className={inputClass(errors.baseline)}
          >
            {candidates.map((c, i) => (
              <option key={i} value={`c${i}`}>
                candidate {i + 1}: {label(c)}
              </option>
            ))}
            <option value="last-bench">no baseline candidate: the last bench of this prompt only</option>
          </select>
        </Field>

        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium text-slate-800">Which cases</legend>
          <div className="flex flex-wrap gap-2">
            <select
              aria-label="Case selection"
              value={selection.kind}
              onChange={(e) => {
                const k = e.target.value;
                touch(setSelection)(
                  k === "tag"
                    ? { kind: "tag", tag: tags[0]?.tag ?? "" }
                    : k === "source"
                      ? { kind: "source", source: "dataset" }
                      : k === "dataset"
                        ? { kind: "dataset", dataset: datasets[0]?.dataset ?? "" }
                        : { kind: "all" },
                );
              }}
              className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
            >
              <option value="all">all active cases</option>
              <option value="tag" disabled={!tags.length}>
                by tag
              </option>
              <option value="source">by source</option>
              <option value="dataset" disabled={!datasets.length}>
                one dataset&apos;s golden cases
              </option>
            </select>
            {selection.kind === "tag" ? (
              <select
                aria-label="Tag"
                value={selection.tag}
                onChange={(e) => touch(setSelection)({ kind: "tag", tag: e.target.value })}
                className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
              >
                {tags.map((t) => (
                  <option key={t.tag} value={t.tag}>
                    {t.tag} ({t.cases})
                  </option>
                ))}
              </select>
            ) : null}
            {selection.kind === "source" ? (
              <select
                aria-label="Source"
                value={selection.source}
                onChange={(e) => touch(setSelection)({ kind: "source", source: e.target.value as (typeof CASE_SOURCES)[number] })}
                className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
              >
                {CASE_SOURCES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            ) : null}
            {selection.kind === "dataset" ? (
              <select
                aria-label="Dataset"
                value={selection.dataset}
                onChange={(e) => touch(setSelection)({ kind: "dataset", dataset: e.target.value })}
                className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
              >
                {datasets.map((d) => (
                  <option key={d.dataset} value={d.dataset}>
                    {d.dataset} ({d.cases})
                  </option>
                ))}
              </select>
            ) : null}
          </div>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              checked={includeRetained}
              onChange={(e) => touch(setIncludeRetained)(e.target.checked)}
              className="size-4 rounded border-slate-300"
            />
            Include retained regression cases
          </label>
          <p className="text-xs text-slate-500">
            Explicit cases come first, then retained regression cases of this prompt (cases that failed in earlier benches; automatic, not human-validated),
            then generated ones. A retained case you corrected runs instead of its original. Paused cases are listed as excluded.
          </p>
        </fieldset>

        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Field label="Case budget" htmlFor="nb-budget" error={errors.budget} hint="empty = all">
            <input id="nb-budget" inputMode="numeric" value={budget} onChange={(e) => touch(setBudget)(e.target.value)} className={inputClass(errors.budget)} />
          </Field>
          <Field label="Trials per case" htmlFor="nb-repeats" error={errors.repeats} hint={`1–${BENCH_LIMITS.repeats}`}>
            <input
              id="nb-repeats"
              inputMode="numeric"
              value={repeats}
              onChange={(e) => touch(setRepeats)(e.target.value)}
              className={inputClass(errors.repeats)}
            />
          </Field>
          <Field label="Concurrency" htmlFor="nb-conc" error={errors.concurrency} hint="trials at once">
            <input
              id="nb-conc"
              inputMode="numeric"
              value={concurrency}
              onChange={(e) => setConcurrency(e.target.value)}
              className={inputClass(errors.concurrency)}
            />
          </Field>
          <Field label="Timeout (s)" htmlFor="nb-timeout" error={errors.timeoutSeconds} hint="per trial">
            <input
              id="nb-timeout"
              inputMode="numeric"
              value={timeoutSeconds}
              onChange={(e) => setTimeoutSeconds(e.target.value)}
              className={inputClass(errors.timeoutSeconds)}
            />
          </Field>
        </div>
        <BudgetFields values={limits} onChange={touch(setLimits)} errors={errors} />

        <Field
          label="Judge model for criteria"
          htmlFor="nb-judge"
          error={errors.judgeModelConfigId}
          hint={
            criteria.length
              ? `${criteria.length} active criteria in the rubric: ${criteria.map((c) => c.rule).join("; ")}. Without a judge they stay unscored.`
              : "This prompt has no active criteria."
          }
        >
          <select id="nb-judge" value={judge} onChange={(e) => touch(setJudge)(e.target.value)} className={inputClass(errors.judgeModelConfigId)}>
            <option value="">none (criteria unscored)</option>
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </Field>
        <fieldset className="flex flex-col gap-2" aria-label="Generate criteria and scenarios">
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              checked={generate}
              disabled={!generators.length}
              onChange={(e) => touch(setGenerate)(e.target.checked)}
              className="size-4 rounded border-slate-300"
            />
            Generate criteria and scenarios for this bench
          </label>
          {!generators.length ? (
            <p className="text-xs text-slate-600" data-testid="generate-setup">
              No model configuration yet: add one on the Models page (with the name of its key&apos;s environment variable, set in the server&apos;s
              environment) to generate criteria and scenarios.
            </p>
          ) : !ready ? (
            <p className="text-xs text-slate-600" data-testid="generate-setup">
              No generator model can run yet: {generators[0].missing}
            </p>
          ) : null}
          {generate ? (
            <div className="flex flex-col gap-2 rounded-md border border-slate-200 p-3">
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,1fr)_130px_130px]">
                <Field label="Generator model" htmlFor="nb-gen-model" error={errors["generate.modelConfigId"]}>
                  <select
                    id="nb-gen-model"
                    value={generator}
                    onChange={(e) => touch(setGenerator)(e.target.value)}
                    className={inputClass(errors["generate.modelConfigId"])}
                  >
                    {generators.map((g) => (
                      <option key={g.id} value={g.id}>
                        {g.name} ({g.label}){g.missing ? " — needs setup" : ""}
                      </option>
                    ))}
                  </select>
                </Field>
                <Field label="Criteria to generate" htmlFor="nb-gen-criteria" error={errors["generate.criteria"]} hint={`0–${GENERATE_LIMIT}`}>
                  <input
                    id="nb-gen-criteria"
                    inputMode="numeric"
                    value={genCriteria}
                    onChange={(e) => touch(setGenCriteria)(e.target.value)}
                    className={inputClass(errors["generate.criteria"])}
                  />
                </Field>
                <Field label="Scenarios to generate" htmlFor="nb-gen-scenarios" error={errors["generate.scenarios"]} hint={`0–${GENERATE_LIMIT}`}>
                  <input
                    id="nb-gen-scenarios"
                    inputMode="numeric"
                    value={genScenarios}
                    onChange={(e) => touch(setGenScenarios)(e.target.value)}
                    className={inputClass(errors["generate.scenarios"])}
                  />
                </Field>
              </div>
              {chosenGenerator?.missing && !errors["generate.modelConfigId"] ? (
                <p role="status" className="text-xs text-amber-800">
                  {chosenGenerator.missing}
                </p>
              ) : null}
              <p className="text-xs text-slate-500">
                Generated at launch: they join the library as generated criteria and cases (read-only with Customize) and this bench pins them — the criteria in
                its rubric, the cases after the explicit and retained ones, within the case budget.
              </p>
            </div>
          ) : null}
        </fieldset>
        <Field label="Title (optional)" htmlFor="nb-title">
          <input id="nb-title" value={title} onChange={(e) => setTitle(e.target.value)} className={inputClass()} placeholder="defaults to the candidates" />
        </Field>
        <div className="flex gap-2">
          <Button type="submit" disabled={pending}>
            {pending && !launching ? "Planning…" : "Plan"}
          </Button>
          <Button variant="primary" onClick={doLaunch} disabled={pending || launching || candidates.length === 0}>
            {launching ? (generate ? "Generating and launching…" : "Launching…") : "Launch"}
          </Button>
        </div>
      </form>
      {plan ? (
        <PlanView plan={plan} includeRetained={includeRetained} fix={{ systemId, promptId: prompt.id, promptName: prompt.name, onFixed: doPlan }} />
      ) : (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-sm text-slate-600">
          Plan shows the manifest — every case included or excluded with its reason — and the number of model calls, tokens and cost before anything runs.
        </p>
      )}
    </div>
  );
}
