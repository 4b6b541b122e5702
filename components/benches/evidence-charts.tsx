/**
 * The evidence as pictures (issue #16 §5), plain server-rendered SVG (no script, so the nonce CSP
 * needs nothing): each candidate's case pass rate with its Wilson 95 % interval, and a forest plot
 * of every paired comparison — the difference in points with its 95 % interval around a zero line.
 * Each figure carries a text alternative; the numbers are also in the tables below.
 */
import type { BenchDetail } from "@/db/queries/benches";
import type { CandidateEvidence } from "@/server/bench/comparisons";
import { formatCi, formatPercent, formatPoints } from "@/lib/bench/evidence/format";
import { differenceAxis, linearScale } from "@/lib/bench/evidence/scale";
import type { ComparisonVerdict } from "@/lib/bench/stats/paired";

const W = 640;
const LABEL_END = 230;
const PLOT: [number, number] = [LABEL_END + 12, W - 84];
const ROW = 30;
const TOP = 10;
const AXIS = 26;
const VERDICT_COLOR: Record<ComparisonVerdict, string> = { better: "#059669", worse: "#dc2626", inconclusive: "#64748b" };

/** A label cut to fit the label column (the whole one is in the row's title). */
const fit = (s: string, max = 34) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Pass rates (dots) with their Wilson 95 % intervals (bars), 0–100 %. */
export function PassRateChart({ bench, evidence }: { bench: BenchDetail; evidence: CandidateEvidence[] }) {
  const rows = bench.candidates.flatMap((c) => {
    const r = evidence.find((e) => e.candidateId === c.id)?.rates.trialPassRate;
    return r && r.rate !== null && r.ci95
      ? [{ label: c.label + (c.id === bench.summary?.baselineCandidateId ? " (baseline)" : ""), rate: r.rate, ci: r.ci95 }]
      : [];
  });
  if (rows.length === 0) return null;
  // With repeats the interval is a cluster interval over cases (lib/bench/stats/candidate-rates.ts): say so.
  const repeated = evidence.some((e) => e.rates.passAt !== null);
  const x = linearScale([0, 1], PLOT);
  const h = TOP + rows.length * ROW + AXIS;
  const alt = `Case pass rate with 95 % interval: ${rows.map((r) => `${r.label} ${formatPercent(r.rate)} (${(r.ci[0] * 100).toFixed(1)}–${(r.ci[1] * 100).toFixed(1)})`).join("; ")}`;
  return (
    <figure className="min-w-0">
      <figcaption className="text-xs font-medium text-slate-700">
        Case pass rate · 95 % interval
        {repeated ? <span className="font-normal text-slate-500"> (over cases: repeats of a case are not independent)</span> : null}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${h}`} className="mt-1 w-full" role="img" aria-label={alt} data-testid="pass-rate-chart" fontSize="12" fontFamily="inherit">
        {[0, 0.25, 0.5, 0.75, 1].map((t) => (
          <g key={t}>
            <line x1={x(t)} x2={x(t)} y1={TOP - 4} y2={h - AXIS + 4} stroke="#e2e8f0" />
            <text x={x(t)} y={h - 8} textAnchor="middle" fill="#64748b">
              {t * 100}%
            </text>
          </g>
        ))}
        {rows.map((r, i) => {
          const y = TOP + i * ROW + ROW / 2;
          return (
            <g key={r.label} data-testid="pass-rate-mark">
              <title>{`${r.label}: ${formatPercent(r.rate)}, 95 % CI ${(r.ci[0] * 100).toFixed(1)}–${(r.ci[1] * 100).toFixed(1)}`}</title>
              <text x={LABEL_END} y={y + 4} textAnchor="end" fill="#0f172a">
                {fit(r.label)}
              </text>
              <rect x={x(r.ci[0])} y={y - 5} width={Math.max(1, x(r.ci[1]) - x(r.ci[0]))} height={10} rx={3} fill="#c7d2fe" />
              <circle cx={x(r.rate)} cy={y} r={4.5} fill="#4338ca" />
              <text x={PLOT[1] + 10} y={y + 4} fill="#334155">
                {formatPercent(r.rate)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** The forest plot: every comparison's difference (points) with its 95 % interval, and the zero line. */
export function ForestPlot({ bench, evidence }: { bench: BenchDetail; evidence: CandidateEvidence[] }) {
  const rows = bench.candidates.flatMap((c) =>
    (evidence.find((e) => e.candidateId === c.id)?.comparisons ?? []).flatMap((cmp) =>
      cmp.delta !== null && cmp.ci95
        ? [
            {
              label: `${c.label} vs ${cmp.against === "baseline" ? cmp.againstCandidate : `last bench (${cmp.againstCandidate})`}`,
              short: cmp.against === "baseline" ? c.label : `${c.label} vs last`,
              delta: cmp.delta,
              ci: cmp.ci95,
              verdict: cmp.verdict,
            },
          ]
        : [],
    ),
  );
  if (rows.length === 0) return null;
  const baseline = bench.candidates.find((c) => c.id === bench.summary?.baselineCandidateId)?.label;
  const { domain, ticks } = differenceAxis(rows.flatMap((r) => [r.ci[0], r.ci[1], r.delta]));
  const x = linearScale(domain, PLOT);
  const h = TOP + rows.length * ROW + AXIS;
  const alt = `Difference in case pass rate, points, with 95 % interval: ${rows.map((r) => `${r.label} ${formatPoints(r.delta)} (${formatCi(r.ci)}, ${r.verdict})`).join("; ")}`;
  return (
    <figure className="min-w-0">
      <figcaption className="text-xs font-medium text-slate-700">
        Difference in case pass rate (points){baseline ? ` vs baseline ${baseline}` : ""}
        {rows.some((r) => r.short.endsWith(" vs last")) ? `${baseline ? " and" : " vs"} the last bench (“vs last”)` : ""} · 95 % interval
      </figcaption>
      <svg viewBox={`0 0 ${W} ${h}`} className="mt-1 w-full" role="img" aria-label={alt} data-testid="forest-plot" fontSize="12" fontFamily="inherit">
        {ticks.map((t) => (
          <g key={t}>
            <line
              x1={x(t)}
              x2={x(t)}
              y1={TOP - 4}
              y2={h - AXIS + 4}
              stroke={t === 0 ? "#334155" : "#e2e8f0"}
              strokeDasharray={t === 0 ? "4 3" : undefined}
              data-testid={t === 0 ? "zero-line" : undefined}
            />
            <text x={x(t)} y={h - 8} textAnchor="middle" fill="#64748b">
              {formatPoints(t).replace(".0", "")}
            </text>
          </g>
        ))}
        {rows.map((r, i) => {
          const y = TOP + i * ROW + ROW / 2;
          const color = VERDICT_COLOR[r.verdict];
          return (
            <g key={r.label} data-testid="forest-row">
              <title>{`${r.label}: ${formatPoints(r.delta)} points, ${formatCi(r.ci)} — ${r.verdict}`}</title>
              <text x={LABEL_END} y={y + 4} textAnchor="end" fill="#0f172a">
                {fit(r.short)}
              </text>
              <line x1={x(r.ci[0])} x2={x(r.ci[1])} y1={y} y2={y} stroke={color} strokeWidth={2.5} strokeLinecap="round" />
              <rect x={x(r.delta) - 5} y={y - 5} width={10} height={10} fill={color} />
              <text x={PLOT[1] + 10} y={y + 4} fill={color}>
                {formatPoints(r.delta)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** Both charts side by side (stacked on narrow screens), or nothing when there is nothing to draw. */
export function EvidenceCharts({ bench, evidence }: { bench: BenchDetail; evidence: CandidateEvidence[] | null }) {
  if (!evidence || evidence.length === 0) return null;
  return (
    <section aria-label="Evidence charts" className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 lg:grid-cols-2">
      <PassRateChart bench={bench} evidence={evidence} />
      <ForestPlot bench={bench} evidence={evidence} />
      <p className="text-xs text-slate-500 lg:col-span-2">
        Squares left of the dashed zero line: the candidate passes fewer cases. Green: better, red: worse, grey: inconclusive (the interval crosses zero or the
        test is not significant).
      </p>
    </section>
  );
}
