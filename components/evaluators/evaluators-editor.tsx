"use client";

import { useState, useTransition } from "react";
import type { EvaluatorSpec } from "@/lib/evaluators/spec";
import { describeEvaluator } from "@/lib/evaluators/describe";
import { tryEvaluatorsAction } from "@/app/systems/[systemId]/library/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { CASE_EVALUATOR_KINDS, EvaluatorForm, KIND_LABEL, newSpec, type CaseEvaluatorKind } from "./evaluator-form";
import { Textarea } from "@/components/ui/textarea";

export type TryResult = { kind: string; label: string; verdict: "passed" | "failed" | "unscored" | "error"; score: number; message: string };

const VERDICT_TONE = { passed: "green", failed: "red", unscored: "slate", error: "amber" } as const;

/** Check results as a list: verdict, score, label and the message (the difference, the reason). */
export function CheckResults({ results }: { results: TryResult[] }) {
  return (
    <ul className="flex flex-col gap-1.5" aria-label="Check results">
      {results.map((r, i) => (
        <li key={i} className="rounded-md border border-slate-200 bg-white p-2 text-sm" data-testid="check-result">
          <div className="flex items-center gap-2">
            <Badge tone={VERDICT_TONE[r.verdict]}>{r.verdict}</Badge>
            <span className="font-medium text-slate-800">{r.label}</span>
            <span className="ml-auto text-xs text-slate-500">
              {r.verdict === "passed" || r.verdict === "failed" ? `score ${r.score.toFixed(2)}` : "not scored"}
            </span>
          </div>
          {r.message ? <pre className="mt-1 font-mono text-xs whitespace-pre-wrap text-slate-700">{r.message}</pre> : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * The evaluators of a case: add, edit and remove them through forms, and Try it — paste an output
 * (and tool calls) to see the check results before saving. Errors found on save are shown per evaluator.
 */
export function EvaluatorsEditor({
  systemId,
  specs,
  onChange,
  errors,
  caseInput,
  caseExpected,
  caseData = null,
}: {
  caseData?: Record<string, unknown> | null;
  systemId: string;
  specs: unknown[];
  onChange: (s: unknown[]) => void;
  errors: Record<string, string>;
  caseInput: string;
  caseExpected: string;
}) {
  const [open, setOpen] = useState<number | null>(null);
  const [adding, setAdding] = useState<CaseEvaluatorKind | "">("");
  const [output, setOutput] = useState("");
  const [toolCalls, setToolCalls] = useState("");
  const [results, setResults] = useState<TryResult[] | null>(null);
  const [tryError, setTryError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const update = (i: number, s: EvaluatorSpec) => onChange(specs.map((x, j) => (j === i ? s : x)));
  const move = (i: number, d: -1 | 1) => {
    const next = [...specs];
    [next[i], next[i + d]] = [next[i + d], next[i]];
    onChange(next);
    setOpen(null);
  };

  const tryIt = () =>
    startTransition(async () => {
      setTryError(null);
      const r = await tryEvaluatorsAction(systemId, { evaluators: specs, output, toolCalls, input: caseInput, expected: caseExpected, caseData });
      if (r.ok) setResults(r.data);
      else {
        setResults(null);
        setTryError(r.error.message);
      }
    });

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-800">Evaluators</legend>
      {specs.length === 0 ? <p className="text-xs text-slate-500">No evaluators: the case is judged by the prompt&apos;s criteria only.</p> : null}
      <ol className="flex flex-col gap-2">
        {specs.map((raw, i) => {
          const spec = raw as EvaluatorSpec;
          const err = errors[`evaluators.${i}`];
          const editable = (CASE_EVALUATOR_KINDS as readonly string[]).includes(spec?.kind);
          return (
            <li key={i} className={`rounded-md border ${err ? "border-red-300" : "border-slate-200"} bg-slate-50`} data-testid="evaluator">
              <div className="flex items-start gap-2 p-2">
                <span className="w-5 pt-0.5 text-xs text-slate-500">{i + 1}.</span>
                <div className="min-w-0 flex-1">
                  <span className="text-xs font-semibold text-slate-600">{KIND_LABEL[spec?.kind as CaseEvaluatorKind] ?? spec?.kind}</span>
                  <p className="text-sm break-words text-slate-800">{describeEvaluator(spec)}</p>
                  {err ? <p className="mt-0.5 text-xs text-red-700">{err}</p> : null}
                </div>
                <span className="flex shrink-0 gap-1">
                  <Button size="sm" variant="ghost" aria-label={`Move evaluator ${i + 1} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                    ↑
                  </Button>
                  <Button size="sm" variant="ghost" aria-label={`Move evaluator ${i + 1} down`} disabled={i === specs.length - 1} onClick={() => move(i, 1)}>
                    ↓
                  </Button>
                  {editable ? (
                    <Button
                      size="sm"
                      onClick={() => setOpen(open === i ? null : i)}
                      aria-expanded={open === i}
                      aria-label={`${open === i ? "Close" : "Edit"} evaluator ${i + 1}`}
                    >
                      {open === i ? "Close" : "Edit"}
                    </Button>
                  ) : null}
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Remove evaluator ${i + 1}`}
                    onClick={() => (onChange(specs.filter((_, j) => j !== i)), setOpen(null))}
                  >
                    ✕
                  </Button>
                </span>
              </div>
              {open === i ? (
                <div className="border-t border-slate-200 bg-white p-3">
                  <EvaluatorForm uid={`ev${i}`} spec={spec} onChange={(s) => update(i, s)} />
                </div>
              ) : null}
            </li>
          );
        })}
      </ol>
      <div className="flex items-center gap-2">
        <select
          aria-label="Evaluator kind to add"
          value={adding}
          onChange={(e) => setAdding(e.target.value as CaseEvaluatorKind | "")}
          className="h-7 rounded border border-slate-300 bg-white px-1.5 text-xs"
        >
          <option value="">Choose a kind…</option>
          {CASE_EVALUATOR_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABEL[k]}
            </option>
          ))}
        </select>
        <Button
          size="sm"
          disabled={!adding}
          onClick={() => {
            if (!adding) return;
            onChange([...specs, newSpec(adding)]);
            setOpen(specs.length);
            setAdding("");
          }}
        >
          Add evaluator
        </Button>
      </div>

      {specs.length > 0 ? (
        <section aria-label="Try it" className="mt-2 rounded-md border border-indigo-200 bg-indigo-50/40 p-3">
          <h4 className="text-sm font-semibold text-slate-800">Try it</h4>
          <p className="text-xs text-slate-600">Paste an output to see what these evaluators (as edited, saved or not) would say.</p>
          <div className="mt-2 flex flex-col gap-2">
            <Field label="Output" htmlFor="try-output">
              <Textarea id="try-output" rows={3} value={output} onChange={(e) => setOutput(e.target.value)} className={inputClass()} />
            </Field>
            <Field label="Tool calls (optional, JSON)" htmlFor="try-tools" hint='e.g. [{"toolName": "get_order", "input": {"orderId": "order_123"}}]'>
              <Textarea
                id="try-tools"
                rows={2}
                value={toolCalls}
                onChange={(e) => setToolCalls(e.target.value)}
                className={`font-mono text-xs ${inputClass()}`}
                spellCheck={false}
              />
            </Field>
            <div>
              <Button onClick={tryIt} disabled={pending}>
                {pending ? "Checking…" : "Try it"}
              </Button>
            </div>
            {tryError ? (
              <p role="alert" className="text-sm text-red-700">
                {tryError}
              </p>
            ) : null}
            {results ? <CheckResults results={results} /> : null}
          </div>
        </section>
      ) : null}
    </fieldset>
  );
}
