import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { getBench } from "@/db/queries/benches";
import { matrixRows } from "@/db/queries/bench-matrix";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Pager } from "@/components/library/pager";
import { statsOf } from "@/lib/bench/aggregate";
import { findRegressions } from "@/lib/bench/recommend";
import { candidateCheckOutcomes } from "@/db/queries/bench-results";
import { compareBenches, type CompareVerdict, type VerdictChange } from "@/lib/bench/compare";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Compare benches" };

type Raw = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const TONE: Record<string, BadgeTone> = {
  passed: "green",
  failed: "red",
  mixed: "amber",
  unscored: "slate",
  error: "amber",
  skipped: "slate",
  pending: "sky",
  absent: "slate",
};

const PAGE_SIZE = 100;
const ROW_TINT: Record<VerdictChange, string> = { regressed: "bg-red-50/60", fixed: "bg-emerald-50/60", changed: "bg-amber-50/60", same: "" };
/** What the table lists: every case, or only one kind of change. */
const SHOW: { key: string; label: string; keeps: (c: VerdictChange) => boolean }[] = [
  { key: "all", label: "All", keeps: () => true },
  { key: "changed", label: "Changed", keeps: (c) => c !== "same" },
  { key: "regressed", label: "Regressed", keeps: (c) => c === "regressed" },
  { key: "fixed", label: "Fixed", keeps: (c) => c === "fixed" },
];
const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
const points = (d: number) => `${d > 0 ? "+" : d < 0 ? "−" : "±"}${Math.abs(d * 100).toFixed(1)} points`;

/** A verdict badge that opens the trial it comes from, when there is one. */
function VerdictLink({ verdict, href, label }: { verdict: CompareVerdict; href: string | null; label: string }) {
  const badge = <Badge tone={TONE[verdict]}>{verdict}</Badge>;
  return href ? (
    <Link href={href} aria-label={`Open the trial of ${label}: ${verdict}`} className="inline-flex hover:opacity-80">
      {badge}
    </Link>
  ) : (
    badge
  );
}

