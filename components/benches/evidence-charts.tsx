/**
 * The evidence as pictures (issue #16 §5), drawn with visx and rendered on the server (static SVG,
 * no client script, so the nonce CSP needs nothing): each candidate's case pass rate with its Wilson
 * 95 % interval, and a forest plot of every paired comparison — the difference in points with its
 * 95 % interval around a dashed zero line. Each chart is a grid: the label column is HTML sized to
 * its text (up to 45 % of the width, then it wraps) so a long candidate label is read whole; each
 * row's marks are an SVG strip; the value is text. Each chart carries a text alternative; the
 * numbers are also in the tables below.
 */
import type { ReactNode } from "react";
import { Group } from "@visx/group";
import { scaleLinear } from "@visx/scale";
import { Bar, Circle, Line } from "@visx/shape";
import type { BenchDetail } from "@/db/queries/benches";
import type { CandidateEvidence } from "@/server/bench/comparisons";
import { formatCi, formatPercent, formatPoints } from "@/lib/bench/evidence/format";
import type { ComparisonVerdict } from "@/lib/bench/stats/paired";

/** The strips' drawing width (SVG units; each strip is scaled to its column's width). */
const W = 320;
/** Room left and right of the axis so its end labels are not cut. */
const PAD = 18;
const ROW = 22;
const VERDICT_COLOR: Record<ComparisonVerdict, string> = { better: "#059669", worse: "#dc2626", inconclusive: "#64748b" };

type Scale = ReturnType<typeof scaleLinear<number>>;

/** One chart row: a label read whole, its marks and its value. */
interface ChartRow {
  label: string;
  /** The hover text of the row's marks. */
  title: string;
  marks: ReactNode;
  value: ReactNode;
  testId: string;
}

/** Where `t` falls across the strip, as a CSS percentage (the background lines span the row's whole height). */
const pct = (x: Scale, t: number) => `${((x(t) / W) * 100).toFixed(3)}%`;

/**
 * A chart of intervals on one axis: label column (wraps), marks, value; grid lines behind every row
 * (the dashed one at `zeroAt`) and the axis under them.
 */
function IntervalChart(props: { rows: ChartRow[]; x: Scale; ticks: number[]; tickLabel: (t: number) => string; zeroAt?: number; alt: string; testId: string }) {
  const { rows, x, ticks, tickLabel, zeroAt, alt, testId } = props;
  const gridLines = (
    <svg aria-hidden className="absolute inset-0 h-full w-full overflow-visible">
      {ticks.map((t) => (
        <line
          key={t}
          x1={pct(x, t)}
          x2={pct(x, t)}
          y1="0"
          y2="100%"
          stroke={t === zeroAt ? "#334155" : "#e2e8f0"}
          strokeDasharray={t === zeroAt ? "4 3" : undefined}
          data-testid={t === zeroAt ? "zero-line" : undefined}
        />
      ))}
    </svg>
  );
  return (
    <div role="img" aria-label={alt} data-testid={testId} className="mt-1 grid grid-cols-[fit-content(45%)_minmax(0,1fr)_auto] items-stretch gap-x-3 text-xs">
      {rows.map((r) => (
        <div key={r.label} className="contents" data-testid={r.testId}>
          <span data-testid="chart-label" className="self-center py-1 leading-snug text-slate-900 wrap-anywhere">
            {r.label}
          </span>
          <div className="relative flex min-h-[22px] items-center">
            {gridLines}
            <svg aria-hidden viewBox={`0 0 ${W} ${ROW}`} className="relative block w-full overflow-visible">
              <title>{r.title}</title>
              <Group top={ROW / 2}>{r.marks}</Group>
            </svg>
          </div>
          <span className="self-center text-right tabular-nums">{r.value}</span>
        </div>
      ))}
      <span />
      {/* The axis in percent of the strip, like the grid lines, so its labels keep their size at any width. */}
      <svg aria-hidden className="block h-6 w-full overflow-visible" fontSize="11" fontFamily="inherit">
        <line x1={pct(x, x.domain()[0])} x2={pct(x, x.domain()[1])} y1="0.5" y2="0.5" stroke="#cbd5e1" />
        {ticks.map((t) => (
          <g key={t}>
            <line x1={pct(x, t)} x2={pct(x, t)} y1="0" y2="4" stroke="#cbd5e1" />
            <text x={pct(x, t)} y="17" textAnchor="middle" fill="#64748b">
              {tickLabel(t)}
            </text>
          </g>
        ))}
      </svg>
      <span />
    </div>
  );
}

