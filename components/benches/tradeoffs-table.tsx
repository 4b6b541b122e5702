/**
 * Cost and latency beside the pass-rate difference (issue #16 §4): per candidate against the
 * baseline, over paired cases, each difference with its 95 % interval, and the gate limits it
 * exceeds. Server-rendered; renders nothing when no candidate was compared with a baseline.
 */
import type { BenchDetail } from "@/db/queries/benches";
import type { Recommendation } from "@/lib/bench/recommend";
import type { CandidateEvidence } from "@/server/bench/comparisons";
import { formatCi, formatPoints } from "@/lib/bench/evidence/format";
import { tradeoffCells } from "@/lib/bench/evidence/tradeoff-format";
import { Badge } from "@/components/ui/badge";

/** One row per candidate compared with the baseline. */
export function TradeoffsTable({ bench, evidence, rec }: { bench: BenchDetail; evidence: CandidateEvidence[] | null; rec: Recommendation | null }) {
  const rows = (evidence ?? []).flatMap((e) => {
    const cmp = e.comparisons.find((x) => x.against === "baseline");
    const c = bench.candidates.find((x) => x.id === e.candidateId);
    return cmp && c ? [{ id: c.id, label: c.label, cmp, limits: rec?.candidates.find((v) => v.candidateId === c.id)?.limitBlockers ?? [] }] : [];
  });
  if (rows.length === 0) return null;
  const gate = bench.settings.gate;
  const anyFigure = rows.some((r) => r.cmp.tradeoffs?.costPerCase || r.cmp.tradeoffs?.latencyP50);
  return (
    <section aria-label="Trade-offs vs baseline" className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
          <tr>
            <th className="px-3 py-2 font-medium">vs baseline {rows[0].cmp.againstCandidate}</th>
            <th className="px-3 py-2 font-medium">Pass rate Δ points</th>
            <th className="px-3 py-2 font-medium" title="Mean of the per-case differences (a case: the mean over its trials), Student's t interval">
              Cost per case Δ
            </th>
            <th className="px-3 py-2 font-medium" title="Difference of the medians of per-case latency; seeded bootstrap interval over cases">
              Latency p50 Δ
            </th>
            <th className="px-3 py-2 font-medium" title="Difference of the 95th percentiles of per-case latency; seeded bootstrap interval over cases">
              Latency p95 Δ
            </th>
            {gate ? <th className="px-3 py-2 font-medium">Gate limits</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const t = tradeoffCells(r.cmp.tradeoffs);
            return (
              <tr key={r.id} className="border-b border-slate-100 last:border-0" data-testid="tradeoff-row">
                <td className="px-3 py-2 font-medium">{r.label}</td>
                <td className="px-3 py-2 tabular-nums">
                  {r.cmp.delta === null ? "—" : formatPoints(r.cmp.delta)}
                  {r.cmp.ci95 ? <span className="block text-xs text-slate-500">{formatCi(r.cmp.ci95)}</span> : null}
                </td>
                <td className="px-3 py-2 text-xs tabular-nums">{t.cost}</td>
                <td className="px-3 py-2 text-xs tabular-nums">{t.p50}</td>
                <td className="px-3 py-2 text-xs tabular-nums">{t.p95}</td>
                {gate ? (
                  <td className="px-3 py-2 text-xs" data-testid="gate-limits">
                    {r.limits.length ? (
                      r.limits.map((l) => (
                        <Badge key={l} tone="red">
                          {l}
                        </Badge>
                      ))
                    ) : r.cmp.tradeoffs?.costPerCase || r.cmp.tradeoffs?.latencyP95 ? (
                      <span className="text-emerald-700">within</span>
                    ) : (
                      <span className="text-slate-500">not measured</span>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {anyFigure ? null : (
        <p className="border-t border-slate-100 px-3 py-2 text-xs text-slate-500">
          No cost or latency to compare (recorded outputs are read, not timed or priced; or fewer than 2 paired cases).
        </p>
      )}
    </section>
  );
}
