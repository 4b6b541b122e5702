import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { getBench } from "@/db/queries/benches";
import { matrixRows } from "@/db/queries/bench-matrix";
import { Badge, type BadgeTone } from "@/components/ui/badge";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Compare benches" };

type Raw = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const TONE: Record<string, BadgeTone> = { passed: "green", failed: "red", mixed: "amber", unscored: "slate", error: "amber", skipped: "slate", pending: "sky", absent: "slate" };

/** Two benches of the same prompt, case by case: changed verdicts first. */
export default async function ComparePage({ params, searchParams }: { params: Promise<{ systemId: string }>; searchParams: Promise<Raw> }) {
  const { systemId } = await params;
  const sp = await searchParams;
  const db = getDb();
  const [a, b] = await Promise.all([getBench(db, Number(one(sp.a))), getBench(db, Number(one(sp.b)))]);
  const back = `/systems/${systemId}/benches`;
  if (!a || !b || a.systemId !== systemId || b.systemId !== systemId) {
    return <p className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">Pick two benches of this system to compare (<Link href={back} className="underline">history</Link>).</p>;
  }
  if (a.id === b.id) {
    return <p className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">Pick two different benches to compare (<Link href={back} className="underline">history</Link>).</p>;
  }
  if (a.promptId !== b.promptId) {
    return <p className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">Bench #{a.id} is for prompt {a.promptName} and #{b.id} for {b.promptName}: only benches of the same prompt can be compared case by case.</p>;
  }
  const pick = (x: NonNullable<typeof a>, param: string) => {
    const wanted = Number(one(sp[param]));
    return x.candidates.find((c) => c.id === wanted) ?? x.candidates.find((c) => c.id === x.recommendation?.recommendedCandidateId) ?? x.candidates.find((c) => c.id === x.summary?.baselineCandidateId) ?? x.candidates[0];
  };
  const ca = pick(a, "ca");
  const cb = pick(b, "cb");
  const rowsA = new Map(matrixRows(db, a.id).map((r) => [r.caseKey, r]));
  const rowsB = new Map(matrixRows(db, b.id).map((r) => [r.caseKey, r]));
  const keys = [...new Set([...rowsA.keys(), ...rowsB.keys()])];
  const norm = (v: string) => (v === "mixed" ? "failed" : v);
  const lines = keys.map((k) => {
    const ra = rowsA.get(k);
    const rb = rowsB.get(k);
    const va = ra?.cells[ca.id]?.verdict ?? "absent";
    const vb = rb?.cells[cb.id]?.verdict ?? "absent";
    return { key: k, va, vb, changed: norm(va) !== norm(vb), revisionChanged: Boolean(ra && rb && ra.caseRevisionId !== rb.caseRevisionId) };
  });
  lines.sort((x, y) => Number(y.changed) - Number(x.changed) || x.key.localeCompare(y.key));
  const changed = lines.filter((l) => l.changed).length;
  const link = (q: Record<string, string | number>) => `?${new URLSearchParams({ a: String(a.id), b: String(b.id), ca: String(ca.id), cb: String(cb.id), ...Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])) })}`;
  return (
    <div className="flex flex-col gap-4">
      <nav className="text-xs text-slate-500">
        <Link href={back} className="hover:text-slate-800">
          Benches
        </Link>{" "}
        / compare #{a.id} and #{b.id}
      </nav>
      <div className="grid gap-3 sm:grid-cols-2">
        {[
          { x: a, c: ca, param: "ca" },
          { x: b, c: cb, param: "cb" },
        ].map(({ x, c, param }) => (
          <div key={x.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
            <Link href={`${back}/${x.id}`} className="font-medium text-indigo-700 hover:underline">
              #{x.id} {x.title}
            </Link>
            <p className="mt-1 flex flex-wrap items-center gap-1.5 text-xs">
              Candidate:
              {x.candidates.map((k) =>
                k.id === c.id ? (
                  <span key={k.id} className="rounded bg-indigo-600 px-1.5 py-0.5 font-medium text-white">
                    {k.label}
                  </span>
                ) : (
                  <Link key={k.id} href={link({ [param]: k.id })} className="rounded px-1.5 py-0.5 text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50">
                    {k.label}
                  </Link>
                ),
              )}
            </p>
            {(() => {
              const s = x.summary?.candidates.find((y) => y.candidateId === c.id)?.stats;
              return s ? (
                <p className="mt-1 text-xs text-slate-600">
                  {s.passRate.rate === null ? "nothing scored" : `${(s.passRate.rate * 100).toFixed(1)}% of ${s.passRate.scored} scored checks`} · {x.status}
                </p>
              ) : null;
            })()}
          </div>
        ))}
      </div>
      <section aria-label="Comparison" className="rounded-lg border border-slate-200 bg-white">
        <p className="border-b border-slate-200 px-4 py-2.5 text-sm text-slate-700">
          {changed} of {lines.length} cases changed verdict (listed first).
        </p>
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-xs text-slate-600">
            <tr>
              <th className="px-3 py-2 font-medium">Case</th>
              <th className="px-3 py-2 font-medium">#{a.id}</th>
              <th className="px-3 py-2 font-medium">#{b.id}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr key={l.key} className={`border-t border-slate-100 ${l.changed ? "bg-amber-50/60" : ""}`} data-testid="compare-row">
                <td className="px-3 py-1.5">
                  <code className="text-xs">{l.key}</code>
                  {l.revisionChanged ? <span className="ml-2 text-xs text-slate-500">(case revised between the benches)</span> : null}
                </td>
                <td className="px-3 py-1.5">
                  <Badge tone={TONE[l.va]}>{l.va}</Badge>
                </td>
                <td className="px-3 py-1.5">
                  <Badge tone={TONE[l.vb]}>{l.vb}</Badge>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