/** Two benches of the same prompt, case by case: regressions first, then fixes and other changes. */
export default async function ComparePage({ params, searchParams }: { params: Promise<{ systemId: string }>; searchParams: Promise<Raw> }) {
  const { systemId } = await params;
  const sp = await searchParams;
  const db = getDb();
  const [a, b] = await Promise.all([getBench(db, Number(one(sp.a))), getBench(db, Number(one(sp.b)))]);
  const back = `/systems/${systemId}/benches`;
  if (!a || !b || a.systemId !== systemId || b.systemId !== systemId) {
    return (
      <p className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
        Pick two benches of this system to compare (
        <Link href={back} className="underline">
          history
        </Link>
        ).
      </p>
    );
  }
  if (a.id === b.id) {
    return (
      <p className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
        Pick two different benches to compare (
        <Link href={back} className="underline">
          history
        </Link>
        ).
      </p>
    );
  }
  if (a.promptId !== b.promptId) {
    return (
      <p className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
        Bench #{a.id} is for prompt {a.promptName} and #{b.id} for {b.promptName}: only benches of the same prompt can be compared case by case.
      </p>
    );
  }
  const pick = (x: NonNullable<typeof a>, param: string) => {
    const wanted = Number(one(sp[param]));
    return (
      x.candidates.find((c) => c.id === wanted) ??
      x.candidates.find((c) => c.id === x.recommendation?.recommendedCandidateId) ??
      x.candidates.find((c) => c.id === x.summary?.baselineCandidateId) ??
      x.candidates[0]
    );
  };
  const ca = pick(a, "ca");
  const cb = pick(b, "cb");
  // Check-level regressions, as the bench page counts them: a check that passed before and fails now.
  const regressed = new Map<string, string[]>();
  for (const r of findRegressions(await candidateCheckOutcomes(db, a.id, ca.id), await candidateCheckOutcomes(db, b.id, cb.id), "last bench")) {
    regressed.set(r.caseKey, [...(regressed.get(r.caseKey) ?? []), r.label]);
  }
  const { lines, counts } = compareBenches(await matrixRows(db, a.id), await matrixRows(db, b.id), ca.id, cb.id, regressed);
  const show = SHOW.find((x) => x.key === one(sp.show)) ?? SHOW[0];
  const shown = lines.filter((l) => show.keeps(l.change));
  const pageCount = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const page = Math.min(pageCount, Math.max(1, Math.floor(Number(one(sp.page)) || 1)));
  const [rateA, rateB] = [statsOf(a.summary, ca.id)?.passRate.rate ?? null, statsOf(b.summary, cb.id)?.passRate.rate ?? null];
  const link = (q: Record<string, string | number | undefined>) => {
    const all: Record<string, string | number | undefined> = { a: a.id, b: b.id, ca: ca.id, cb: cb.id, show: show.key === "all" ? undefined : show.key, ...q };
    return `?${new URLSearchParams(Object.entries(all).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])))}`;
  };
  const onlyA = lines.filter((l) => l.after === "absent").length;
  const onlyB = lines.filter((l) => l.before === "absent").length;
  const running = [a, b].filter((x) => x.status === "queued" || x.status === "running");
  const trialHref = (benchId: number, trialId: number | null) => (trialId === null ? null : `${back}/${benchId}?trial=${trialId}#trial`);
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
              const s = statsOf(x.summary, c.id);
              return (
                <p className="mt-1 text-xs text-slate-600">
                  {s ? `${s.passRate.rate === null ? "nothing scored" : `${pct(s.passRate.rate)} of ${s.passRate.scored} scored checks`} · ` : ""}
                  {x.status}
                </p>
              );
            })()}
          </div>
        ))}
      </div>
      {ca.label !== cb.label ? (
        <p role="note" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
          This compares two different candidates: {ca.label} in #{a.id} and {cb.label} in #{b.id} (by default each bench&apos;s recommended one, else its
          baseline). Pick the same candidate in both to see what changed between the benches alone.
        </p>
      ) : null}
      {running.length ? (
        <p role="status" className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900">
          {running.map((x) => `Bench #${x.id}`).join(" and ")} {running.length > 1 ? "are" : "is"} still running: cases it has not finished show as pending and
          count as other changes.{" "}
          <Link href={link({})} className="font-medium underline">
            Reload
          </Link>{" "}
          to see the latest.
        </p>
      ) : null}
      {onlyA || onlyB ? (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          The benches did not run the same cases: {onlyA} only in #{a.id}, {onlyB} only in #{b.id} (shown as absent, counted as other changes). Each pass rate
          is over its own bench&apos;s cases.
        </p>
      ) : null}
      <section aria-label="Comparison" className="rounded-lg border border-slate-200 bg-white">
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2.5 text-sm text-slate-700">
          <p data-testid="compare-summary">
            {rateA !== null && rateB !== null ? (
              <>
                Pass rate {pct(rateA)} → {pct(rateB)}{" "}
                <span className={rateB < rateA ? "font-medium text-red-700" : rateB > rateA ? "font-medium text-emerald-700" : ""}>
                  ({points(rateB - rateA)})
                </span>{" "}
                ·{" "}
              </>
            ) : null}
            <span className={counts.regressed ? "font-medium text-red-700" : ""}>{counts.regressed} regressed</span> ·{" "}
            <span className={counts.fixed ? "font-medium text-emerald-700" : ""}>{counts.fixed} fixed</span> · {counts.changed} other changes · {counts.same}{" "}
            unchanged
          </p>
          <nav aria-label="Show" className="flex items-center gap-1 text-xs">
            {SHOW.map((x) => (
              <Link
                key={x.key}
                href={link({ show: x.key === "all" ? undefined : x.key, page: undefined })}
                aria-current={x.key === show.key ? "true" : undefined}
                className={`rounded px-1.5 py-0.5 ${x.key === show.key ? "bg-slate-200 font-medium text-slate-900" : "text-slate-600 hover:bg-slate-100"}`}
              >
                {x.label}
              </Link>
            ))}
          </nav>
        </div>
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-xs text-slate-600">
            <tr>
              <th className="px-3 py-2 font-medium">Case</th>
              <th className="px-3 py-2 font-medium">#{a.id}</th>
              <th className="px-3 py-2 font-medium">#{b.id}</th>
              <th className="px-3 py-2 font-medium">Change</th>
            </tr>
          </thead>
          <tbody>
            {shown.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((l) => (
              <tr key={l.caseKey} className={`border-t border-slate-100 ${ROW_TINT[l.change]}`} data-testid="compare-row">
                <td className="px-3 py-1.5">
                  <code className="text-xs">{l.caseKey}</code>
                  {l.revisionChanged ? <span className="ml-2 text-xs text-slate-500">(case revised between the benches)</span> : null}
                </td>
                <td className="px-3 py-1.5">
                  <VerdictLink verdict={l.before} href={trialHref(a.id, l.beforeTrialId)} label={`${l.caseKey} in bench #${a.id}`} />
                </td>
                <td className="px-3 py-1.5">
                  <VerdictLink verdict={l.after} href={trialHref(b.id, l.afterTrialId)} label={`${l.caseKey} in bench #${b.id}`} />
                </td>
                <td className="px-3 py-1.5 text-xs text-slate-600">
                  {l.change === "same" ? "" : l.change}
                  {l.regressedChecks.length ? <span className="block text-red-800">now fails: {l.regressedChecks.join("; ")}</span> : null}
                </td>
              </tr>
            ))}
            {shown.length === 0 ? (
              <tr>
                <td colSpan={4} className="px-3 py-6 text-center text-sm text-slate-500">
                  No case is {show.label.toLowerCase()} between these benches.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
        <Pager page={page} pageCount={pageCount} total={shown.length} pageSize={PAGE_SIZE} hrefFor={(n) => link({ page: n })} />
      </section>
    </div>
  );
}
