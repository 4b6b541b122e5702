"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { KeyStatus } from "@/lib/runtime/key-policy";
import type { ModelConfig } from "@/lib/runtime/model-config";
import { createModelConfigAction, deleteModelConfigAction, testModelConfigAction, updateModelConfigAction } from "@/app/models/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, inputClass } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { useRoleAtLeast } from "@/components/auth/role-context";

type Row = ModelConfig & { id: string; key: KeyStatus };
type Form = Record<
  "name" | "provider" | "modelId" | "baseUrl" | "apiKeyEnv" | "temperature" | "maxOutputTokens" | "inputPricePerMTok" | "outputPricePerMTok",
  string
>;

const EMPTY: Form = {
  name: "",
  provider: "openai-compatible",
  modelId: "",
  baseUrl: "",
  apiKeyEnv: "",
  temperature: "0",
  maxOutputTokens: "512",
  inputPricePerMTok: "",
  outputPricePerMTok: "",
};

function toForm(r: Row): Form {
  const s = (v: unknown) => (v === undefined || v === null ? "" : String(v));
  return {
    name: r.name,
    provider: r.provider,
    modelId: r.modelId,
    baseUrl: s(r.baseUrl),
    apiKeyEnv: s(r.apiKeyEnv),
    temperature: s(r.temperature),
    maxOutputTokens: s(r.maxOutputTokens),
    inputPricePerMTok: s(r.inputPricePerMTok),
    outputPricePerMTok: s(r.outputPricePerMTok),
  };
}

function toInput(f: Form) {
  const num = (v: string) => (v.trim() === "" ? undefined : Number(v));
  return {
    ...f,
    temperature: num(f.temperature),
    maxOutputTokens: num(f.maxOutputTokens),
    inputPricePerMTok: num(f.inputPricePerMTok),
    outputPricePerMTok: num(f.outputPricePerMTok),
  };
}

