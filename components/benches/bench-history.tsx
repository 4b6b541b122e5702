"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { BenchListItem } from "@/db/queries/benches";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { BenchStatus } from "./status-badge";
import { Badge } from "@/components/ui/badge";
import { soleBaseline } from "@/lib/bench/recommend";
import { useRoleAtLeast } from "@/components/auth/role-context";
import { counted } from "@/lib/bench/counted";

/**
 * History: every bench of the system with status, date, candidates and their pass rates, rubric
 * and case counts. Pick two benches of the same prompt to compare them case by case.
 */
export function BenchHistory({ systemId, benches, prompts, prompt }: { systemId: string; benches: BenchListItem[]; prompts: string[]; prompt?: string }) {
  const router = useRouter();
  const canEdit = useRoleAtLeast("editor");
  const [picked, setPicked] = useState<number[]>([]);
  const pickedBenches = benches.filter((b) => picked.includes(b.id));
  const samePrompt = pickedBenches.length === 2 && pickedBenches[0].promptId === pickedBenches[1].promptId;
  const toggle = (id: number) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const base = `/systems/${systemId}/benches`;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        {prompts.length > 1 ? (
          <label className="flex items-center gap-2 text-sm text-slate-600">
            Prompt
            <select
              value={prompt ?? ""}
              onChange={(e) => router.push(e.target.value ? `${base}?prompt=${encodeURIComponent(e.target.value)}` : base)}
              className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
            >
              <option value="">All prompts</option>
              {prompts.map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
          </label>
        ) : null}
        <Button
          disabled={!samePrompt}
          title={pickedBenches.length === 2 && !samePrompt ? "Pick two benches of the same prompt" : "Pick two benches to compare"}
          onClick={() => router.push(`${base}/compare?a=${Math.min(...picked)}&b=${Math.max(...picked)}`)}
        >
          Compare {picked.length}/2
        </Button>
        <Link
          hidden={!canEdit}
          href={`${base}/new${prompt ? `?prompt=${encodeURIComponent(prompt)}` : ""}`}
          className="ml-auto inline-flex h-9 items-center rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white hover:bg-indigo-700"
        >
          New bench
        </Link>
      </div>
      <section aria-label="Bench history" className="rounded-lg border border-slate-200 bg-white">
        {benches.length === 0 ? (
          <p className="p-6 text-sm text-slate-600">
            No bench has run yet. A bench compares candidates — prompt revisions × models, or recorded outputs — over this system&apos;s cases. Start one with
            New bench.
          </p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
              <tr>
                <th className="w-10 px-3 py-2">
                  <span className="sr-only">Compare</span>
                </th>
                <th className="px-3 py-2 font-medium">Bench</th>
                <th className="px-3 py-2 font-medium">Status</th>
                <th className="px-3 py-2 font-medium">Candidates · pass rate (scored checks)</th>
                <th className="px-3 py-2 font-medium">Cases</th>
                <th className="px-3 py-2 font-medium">Rubric</th>
                <th className="px-3 py-2 font-medium">Started</th>
              </tr>
            </thead>
            <tbody>
              {benches.map((b) => (
                <tr key={b.id} className="border-b border-slate-100 align-top last:border-0" data-testid="bench-row">
                  <td className="px-3 py-2.5">
                    <input type="checkbox" aria-label={`Pick bench #${b.id} to compare`} checked={picked.includes(b.id)} onChange={() => toggle(b.id)} />
                  </td>
                  <td className="px-3 py-2.5">
                    <Link href={`${base}/${b.id}`} className="font-medium text-indigo-700 hover:underline">
                      #{b.id} {b.title}
                    </Link>
                    <span className="block text-xs text-slate-500">prompt {b.promptName}</span>
                  </td>
                  <td className="px-3 py-2.5">
                    <BenchStatus status={b.status} />
                    {/* Issue #16: cancelled or cut short by the spend cap, so it recommends nothing. */}
                    {b.partial && b.status === "finished" ? (
                      <span className="ml-1">
                        <Badge tone="amber">partial</Badge>
                      </span>
                    ) : null}
                    {b.partial ? <span className="block text-xs text-slate-500">not every trial ran: no recommendation</span> : null}
                  </td>
                  <td className="px-3 py-2.5">
                    <ul className="flex flex-col gap-0.5 text-xs">
                      {b.candidates.map((c) => {
                        // A lone candidate that is its own baseline is the pick by default, not by comparison.
                        const recommended = c.recommended && !soleBaseline(b.candidates);
                        return (
                          <li key={c.id} className="flex gap-2">
                            <span className={recommended ? "font-semibold text-emerald-700" : "text-slate-700"}>
                              {c.label}
                              {c.isBaseline ? " (baseline)" : ""}
                              {/* A partial bench (cancelled, or cut short by its spend cap) recommends nothing (issue #16). */}
                              {recommended ? " ✓ recommended" : ""}
                            </span>
                            <span className="text-slate-500 tabular-nums">
                              {c.passRate === null ? "—" : `${(c.passRate * 100).toFixed(1)}% of ${c.scored}`}
                            </span>
                          </li>
                        );
                      })}
                    </ul>
                  </td>
                  <td className="px-3 py-2.5 text-xs text-slate-600">
                    {b.included} included
                    {b.excluded ? `, ${b.excluded} excluded` : ""}
                    <span className="block">{counted(b.trialCount, "trial")}</span>
                  </td>
                  <td className="px-3 py-2.5 text-xs text-slate-600">
                    {b.rubricSize} {b.rubricSize === 1 ? "criterion" : "criteria"}
                    <code className="block text-[10px] text-slate-400" title={b.rubricHash}>
                      {b.rubricHash.slice(0, 10)}
                    </code>
                  </td>
                  <td className="px-3 py-2.5 text-xs text-slate-600">
                    <LocalTime ms={b.createdAt} compact />
                    {b.launchedByEmail ? <span className="block text-slate-500">by {b.launchedByEmail}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
