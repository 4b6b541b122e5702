"use client";

import { useState } from "react";
import type { BenchPlan } from "@/lib/bench/types";
import { Badge } from "@/components/ui/badge";
import { UncheckedFix } from "./unchecked-fix";

const GROUP_LABEL = { explicit: "explicit", retained: "retained (regression candidate)", generated: "generated" } as const;

/** The plan before launch: counts, estimates, warnings, and the manifest (included in order, excluded with reasons). */
export function PlanView({
  plan,
  includeRetained = true,
  fix,
}: {
  plan: BenchPlan;
  includeRetained?: boolean;
  fix?: { systemId: string; promptId: number; promptName: string; onFixed: () => void };
}) {
  const [show, setShow] = useState<"included" | "excluded">(plan.includedCount ? "included" : "excluded");
  const rows = plan.manifest.filter((m) => (show === "included" ? m.included : !m.included));
  const fmt = (n: number) => n.toLocaleString("en-US");
  return (
    <section aria-label="Plan" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="text-base font-semibold">Plan</h2>
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-slate-500">Cases included</dt>
          <dd className="text-lg font-semibold tabular-nums">{fmt(plan.includedCount)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Cases excluded</dt>
          <dd className="text-lg font-semibold tabular-nums">{fmt(plan.excludedCount)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Trials</dt>
          <dd className="text-lg font-semibold tabular-nums">{fmt(plan.trialCount)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Model calls · judge calls</dt>
          <dd
            className="text-lg font-semibold tabular-nums"
            title={plan.modelCallsUpperBound ? "At most: a trial with tools makes one model call per tool round, up to the step limit" : undefined}
          >
            {plan.modelCallsUpperBound ? "≤ " : ""}
            {fmt(plan.modelCalls)} · {fmt(plan.judgeCalls)}
          </dd>
        </div>
        <div className="col-span-2 sm:col-span-4">
          <dt className="text-xs text-slate-500">Estimate (≈ input tokens, ≤ output tokens, cost)</dt>
          <dd className="text-sm tabular-nums">
            ≈ {fmt(plan.estimate.inputTokens)} input tokens · ≤ {fmt(plan.estimate.outputTokens)} output tokens ·{" "}
            {plan.estimate.costUsd === null ? "cost unknown (set prices on the Models page)" : `≤ $${plan.estimate.costUsd.toFixed(4)}`}
          </dd>
        </div>
      </dl>
      {plan.generation ? (
        <div className="rounded-md border border-violet-200 bg-violet-50 p-3 text-sm text-violet-950" data-testid="plan-generation">
          <p className="font-medium">
            Generated at launch by {plan.generation.model}: {fmt(plan.generation.criteria)} criteri{plan.generation.criteria === 1 ? "on" : "a"} and{" "}
            {fmt(plan.generation.scenarios)} scenario{plan.generation.scenarios === 1 ? "" : "s"}
            {plan.generation.scenarios > 0 ? ` (${fmt(plan.generation.scenariosIncluded)} fit the case budget, after the cases above)` : ""}.
          </p>
          <p className="tabular-nums">
            {plan.generation.scenarios > 0 ? "≤ " : ""}
            {fmt(plan.generation.calls)} generator call{plan.generation.calls === 1 ? "" : "s"} · ≈ {fmt(plan.generation.estimate.inputTokens)} input tokens · ≈{" "}
            {fmt(plan.generation.estimate.outputTokens)} output tokens ·{" "}
            {plan.generation.estimate.costUsd === null ? "cost unknown (set prices on the Models page)" : `≈ $${plan.generation.estimate.costUsd.toFixed(4)}`}
          </p>
          <p className="text-xs text-violet-800">
            They add up to {fmt(plan.generation.trials)} trial{plan.generation.trials === 1 ? "" : "s"} and {fmt(plan.generation.judgeCalls)} judge call
            {plan.generation.judgeCalls === 1 ? "" : "s"} to the figures above (fewer when near-duplicates are dropped).
          </p>
        </div>
      ) : null}
      <p className="text-sm text-slate-600" data-testid="retained-joined">
        {!includeRetained
          ? "Retained regression cases are left out."
          : plan.retainedJoined === 0
            ? "No retained regression case joined the selection."
            : `${fmt(plan.retainedJoined)} retained regression case${plan.retainedJoined > 1 ? "s" : ""} (from earlier benches' failures) joined the selection.`}
      </p>
      {plan.warnings.length ? (
        <ul className="flex flex-col gap-1 rounded-md bg-amber-50 p-3 text-sm text-amber-900" role="status">
          {plan.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      ) : null}
      {plan.unchecked && fix ? <UncheckedFix unchecked={plan.unchecked} {...fix} /> : null}
      {Object.keys(plan.excludedBy).length ? (
        <p className="text-sm text-slate-600">
          Excluded:{" "}
          {Object.entries(plan.excludedBy)
            .map(([k, v]) => `${v} ${k}`)
            .join(", ")}
          .
        </p>
      ) : null}
      <div role="tablist" aria-label="Manifest" className="inline-flex w-fit rounded-md bg-slate-100 p-0.5 text-sm">
        {(["included", "excluded"] as const).map((k) => (
          <button
            key={k}
            role="tab"
            aria-selected={show === k}
            type="button"
            onClick={() => setShow(k)}
            className={`rounded px-3 py-1 ${show === k ? "bg-white shadow-xs" : "text-slate-600"}`}
          >
            {k === "included" ? `Included (${fmt(plan.includedCount)})` : `Excluded (${fmt(plan.excludedCount)})`}
          </button>
        ))}
      </div>
      <div className="max-h-96 overflow-auto rounded-md border border-slate-200">
        <table className="w-full text-left text-sm">
          <thead className="sticky top-0 bg-slate-50 text-xs text-slate-600">
            <tr>
              <th className="px-3 py-1.5 font-medium">#</th>
              <th className="px-3 py-1.5 font-medium">Case ID</th>
              <th className="px-3 py-1.5 font-medium">Source · group</th>
              <th className="px-3 py-1.5 font-medium">{show === "included" ? "Note" : "Reason"}</th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, 500).map((m) => (
              <tr key={m.caseId} className="border-t border-slate-100" data-testid="manifest-row">
                <td className="px-3 py-1 text-xs text-slate-500 tabular-nums">{m.position}</td>
                <td className="px-3 py-1 font-mono text-xs">{m.caseKey}</td>
                <td className="px-3 py-1 text-xs">
                  <Badge>{m.source}</Badge> <span className="text-slate-500">{GROUP_LABEL[m.group]}</span>
                </td>
                <td className="px-3 py-1 text-xs text-slate-700">{show === "included" ? (m.note ?? "") : m.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length > 500 ? (
          <p className="p-2 text-xs text-slate-500">Showing the first 500 of {fmt(rows.length)}; the bench page lists the whole manifest.</p>
        ) : null}
        {rows.length === 0 ? <p className="p-3 text-sm text-slate-500">None.</p> : null}
      </div>
    </section>
  );
}
