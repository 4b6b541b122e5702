"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { CASE_SOURCES } from "@/lib/library/case-content";
import { casesHref, type CasesParams } from "@/lib/library/cases-url";
import { LIMITS } from "@/lib/library/limits";
import { useRoleAtLeast } from "@/components/auth/role-context";

const SOURCE_LABEL: Record<string, string> = { custom: "Custom", dataset: "Dataset", generated: "Generated", retained: "Retained", code: "Code" };

/**
 * Filters of the Cases tab: source (All cases first), prompt (when several), status, and a search
 * over case ID, input and expected result. Every change is a new URL (shareable, back button works); the
 * source counts follow the prompt and status filters; "Clear filters" drops all four.
 */
export function CasesToolbar({
  base,
  state,
  counts,
  prompts,
  addHref,
  uploadHref,
  exportHrefs,
  generateHref,
}: {
  base: string;
  state: CasesParams;
  counts: Record<string, number>;
  prompts: string[];
  addHref: string;
  /** Upload cases (Datasets). */
  uploadHref?: string;
  /** Export of the current prompt's library (every prompt when none is chosen). */
  exportHrefs?: { csv: string; jsonl: string };
  /** Generate scenarios with a model (issue 17). */
  generateHref?: string;
}) {
  const router = useRouter();
  const canEdit = useRoleAtLeast("editor");
  const [pending, startTransition] = useTransition();
  const [q, setQ] = useState(state.q ?? "");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);

  // Keep the box in step when the URL changes from elsewhere (back button, a link): React's
  // "adjust state when a prop changes" during render, not an effect that renders twice.
  const [seenQ, setSeenQ] = useState(state.q);
  if (state.q !== seenQ) {
    setSeenQ(state.q);
    setQ(state.q ?? "");
  }

  const go = (changes: Partial<CasesParams>) => startTransition(() => router.push(casesHref(base, state, changes)));
  const search = (value: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => go({ q: value.trim() ? value : undefined }), 300);
  };

  const pill = (active: boolean) =>
    `inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-sm ring-1 ring-inset ${active ? "bg-indigo-600 text-white ring-indigo-600" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"}`;

  return (
    <div className="flex flex-col gap-3">
      <div role="group" aria-label="Source" className="flex flex-wrap items-center gap-2">
        <Link href={casesHref(base, state, { source: undefined })} className={pill(!state.source)} aria-current={!state.source ? "true" : undefined}>
          All cases <span className="text-xs opacity-75">{total.toLocaleString("en-US")}</span>
        </Link>
        {CASE_SOURCES.map((s) => (
          <Link
            key={s}
            href={casesHref(base, state, { source: s })}
            className={pill(state.source === s)}
            aria-current={state.source === s ? "true" : undefined}
          >
            {SOURCE_LABEL[s]} <span className="text-xs opacity-75">{(counts[s] ?? 0).toLocaleString("en-US")}</span>
          </Link>
        ))}
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-xs font-medium text-slate-600">
          Search case ID, input and expected result
          <input
            ref={searchBox}
            type="search"
            value={q}
            maxLength={LIMITS.searchQuery}
            placeholder="e.g. refund, card_arrival, or part of a case ID"
            onChange={(e) => {
              setQ(e.target.value);
              search(e.target.value);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                if (timer.current) clearTimeout(timer.current);
                go({ q: q.trim() ? q : undefined });
              }
            }}
            className="h-9 rounded-md border border-slate-300 bg-white px-3 text-sm font-normal text-slate-900 focus:ring-2 focus:ring-indigo-300 focus:outline-none"
          />
        </label>
        {prompts.length > 1 ? (
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
            Prompt
            <select
              value={state.prompt ?? ""}
              onChange={(e) => go({ prompt: e.target.value || undefined })}
              className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm font-normal text-slate-900"
            >
              <option value="">All prompts</option>
              {prompts.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Status
          <select
            value={state.status ?? ""}
            onChange={(e) => go({ status: (e.target.value || undefined) as CasesParams["status"] })}
            className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm font-normal text-slate-900"
          >
            <option value="">Any status</option>
            <option value="active">Active</option>
            <option value="paused">Paused</option>
          </select>
        </label>
        {state.source || state.prompt || state.status || state.q ? (
          <Link
            href={casesHref(base, state, { source: undefined, prompt: undefined, status: undefined, q: undefined })}
            onClick={() => {
              // A search still waiting on its debounce would bring the text back after the clear.
              if (timer.current) clearTimeout(timer.current);
              setQ("");
              // The link goes away with the filters: keep the keyboard user's place in the toolbar.
              searchBox.current?.focus();
            }}
            className="inline-flex h-9 items-center rounded-md px-2 text-sm text-indigo-700 hover:bg-indigo-50"
          >
            Clear filters
          </Link>
        ) : null}
        <span aria-live="polite" className="h-9 w-16 self-end text-xs leading-9 text-slate-500">
          {pending ? "Loading…" : ""}
        </span>
        {exportHrefs ? (
          <span
            className="ml-auto flex h-9 items-center gap-1 text-xs text-slate-600"
            title={state.prompt ? `Cases of ${state.prompt}` : "Cases of every prompt"}
          >
            Export
            <a href={exportHrefs.csv} download className="rounded px-1.5 py-1 font-medium text-indigo-700 hover:bg-indigo-50">
              CSV
            </a>
            <a href={exportHrefs.jsonl} download className="rounded px-1.5 py-1 font-medium text-indigo-700 hover:bg-indigo-50">
              JSONL
            </a>
          </span>
        ) : null}
        {uploadHref ? (
          <Link
            hidden={!canEdit}
            href={uploadHref}
            className={`${exportHrefs ? "" : "ml-auto "}inline-flex h-9 items-center rounded-md border border-slate-300 bg-white px-3.5 text-sm font-medium text-slate-800 hover:bg-slate-50`}
          >
            Upload cases
          </Link>
        ) : null}
        {generateHref ? (
          <Link
            hidden={!canEdit}
            href={generateHref}
            className="inline-flex h-9 items-center rounded-md border border-slate-300 bg-white px-3.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            Generate
          </Link>
        ) : null}
        <Link
          hidden={!canEdit}
          href={addHref}
          className={`${exportHrefs || uploadHref || generateHref ? "" : "ml-auto "}inline-flex h-9 items-center rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white hover:bg-indigo-700`}
        >
          Add case
        </Link>
      </div>
    </div>
  );
}