/** Pass rates (dots) with their Wilson 95 % intervals (bars), 0–100 %. */
export function PassRateChart({ bench, evidence }: { bench: BenchDetail; evidence: CandidateEvidence[] }) {
  const data = bench.candidates.flatMap((c) => {
    const r = evidence.find((e) => e.candidateId === c.id)?.rates.trialPassRate;
    return r && r.rate !== null && r.ci95
      ? [{ label: c.label + (c.id === bench.summary?.baselineCandidateId ? " (baseline)" : ""), rate: r.rate, ci: r.ci95 }]
      : [];
  });
  if (data.length === 0) return null;
  // With repeats the interval is a cluster interval over cases (lib/bench/stats/candidate-rates.ts): say so.
  const repeated = evidence.some((e) => e.rates.passAt !== null);
  const x = scaleLinear<number>({ domain: [0, 1], range: [PAD, W - PAD] });
  const ci = (c: [number, number]) => `${(c[0] * 100).toFixed(1)}–${(c[1] * 100).toFixed(1)}`;
  const alt = `Case pass rate with 95 % interval: ${data.map((r) => `${r.label} ${formatPercent(r.rate)} (${ci(r.ci)})`).join("; ")}`;
  const rows: ChartRow[] = data.map((r) => ({
    label: r.label,
    title: `${r.label}: ${formatPercent(r.rate)}, 95 % CI ${ci(r.ci)}`,
    testId: "pass-rate-mark",
    marks: (
      <>
        <Bar x={x(r.ci[0])} y={-5} width={Math.max(1, x(r.ci[1]) - x(r.ci[0]))} height={10} rx={3} fill="#c7d2fe" />
        <Circle cx={x(r.rate)} cy={0} r={4.5} fill="#4338ca" />
      </>
    ),
    value: <span className="text-slate-700">{formatPercent(r.rate)}</span>,
  }));
  return (
    <figure className="min-w-0">
      <figcaption className="text-xs font-medium text-slate-700">
        Case pass rate · 95 % interval
        {repeated ? <span className="font-normal text-slate-500"> (over cases: repeats of a case are not independent)</span> : null}
      </figcaption>
      <IntervalChart rows={rows} x={x} ticks={[0, 0.25, 0.5, 0.75, 1]} tickLabel={(t) => `${t * 100}%`} alt={alt} testId="pass-rate-chart" />
    </figure>
  );
}

/** The forest plot: every comparison's difference (points) with its 95 % interval, and the zero line. */
export function ForestPlot({ bench, evidence }: { bench: BenchDetail; evidence: CandidateEvidence[] }) {
  const data = bench.candidates.flatMap((c) =>
    (evidence.find((e) => e.candidateId === c.id)?.comparisons ?? []).flatMap((cmp) =>
      cmp.delta !== null && cmp.ci95
        ? [
            {
              label: `${c.label} vs ${cmp.against === "baseline" ? cmp.againstCandidate : `last bench #${cmp.againstBenchId} (${cmp.againstCandidate})`}`,
              last: cmp.against === "last",
              delta: cmp.delta,
              ci: cmp.ci95,
              verdict: cmp.verdict,
            },
          ]
        : [],
    ),
  );
  if (data.length === 0) return null;
  const baseline = bench.candidates.find((c) => c.id === bench.summary?.baselineCandidateId)?.label;
  // The axis covers every interval and 0 on round ticks (d3's nice), at least ±5 points.
  const ends = data.flatMap((r) => [r.ci[0], r.ci[1], r.delta]).filter(Number.isFinite);
  const lo = Math.min(0, ...ends);
  const hi = Math.max(0, ...ends);
  const widen = hi - lo < 0.02 ? 0.05 : 0;
  const x = scaleLinear<number>({ domain: [Math.max(-1, lo - widen), Math.min(1, hi + widen)], range: [PAD, W - PAD], nice: 6 });
  const ticks = x.ticks(6).map((t) => (Object.is(t, -0) ? 0 : t));
  const alt = `Difference in case pass rate, points, with 95 % interval: ${data.map((r) => `${r.label} ${formatPoints(r.delta)} (${formatCi(r.ci)}, ${r.verdict})`).join("; ")}`;
  const rows: ChartRow[] = data.map((r) => {
    const color = VERDICT_COLOR[r.verdict];
    return {
      label: r.label,
      title: `${r.label}: ${formatPoints(r.delta)} points, ${formatCi(r.ci)} — ${r.verdict}`,
      testId: "forest-row",
      marks: (
        <>
          <Line from={{ x: x(r.ci[0]), y: 0 }} to={{ x: x(r.ci[1]), y: 0 }} stroke={color} strokeWidth={2.5} strokeLinecap="round" />
          <Bar x={x(r.delta) - 5} y={-5} width={10} height={10} fill={color} data-testid="forest-mark" />
        </>
      ),
      value: <span style={{ color }}>{formatPoints(r.delta)}</span>,
    };
  });
  return (
    <figure className="min-w-0">
      <figcaption className="text-xs font-medium text-slate-700">
        Difference in case pass rate (points){baseline ? ` vs baseline ${baseline}` : ""}
        {data.some((r) => r.last) ? `${baseline ? " and" : " vs"} the last bench` : ""} · 95 % interval
      </figcaption>
      <IntervalChart rows={rows} x={x} ticks={ticks} tickLabel={(t) => formatPoints(t).replace(".0", "")} zeroAt={0} alt={alt} testId="forest-plot" />
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
