/**
 * How cost and latency trade-offs are written for people (page, CLI, pull-request comment), issue
 * #16 §4: "+$0.0008 (95 % CI +$0.0006 to +$0.0009) · +45 %", "+180 ms (95 % CI +170 to +330) · +24 %".
 */
import type { TradeoffDifference, Tradeoffs } from "@/lib/bench/stats/tradeoffs";
import { markdownCell } from "./markdown-text";

const MINUS = "\u2212";
const sign = (v: number, s: string) => (s.replace(/[^1-9]/g, "") === "" ? s : `${v < 0 ? MINUS : "+"}${s}`);

/** A signed amount in USD, 2 significant digits below a cent: −$0.00012, +$1.25, $0.00 for zero. */
export function formatUsdDelta(v: number): string {
  const a = Math.abs(v);
  const body = a === 0 ? "0.00" : a < 0.01 ? a.toPrecision(2) : a.toFixed(2);
  return sign(v, `$${body}`);
}

/** A signed duration in ms, whole: +180 ms, −1,200 ms. */
export function formatMsDelta(v: number): string {
  return sign(v, `${Math.round(Math.abs(v)).toLocaleString("en-US")} ms`);
}

/** A relative change as whole percent: 0.34 → "+34 %", null → "". */
export function formatRelative(r: number | null): string {
  if (r === null) return "";
  return sign(r, `${Math.round(Math.abs(r) * 100)} %`);
}

/** One difference with its interval and relative change. */
export function formatTradeoff(d: TradeoffDifference, unit: "usd" | "ms"): string {
  const f = unit === "usd" ? formatUsdDelta : formatMsDelta;
  const rel = formatRelative(d.relative);
  return `${f(d.delta)} (95 % CI ${f(d.ci95[0])} to ${f(d.ci95[1])})${rel ? ` · ${rel}` : ""}`;
}

/** The three figures of a candidate, each "—" when it could not be computed. */
export function tradeoffCells(t: Tradeoffs | null | undefined): { cost: string; p50: string; p95: string } {
  return {
    cost: t?.costPerCase ? formatTradeoff(t.costPerCase, "usd") : "—",
    p50: t?.latencyP50 ? formatTradeoff(t.latencyP50, "ms") : "—",
    p95: t?.latencyP95 ? formatTradeoff(t.latencyP95, "ms") : "—",
  };
}

/**
 * The Markdown section of the pull-request comment: one row per candidate compared with the
 * baseline, then the gate limits that block. Empty string when no candidate has a figure.
 * @param rows candidate label (already free of line breaks), its trade-offs and the gate limits it exceeds
 */
export function tradeoffsMarkdown(rows: { label: string; tradeoffs: Tradeoffs | null | undefined; limitBlockers: readonly string[] }[]): string {
  const shown = rows.filter((r) => r.tradeoffs && (r.tradeoffs.costPerCase || r.tradeoffs.latencyP50));
  if (shown.length === 0) return "";
  const cell = markdownCell;
  const out = [
    "",
    "#### Cost and latency vs the baseline (paired cases)",
    "",
    "| Candidate | Cost per case Δ | Latency p50 Δ | Latency p95 Δ | Gate limits |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const r of shown) {
    const c = tradeoffCells(r.tradeoffs);
    out.push(`| ${cell(r.label)} | ${c.cost} | ${c.p50} | ${c.p95} | ${r.limitBlockers.length ? cell(r.limitBlockers.join("; ")) : "within"} |`);
  }
  out.push("", "Cost: mean of per-case differences with a t interval. Latency: percentile differences with a seeded bootstrap interval over cases.");
  return out.join("\n") + "\n";
}
