"use client";

/**
 * The Generate form (issue 17): generator model, how many criteria and scenarios, a progress
 * indicator while the model works, and Cancel (aborts the request; the server then stores nothing).
 * A configuration that cannot generate says which setting is missing instead of generating.
 */
import { MAX_PER_BATCH } from "@/lib/generate/limits";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import type { GeneratorModelChoice } from "@/server/generate/with-config";

export function GenerateForm({
  systemId,
  promptId,
  choices,
  defaults,
}: {
  systemId: string;
  promptId: number;
  choices: GeneratorModelChoice[];
  defaults: { criteria: number; scenarios: number };
}) {
  const router = useRouter();
  const toast = useToast();
  const [modelId, setModelId] = useState<number | null>(choices.find((c) => !c.missing)?.id ?? choices[0]?.id ?? null);
  const [criteria, setCriteria] = useState(String(defaults.criteria));
  const [scenarios, setScenarios] = useState(String(defaults.scenarios));
  const [running, setRunning] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const [error, setError] = useState<{ message: string; fieldErrors?: Record<string, string> } | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setSeconds((s) => s + 1), 1_000);
    return () => clearInterval(t);
  }, [running]);
  useEffect(() => () => abort.current?.abort(), []);

  if (choices.length === 0) {
    return (
      <section aria-labelledby="generate-title" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="generate-title" className="text-sm font-semibold">
          Generate
        </h2>
        <p className="mt-2 text-sm text-slate-700">
          Generating needs a generator model, and no model is configured. Add one on the{" "}
          <Link href="/models" className="text-indigo-700 underline">
            Models page
          </Link>{" "}
          (OpenAI, Anthropic, or an OpenAI-compatible server such as Ollama); its API key is read from the server&apos;s environment.
        </p>
        <Button variant="primary" className="mt-3" disabled>
          Generate — configure a model first
        </Button>
      </section>
    );
  }

  const chosen = choices.find((c) => c.id === modelId) ?? null;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!chosen || chosen.missing || running) return;
    setError(null);
    setSeconds(0);
    setRunning(true);
    const ac = new AbortController();
    abort.current = ac;
    try {
      const res = await fetch(`/api/systems/${encodeURIComponent(systemId)}/generate`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ promptId, modelConfigId: chosen.id, criteria, scenarios }),
        signal: ac.signal,
      });
      const r = (await res.json()) as
        | { ok: true; data: { criteria: number; scenarios: number; dropped: number } }
        | { ok: false; error: { message: string; fieldErrors?: Record<string, string> } };
      if (r.ok) {
        toast(`Proposed ${r.data.criteria} criteria and ${r.data.scenarios} scenarios (${r.data.dropped} dropped); review them below`);
        router.refresh();
      } else setError(r.error);
    } catch (x) {
      if ((x as Error).name === "AbortError") toast("Generation cancelled; nothing was stored");
      else setError({ message: `The request failed: ${(x as Error).message}` });
    } finally {
      abort.current = null;
      setRunning(false);
    }
  };

  return (
    <form onSubmit={submit} aria-labelledby="generate-title" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="generate-title" className="text-sm font-semibold">
        Generate
      </h2>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
        <Field label="Generator model" htmlFor="gen-model" error={chosen?.missing ?? error?.fieldErrors?.modelConfigId}>
          <select id="gen-model" className={inputClass()} value={modelId ?? ""} onChange={(e) => setModelId(Number(e.target.value))} disabled={running}>
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.label})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Criteria" htmlFor="gen-criteria" hint={`0–${MAX_PER_BATCH}`} error={error?.fieldErrors?.criteria}>
          <input
            id="gen-criteria"
            type="number"
            min={0}
            max={MAX_PER_BATCH}
            className={inputClass(error?.fieldErrors?.criteria)}
            value={criteria}
            onChange={(e) => setCriteria(e.target.value)}
            disabled={running}
          />
        </Field>
        <Field label="Scenarios" htmlFor="gen-scenarios" hint={`0–${MAX_PER_BATCH}`} error={error?.fieldErrors?.scenarios}>
          <input
            id="gen-scenarios"
            type="number"
            min={0}
            max={MAX_PER_BATCH}
            className={inputClass(error?.fieldErrors?.scenarios)}
            value={scenarios}
            onChange={(e) => setScenarios(e.target.value)}
            disabled={running}
          />
        </Field>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" disabled={running || !chosen || chosen.missing !== null}>
          {chosen?.missing ? "Generate — the model's key is missing" : "Generate"}
        </Button>
        {running ? (
          <>
            <span role="status" className="inline-flex items-center gap-2 text-sm text-slate-700">
              <span aria-hidden className="h-3 w-3 animate-spin rounded-full border-2 border-indigo-600 border-t-transparent" />
              Generating with {chosen?.name}… {seconds} s
            </span>
            <Button onClick={() => abort.current?.abort()}>Cancel</Button>
          </>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error.message}
        </p>
      ) : null}
    </form>
  );
}
