"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useRef, useState, useTransition } from "react";
import { reviewPromptEditAction, savePromptEditAction } from "@/app/systems/[systemId]/prompts/actions";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { oversizedFields, PROMPT_EDIT_LIMITS } from "@/lib/prompts/edit";
import type { MissingVariable } from "@/lib/prompts/variables";
import { templateVariables } from "@/lib/runtime/template";
import { Textarea } from "@/components/ui/textarea";

/** The form's text fields (what the action receives). */
export interface PromptEditValues {
  systemPrompt: string;
  temperature: string;
  maxOutputTokens: string;
  topP: string;
  stopSequences: string;
  providerOptions: string;
  tools: string;
  message: string;
}

/**
 * Edit prompt: every field of a new revision, prefilled from the revision it was opened from.
 * Save first reviews (nothing stored): a stale base or no change is refused, and the variables some
 * active cases lack are listed with "Save anyway"; then it saves and opens the diff of the change.
 * Ctrl/⌘+Enter saves from any field.
 */
export function PromptEditForm({
  systemId,
  promptId,
  promptName,
  base,
  initial,
  prefilledFrom,
}: {
  systemId: string;
  promptId: number;
  promptName: string;
  base: { id: number; number: number; systemPrompt: string };
  initial: PromptEditValues;
  /** The earlier revision the fields were copied from (bringing it back), when not the base. */
  prefilledFrom?: number;
}) {
  const router = useRouter();
  const [v, setV] = useState<PromptEditValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<{ code: string; message: string } | null>(null);
  const [missing, setMissing] = useState<MissingVariable[] | null>(null);
  const [pending, start] = useTransition();
  const alertRef = useRef<HTMLDivElement>(null);
  const templateRef = useRef<HTMLTextAreaElement>(null);
  const home = `/systems/${systemId}/prompts/${encodeURIComponent(promptName)}`;
  const input = { ...v, promptId, baseRevisionId: base.id };
  const vars = useMemo(() => templateVariables(v.systemPrompt), [v.systemPrompt]);
  const before = useMemo(() => new Set(templateVariables(base.systemPrompt)), [base.systemPrompt]);

  const set = (k: keyof PromptEditValues) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    setV((x) => ({ ...x, [k]: e.target.value }));
    setMissing(null);
  };
  const refuse = (e: { code: string; message: string; fieldErrors?: Record<string, string> }) => {
    setErrors(e.fieldErrors ?? {});
    setAlert({
      code: e.code,
      message: e.fieldErrors && Object.keys(e.fieldErrors).length ? "Some fields need attention: see the messages below them. Nothing was saved." : e.message,
    });
    requestAnimationFrame(() => alertRef.current?.focus());
  };
  /**
   * Runs `work` unless a field is over its limit (refused here: a server action's body is capped at
   * 1 MB, so a pasted document would fail the request instead of getting its message). A request
   * that fails all the same (too large as sent, server unreachable) is refused in the form: thrown,
   * it would replace the editor with the error page and lose the user's text.
   */
  const guarded = (work: () => Promise<void>) =>
    start(async () => {
      const big = oversizedFields(v);
      if (Object.keys(big).length) return refuse({ code: "validation", message: "", fieldErrors: big });
      try {
        await work();
      } catch {
        refuse({
          code: "request_failed",
          message:
            "The server did not take this edit (too large as sent — a save carries at most 1 MB — or the server could not be reached). Nothing was saved; your edits are still in the form.",
        });
      }
    });
  const save = () =>
    guarded(async () => {
      const r = await savePromptEditAction(systemId, input);
      if (!r.ok) return refuse(r.error);
      router.push(`${home}/diff?from=${base.number}&to=${r.data.number}&saved=1`);
    });
  const review = () =>
    guarded(async () => {
      setAlert(null);
      const r = await reviewPromptEditAction(systemId, input);
      if (!r.ok) return refuse(r.error);
      setErrors({});
      if (r.data.missing.length) {
        setMissing(r.data.missing);
        requestAnimationFrame(() => alertRef.current?.focus());
      } else {
        const s = await savePromptEditAction(systemId, input);
        if (!s.ok) return refuse(s.error);
        router.push(`${home}/diff?from=${base.number}&to=${s.data.number}&saved=1`);
      }
    });

  return (
    <form
      className="flex flex-col gap-5 rounded-lg border border-slate-200 bg-white p-5"
      aria-label={`Edit ${promptName}`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        review();
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          if (!pending) review();
        }
      }}
    >
      <p className="text-sm text-slate-600">
        Saving makes <span className="font-mono font-semibold">r{base.number + 1}</span>, a new revision based on r{base.number}
        {prefilledFrom ? <>, with the fields of r{prefilledFrom}</> : null}. r{base.number} and the benches that used it stay as they are.
      </p>
      <div ref={alertRef} tabIndex={-1} className="outline-none">
        {alert ? (
          <div
            role="alert"
            className={`rounded-md border px-3 py-2 text-sm ${alert.code === "unchanged" ? "border-slate-300 bg-slate-50 text-slate-800" : "border-red-300 bg-red-50 text-red-800"}`}
          >
            <p>{alert.message}</p>
            {alert.code === "conflict" ? (
              <p className="mt-1">
                <a href={home} target="_blank" rel="noreferrer" className="font-medium underline">
                  Open the latest revision in a new tab
                </a>
              </p>
            ) : null}
          </div>
        ) : null}
        {missing ? (
          <div
            role="alert"
            className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            data-testid="missing-variables"
          >
            <p className="font-medium">
              Some active cases lack a variable this template needs. Benches will exclude them with &quot;missing variable&quot; until they get one:
            </p>
            <ul className="list-disc pl-5">
              {missing.map((m) => (
                <li key={m.name}>
                  <code className="font-mono">{m.name}</code>
                  {m.introduced ? " (new in this edit)" : ""}: {m.caseCount} case{m.caseCount === 1 ? "" : "s"} — {m.caseKeys.join(", ")}
                  {m.caseCount > m.caseKeys.length ? ", …" : ""}
                </li>
              ))}
            </ul>
            <div className="flex gap-2">
              <Button variant="primary" size="sm" onClick={save} disabled={pending}>
                Save anyway
              </Button>
              <Button size="sm" onClick={() => (setMissing(null), templateRef.current?.focus())}>
                Keep editing
              </Button>
            </div>
          </div>
        ) : null}
      </div>

      <Field
        label="System prompt template"
        htmlFor="pe-system"
        error={errors.systemPrompt}
        hint={`{{name}} is filled from each case's variables. Up to ${PROMPT_EDIT_LIMITS.systemPrompt.toLocaleString("en-US")} characters.`}
      >
        <Textarea
          ref={templateRef}
          id="pe-system"
          value={v.systemPrompt}
          onChange={set("systemPrompt")}
          rows={10}
          className={`${inputClass(errors.systemPrompt)} font-mono`}
          aria-describedby="pe-vars"
        />
      </Field>
      <p id="pe-vars" className="-mt-3 text-xs text-slate-600" data-testid="edit-variables">
        {vars.length ? (
          <>
            Variables:{" "}
            {vars.map((x, i) => (
              <span key={x}>
                {i ? ", " : ""}
                <code className="rounded bg-amber-50 px-1 text-amber-900">{x}</code>
                {before.has(x) ? "" : " (new)"}
              </span>
            ))}
          </>
        ) : (
          "No variables."
        )}
      </p>

      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-medium text-slate-800">Model settings</legend>
        <p className="text-xs text-slate-500">
          These win over the model configuration&apos;s defaults. Leave a field empty to use the configuration&apos;s value (or the provider&apos;s default).
        </p>
        <div className="grid grid-cols-3 gap-3">
          <Field label="Temperature" htmlFor="pe-temp" error={errors.temperature} hint="0–2">
            <input id="pe-temp" inputMode="decimal" value={v.temperature} onChange={set("temperature")} className={inputClass(errors.temperature)} />
          </Field>
          <Field label="Max output tokens" htmlFor="pe-max" error={errors.maxOutputTokens} hint="1–200,000">
            <input id="pe-max" inputMode="numeric" value={v.maxOutputTokens} onChange={set("maxOutputTokens")} className={inputClass(errors.maxOutputTokens)} />
          </Field>
          <Field label="Top P" htmlFor="pe-topp" error={errors.topP} hint="0–1">
            <input id="pe-topp" inputMode="decimal" value={v.topP} onChange={set("topP")} className={inputClass(errors.topP)} />
          </Field>
        </div>
        <Field label="Stop sequences" htmlFor="pe-stop" error={errors.stopSequences} hint="One per line, at most 16.">
          <Textarea id="pe-stop" value={v.stopSequences} onChange={set("stopSequences")} rows={2} className={`${inputClass(errors.stopSequences)} font-mono`} />
        </Field>
        <Field
          label="Provider options (JSON)"
          htmlFor="pe-provider"
          error={errors.providerOptions}
          hint='Keyed by provider, e.g. {"openai": {"reasoningEffort": "low"}}; empty for none.'
        >
          <Textarea
            id="pe-provider"
            value={v.providerOptions}
            onChange={set("providerOptions")}
            rows={2}
            className={`${inputClass(errors.providerOptions)} font-mono`}
          />
        </Field>
      </fieldset>

      <Field label="Tools (JSON)" htmlFor="pe-tools" error={errors.tools} hint="A list of {name, description, inputSchema, fixtures}; [] for none.">
        <Textarea
          id="pe-tools"
          value={v.tools}
          onChange={set("tools")}
          rows={12}
          className={`${inputClass(errors.tools)} font-mono text-xs`}
          spellCheck={false}
        />
      </Field>

      <Field
        label="Why this change"
        htmlFor="pe-message"
        error={errors.message}
        hint={`Shown in the history and on bench results, e.g. "tighten refund wording". Up to ${PROMPT_EDIT_LIMITS.message} characters.`}
      >
        <input
          id="pe-message"
          value={v.message}
          onChange={set("message")}
          maxLength={PROMPT_EDIT_LIMITS.message}
          className={inputClass(errors.message)}
          aria-invalid={errors.message ? true : undefined}
        />
      </Field>

      <div className="flex items-center gap-2">
        <Button type="submit" variant="primary" disabled={pending}>
          {pending ? "Saving…" : `Save r${base.number + 1}`}
        </Button>
        <Link href={home} className="inline-flex h-9 items-center rounded-md px-3.5 text-sm font-medium text-slate-700 hover:bg-slate-100">
          Cancel
        </Link>
        <span className="text-xs text-slate-500">Ctrl/⌘ + Enter saves</span>
      </div>
    </form>
  );
}