/** The Models page: the list, an add/edit form, delete, and Test connection per configuration. */
export function ModelsView({ rows }: { rows: Row[] }) {
  const router = useRouter();
  // Model configurations and key names are admin-only (issue 19).
  const isAdmin = useRoleAtLeast("admin");
  const toast = useToast();
  const [pending, startTransition] = useTransition();
  const [editing, setEditing] = useState<{ id?: string; form: Form } | null>(rows.length === 0 ? { form: EMPTY } : null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<string, { ok: boolean; text: string } | "running">>({});

  const set = (k: keyof Form, v: string) => setEditing((e) => (e ? { ...e, form: { ...e.form, [k]: v } } : e));

  const save = (e: React.FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    startTransition(async () => {
      const input = toInput(editing.form);
      const r = editing.id ? await updateModelConfigAction({ ...input, id: editing.id }) : await createModelConfigAction(input);
      if (r.ok) {
        toast(editing.id ? `Saved ${editing.form.name}` : `Added ${editing.form.name}`);
        setEditing(null);
        setErrors({});
        setMessage(null);
        router.refresh();
      } else {
        setErrors(r.error.fieldErrors ?? {});
        setMessage(r.error.message);
      }
    });
  };

  const test = (row: Row) => {
    setTests((t) => ({ ...t, [row.id]: "running" }));
    startTransition(async () => {
      const r = await testModelConfigAction({ id: row.id });
      const res = r.ok
        ? r.data.ok
          ? { ok: true, text: `Answered “${r.data.text}” in ${Math.round(r.data.latencyMs ?? 0)} ms` }
          : { ok: false, text: r.data.error ?? "failed" }
        : { ok: false, text: r.error.message };
      setTests((t) => ({ ...t, [row.id]: res }));
    });
  };

  const remove = (row: Row) =>
    startTransition(async () => {
      const r = await deleteModelConfigAction({ id: row.id });
      if (r.ok) {
        toast(`Deleted ${row.name}`);
        router.refresh();
      } else toast(r.error.message, "error");
    });

  const f = editing?.form;
  return (
    <div className={`grid items-start gap-4 ${editing ? "xl:grid-cols-[minmax(0,1fr)_440px]" : ""}`}>
      <section aria-label="Model configurations" className="min-w-0 rounded-lg border border-slate-200 bg-white">
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2.5">
          <h2 className="text-sm font-semibold">
            Configurations <span className="font-normal text-slate-500">({rows.length})</span>
          </h2>
          <Button hidden={!isAdmin} variant="primary" size="sm" onClick={() => (setEditing({ form: EMPTY }), setErrors({}), setMessage(null))}>
            Add model
          </Button>
        </div>
        {rows.length === 0 ? (
          <p className="p-6 text-sm text-slate-600">
            No model configurations yet. Benches on recorded outputs need none; add one to run live models or a judge.
          </p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
              <tr>
                <th className="px-3 py-2 font-medium">Name</th>
                <th className="px-3 py-2 font-medium">Provider · model</th>
                <th className="px-3 py-2 font-medium">Key</th>
                <th className="px-3 py-2 font-medium">Settings</th>
                <th className="px-3 py-2 font-medium">Prices (USD / M tokens)</th>
                <th className="px-3 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const t = tests[r.id];
                return (
                  <tr key={r.id} className="border-b border-slate-100 align-top last:border-0" data-testid="model-row">
                    <td className="px-3 py-2.5 font-medium">{r.name}</td>
                    <td className="px-3 py-2.5">
                      <span className="text-slate-700">{r.provider}</span> · <code className="text-xs">{r.modelId}</code>
                      {r.baseUrl ? <span className="block text-xs break-all text-slate-500">{r.baseUrl}</span> : null}
                    </td>
                    <td className="px-3 py-2.5">
                      {r.key.variable ? (
                        <span className="flex flex-col items-start gap-1">
                          <code className="text-xs">{r.key.variable}</code>
                          {/* A refused variable is never read: no set / not set for it. */}
                          {r.key.refused?.code === "key_host_refused" || !r.key.refused ? (
                            <Badge tone={r.key.present ? "green" : "amber"}>{r.key.present ? "set on the server" : "not set"}</Badge>
                          ) : null}
                          {r.key.refused ? (
                            <>
                              <Badge tone="red">{r.key.refused.code === "key_host_refused" ? "host not allowed" : "not allowed"}</Badge>
                              <span className="max-w-xs text-xs text-red-700" data-testid="key-refused">
                                {r.key.refused.message}
                              </span>
                            </>
                          ) : null}
                        </span>
                      ) : (
                        <span className="text-xs text-slate-500">no key</span>
                      )}
                    </td>
                    <td className="px-3 py-2.5 text-xs text-slate-600">
                      temperature {r.temperature ?? "default"} · max {r.maxOutputTokens ?? "default"} tokens
                    </td>
                    <td className="px-3 py-2.5 text-xs text-slate-600">
                      {r.inputPricePerMTok !== undefined ? `${r.inputPricePerMTok} in / ${r.outputPricePerMTok ?? "?"} out` : "not set"}
                    </td>
                    <td className="px-3 py-2.5">
                      <div hidden={!isAdmin} className="flex flex-wrap justify-end gap-1.5">
                        <Button size="sm" onClick={() => test(r)} disabled={t === "running"}>
                          {t === "running" ? "Testing…" : "Test connection"}
                        </Button>
                        <Button size="sm" onClick={() => (setEditing({ id: r.id, form: toForm(r) }), setErrors({}), setMessage(null))}>
                          Edit
                        </Button>
                        <ConfirmDialog
                          trigger={
                            <Button size="sm" variant="danger" disabled={pending}>
                              Delete
                            </Button>
                          }
                          title={`Delete ${r.name}?`}
                          description="Finished benches keep the configuration they ran with. A bench that has not finished blocks the deletion."
                          confirmLabel="Delete"
                          onConfirm={() => remove(r)}
                        />
                      </div>
                      {t && t !== "running" ? (
                        <p role="status" className={`mt-1.5 text-right text-xs ${t.ok ? "text-emerald-700" : "text-red-700"}`}>
                          {t.text}
                        </p>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      {editing && f && isAdmin ? (
        <aside aria-label={editing.id ? "Edit model" : "Add model"} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <form onSubmit={save} className="flex flex-col gap-3.5" noValidate>
            <h2 className="text-base font-semibold">{editing.id ? `Edit ${f.name}` : "Add model"}</h2>
            {message ? (
              <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
                {message}
              </p>
            ) : null}
            <Field label="Name" htmlFor="m-name" error={errors.name}>
              <input
                id="m-name"
                value={f.name}
                onChange={(e) => set("name", e.target.value)}
                className={inputClass(errors.name)}
                placeholder="e.g. Local Llama 3.1 8B"
              />
            </Field>
            <Field label="Provider" htmlFor="m-provider" error={errors.provider}>
              <select id="m-provider" value={f.provider} onChange={(e) => set("provider", e.target.value)} className={inputClass(errors.provider)}>
                <option value="openai">OpenAI</option>
                <option value="anthropic">Anthropic</option>
                <option value="openai-compatible">OpenAI-compatible (Ollama, vLLM, llama.cpp, LM Studio)</option>
              </select>
            </Field>
            <Field label="Model ID" htmlFor="m-model" error={errors.modelId}>
              <input
                id="m-model"
                value={f.modelId}
                onChange={(e) => set("modelId", e.target.value)}
                className={`font-mono ${inputClass(errors.modelId)}`}
                placeholder="gpt-4o-mini, claude-sonnet-4-5, llama3.1:8b"
              />
            </Field>
            <Field
              label={f.provider === "openai-compatible" ? "Base URL" : "Base URL (optional)"}
              htmlFor="m-url"
              error={errors.baseUrl}
              hint="e.g. http://127.0.0.1:11434/v1 for Ollama"
            >
              <input id="m-url" value={f.baseUrl} onChange={(e) => set("baseUrl", e.target.value)} className={`font-mono ${inputClass(errors.baseUrl)}`} />
            </Field>
            <Field
              label="API key variable (optional)"
              htmlFor="m-key"
              error={errors.apiKeyEnv}
              hint={`The NAME of the server's environment variable holding the key, not the key; it must end in _API_KEY or be allowed by the operator. Default: ${f.provider === "openai" ? "OPENAI_API_KEY" : f.provider === "anthropic" ? "ANTHROPIC_API_KEY" : "none (no key sent)"}.`}
            >
              <input
                id="m-key"
                value={f.apiKeyEnv}
                onChange={(e) => set("apiKeyEnv", e.target.value)}
                className={`font-mono ${inputClass(errors.apiKeyEnv)}`}
                autoComplete="off"
              />
            </Field>
            <div className="grid grid-cols-2 gap-3">
              <Field label="Temperature" htmlFor="m-temp" error={errors.temperature} hint="0–2">
                <input
                  id="m-temp"
                  inputMode="decimal"
                  value={f.temperature}
                  onChange={(e) => set("temperature", e.target.value)}
                  className={inputClass(errors.temperature)}
                />
              </Field>
              <Field label="Max output tokens" htmlFor="m-max" error={errors.maxOutputTokens}>
                <input
                  id="m-max"
                  inputMode="numeric"
                  value={f.maxOutputTokens}
                  onChange={(e) => set("maxOutputTokens", e.target.value)}
                  className={inputClass(errors.maxOutputTokens)}
                />
              </Field>
              <Field label="Input price" htmlFor="m-pin" error={errors.inputPricePerMTok} hint="USD per million tokens">
                <input
                  id="m-pin"
                  inputMode="decimal"
                  value={f.inputPricePerMTok}
                  onChange={(e) => set("inputPricePerMTok", e.target.value)}
                  className={inputClass(errors.inputPricePerMTok)}
                />
              </Field>
              <Field label="Output price" htmlFor="m-pout" error={errors.outputPricePerMTok} hint="USD per million tokens">
                <input
                  id="m-pout"
                  inputMode="decimal"
                  value={f.outputPricePerMTok}
                  onChange={(e) => set("outputPricePerMTok", e.target.value)}
                  className={inputClass(errors.outputPricePerMTok)}
                />
              </Field>
            </div>
            <div className="flex gap-2">
              <Button type="submit" variant="primary" disabled={pending}>
                {pending ? "Saving…" : editing.id ? "Save" : "Add model"}
              </Button>
              <Button onClick={() => setEditing(null)}>Cancel</Button>
            </div>
          </form>
        </aside>
      ) : null}
    </div>
  );
}
