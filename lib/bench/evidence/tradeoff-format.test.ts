import { describe, expect, it } from "vitest";
import { formatMsDelta, formatRelative, formatTradeoff, formatUsdDelta, tradeoffsMarkdown } from "./tradeoff-format";

describe("trade-off formatting", () => {
  it("writes signed amounts, durations and percentages", () => {
    expect(formatUsdDelta(0.00076667)).toBe("+$0.00077");
    expect(formatUsdDelta(-1.254)).toBe("\u2212$1.25");
    expect(formatUsdDelta(0)).toBe("$0.00");
    expect(formatMsDelta(-1200)).toBe("\u22121,200 ms");
    expect(formatMsDelta(0.2)).toBe("0 ms");
    expect(formatRelative(0.34)).toBe("+34 %");
    expect(formatRelative(null)).toBe("");
  });
  it("writes a difference with its interval", () => {
    expect(formatTradeoff({ n: 12, candidate: 2100, baseline: 1300, delta: 800, ci95: [280, 800], relative: 800 / 1300 }, "ms")).toBe(
      "+800 ms (95 % CI +280 ms to +800 ms) · +62 %",
    );
  });
  it("writes the Markdown section, escaping labels, and nothing without figures", () => {
    const t = {
      costPerCase: null,
      latencyP50: { n: 2, candidate: 150, baseline: 100, delta: 50, ci95: [50, 50] as [number, number], relative: 0.5 },
      latencyP95: { n: 2, candidate: 150, baseline: 100, delta: 50, ci95: [50, 50] as [number, number], relative: 0.5 },
      bootstrap: { replicates: 1000, seed: 1 },
    };
    const md = tradeoffsMarkdown([{ label: "a|b", tradeoffs: t, limitBlockers: ["p95 latency +50 % exceeds the +20 % limit"] }]);
    expect(md).toContain(
      "| a\\|b | — | +50 ms (95 % CI +50 ms to +50 ms) · +50 % | +50 ms (95 % CI +50 ms to +50 ms) · +50 % | p95 latency +50 % exceeds the +20 % limit |",
    );
    expect(tradeoffsMarkdown([{ label: "x", tradeoffs: null, limitBlockers: [] }])).toBe("");
  });
  it("escapes * and _ in a model name in the Markdown section", () => {
    const t = {
      costPerCase: null,
      latencyP50: { n: 2, candidate: 150, baseline: 100, delta: 50, ci95: [50, 50] as [number, number], relative: 0.5 },
      latencyP95: null,
      bootstrap: { replicates: 1000, seed: 1 },
    };
    expect(tradeoffsMarkdown([{ label: "gpt_4o*mini", tradeoffs: t, limitBlockers: [] }])).toContain("| gpt\\_4o\\*mini | — |");
  });
});
