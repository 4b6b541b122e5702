"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { LIMITS } from "@/lib/library/limits";
import { addCaseAction } from "@/app/systems/[systemId]/library/actions";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { Textarea } from "@/components/ui/textarea";

/**
 * Add case: input, expected result, the target prompt when the system has several (cases are
 * prompt-specific), and an optional case ID (otherwise a stable one is generated).
 */
export function AddCasePanel({
  systemId,
  prompts,
  defaultPromptId,
  closeHref,
  afterAddHref,
}: {
  systemId: string;
  prompts: { id: number; name: string; variables: string[] }[];
  defaultPromptId?: number;
  closeHref: string;
  afterAddHref: string;
}) {
  const router = useRouter();
  const toast = useToast();
  const [pending, startTransition] = useTransition();
  const [input, setInput] = useState("");
  const [expected, setExpected] = useState("");
  const [caseKey, setCaseKey] = useState("");
  const [promptId, setPromptId] = useState<string>(defaultPromptId ? String(defaultPromptId) : prompts.length === 1 ? String(prompts[0].id) : "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const needed = prompts.find((p) => String(p.id) === promptId)?.variables ?? [];

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    startTransition(async () => {
      setMessage(null);
      const variables = needed.filter((n) => (values[n] ?? "") !== "").map((name) => ({ name, value: values[name] }));
      const r = await addCaseAction({ systemId, promptId, input, expected, caseKey, variables });
      if (r.ok) {
        toast(`Added case ${r.data.caseKey}`);
        const url = new URL(afterAddHref, window.location.origin);
        url.searchParams.set("case", String(r.data.id));
        router.push(url.pathname + url.search);
      } else {
        setErrors(r.error.fieldErrors ?? {});
        setMessage(r.error.message);
      }
    });
  };

  return (
    <aside aria-label="Add case" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <div className="flex items-start justify-between">
          <h2 className="text-base font-semibold">Add case</h2>
          <Link href={closeHref} className="rounded p-1 text-slate-500 hover:bg-slate-100" aria-label="Close panel">
            ✕
          </Link>
        </div>
        {message ? (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
            {message}
          </p>
        ) : null}
        {prompts.length > 1 ? (
          <Field
            label="Target prompt"
            htmlFor="add-prompt"
            error={errors.promptId}
            hint="Cases are prompt-specific: an expectation for one agent is not a rule for every agent."
          >
            <select id="add-prompt" value={promptId} onChange={(e) => setPromptId(e.target.value)} className={inputClass(errors.promptId)} required>
              <option value="">Choose a prompt…</option>
              {prompts.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <Field
          label="Input"
          htmlFor="add-input"
          error={errors.input}
          hint={`What the model receives. Up to ${LIMITS.input.toLocaleString("en-US")} characters.`}
        >
          <Textarea id="add-input" rows={5} value={input} onChange={(e) => setInput(e.target.value)} className={inputClass(errors.input)} autoFocus />
        </Field>
        <Field label="Expected result" htmlFor="add-expected" error={errors.expected} hint={`Up to ${LIMITS.expected.toLocaleString("en-US")} characters.`}>
          <Textarea id="add-expected" rows={3} value={expected} onChange={(e) => setExpected(e.target.value)} className={inputClass(errors.expected)} />
        </Field>
        {needed.length ? (
          <fieldset className="flex flex-col gap-2 rounded-md border border-slate-200 p-3">
            <legend className="px-1 text-sm font-medium text-slate-800">Prompt variables</legend>
            <p className="text-xs text-slate-500">
              The prompt fills {needed.map((n) => `{{${n}}}`).join(", ")} from each case. A case without a value is left out of benches of model candidates
              (nothing is invented).
            </p>
            {needed.map((n) => (
              <Field key={n} label={n} htmlFor={`add-var-${n}`}>
                <input
                  id={`add-var-${n}`}
                  value={values[n] ?? ""}
                  onChange={(e) => setValues((v) => ({ ...v, [n]: e.target.value }))}
                  className={inputClass()}
                />
              </Field>
            ))}
          </fieldset>
        ) : null}
        <Field
          label="Case ID (optional)"
          htmlFor="add-case-id"
          error={errors.caseKey}
          hint={`Leave empty to generate a stable ID. Unique in the workspace; up to ${LIMITS.caseId} characters, stored exactly as written.`}
        >
          <input id="add-case-id" value={caseKey} onChange={(e) => setCaseKey(e.target.value)} className={`font-mono ${inputClass(errors.caseKey)}`} />
        </Field>
        <div className="flex gap-2">
          <Button type="submit" variant="primary" disabled={pending}>
            {pending ? "Adding…" : "Add case"}
          </Button>
          <Link href={closeHref} className="inline-flex h-9 items-center rounded-md px-3 text-sm text-slate-700 hover:bg-slate-100">
            Cancel
          </Link>
        </div>
      </form>
    </aside>
  );
}
