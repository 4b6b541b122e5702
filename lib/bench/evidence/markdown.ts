/**
 * A bench's result as a pull-request comment (`bench run --markdown PATH`, issue #16 §5): the
 * evidence sentence, the recommendation, a table of every candidate's case pass rate and paired
 * comparisons with their 95 % intervals, and the regressions that block, each with its status.
 * GitHub-flavoured Markdown; labels and case keys are escaped so a "|" or "`" cannot break a table,
 * nor a "*" or "_" in a model name become emphasis.
 */
import type { RegressionReason, RegressionStatus } from "@/lib/bench/stats/regression-status";
import type { RateInterval } from "@/lib/bench/stats/wilson";
import { formatPoints, formatPValue, formatRateInterval } from "./format";
import type { LabelledComparison } from "./headline";
import { markdownCell, markdownText } from "./markdown-text";
import { counted } from "@/lib/bench/counted";
import { n } from "@/lib/bench/progress-counts";

/** One blocking regression as the comment lists it. */
export interface MarkdownBlocker {
  caseKey: string;
  /** The check's label. */
  label: string;
  against: "baseline" | "last bench";
  status: RegressionStatus;
  /** Why it has its status without repeats ("deterministic replay"), or null/absent. */
  reason?: RegressionReason | null;
}

/** What the comment is made of (the CLI's result, reduced). */
export interface MarkdownBench {
  benchId: number;
  status: string;
  /** The evidence sentence (see evidence/headline.ts), null when nothing was compared. */
  headline: string | null;
  /** The recommendation's own headline. */
  recommendation: string;
  candidates: {
    label: string;
    baseline: boolean;
    casePassRate: RateInterval | null;
    comparisons: readonly LabelledComparison[];
    blockers: readonly MarkdownBlocker[];
    /** Regressions a rerun cleared (flaky, not blocking); absent: none. */
    cleared?: readonly MarkdownBlocker[];
    /** Its trials that ended as errors, and all its trials; absent: not said. */
    erroredTrials?: number;
    trials?: number;
  }[];
  /** The most common reasons of errored trials ("rate_limit (HTTP 429): …"); absent: none. */
  errors?: readonly { trials: number; message: string }[];
}

/** Blocker rows listed at most: a GitHub comment holds 65,536 characters. */
const MAX_BLOCKERS = 100;

/** Text outside code, on one line, with Markdown's punctuation and HTML escaped (markdown-text.ts). */
const text = markdownText;

/** Text for a table cell: as `text`, "|" escaped. */
const cell = markdownCell;

/** Text for a code span: "|" escaped (GitHub splits table cells first), line breaks as spaces. */
const codeText = (s: string) => s.replace(/\r?\n|\r/g, " ").replace(/\|/g, "\\|");

/** An inline code span that holds any text: fenced with more backticks than the text's longest run. */
function code(s: string): string {
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(longest + 1);
  const pad = longest ? " " : "";
  return `${fence}${pad}${codeText(s)}${pad}${fence}`;
}

/** A blocker's status as counted: "confirmed by deterministic replay" apart from "confirmed". */
const countedAs = (b: MarkdownBlocker) => (b.reason ? `${b.status} by ${b.reason}` : b.status);

/** A blocker's status as listed: "confirmed (deterministic replay)". */
const listedAs = (b: MarkdownBlocker) => (b.reason ? `${b.status} (${b.reason})` : b.status);

function statusCounts(blockers: readonly MarkdownBlocker[]): string {
  if (blockers.length === 0) return "0";
  const counts = new Map<string, number>();
  for (const b of blockers) counts.set(countedAs(b), (counts.get(countedAs(b)) ?? 0) + 1);
  const order: string[] = ["confirmed", "confirmed by deterministic replay", "suspected", "flaky on baseline", "cleared", "none"];
  return `${n(blockers.length)} (${order
    .filter((s) => counts.has(s))
    .map((s) => `${n(counts.get(s) ?? 0)} ${s}`)
    .join(", ")})`;
}

function rate(r: RateInterval | null): string {
  // Trials, the rate's unit (with repeats a case counts several times): "56/60 trials" on a 20-case bench.
  return r && r.rate !== null ? `${formatRateInterval(r)} ${n(r.passed)}/${n(r.scored)} trials` : "—";
}

/**
 * The comment's Markdown.
 * @param b the bench's result (see {@link MarkdownBench})
 * @returns Markdown ending with a newline, under 65,536 characters for any number of blockers
 */
export function benchMarkdown(b: MarkdownBench): string {
  const out: string[] = [`### Benchwork bench #${b.benchId} (${b.status})`, ""];
  if (b.headline) out.push(`**${text(b.headline)}**`, "");
  out.push(text(b.recommendation), "");
  out.push(
    "| Candidate | Case pass rate (95 % CI) | vs | Δ points (95 % CI) | p | Verdict | Blocking regressions |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const c of b.candidates) {
    const name = cell(c.label + (c.baseline ? " (baseline)" : ""));
    const blocking = statusCounts(c.blockers);
    if (c.comparisons.length === 0) out.push(`| ${name} | ${rate(c.casePassRate)} | — | — | — | — | ${blocking} |`);
    c.comparisons.forEach((x, i) => {
      const vs = cell(x.against === "baseline" ? `baseline ${x.againstCandidate}` : `last bench ${x.againstCandidate}`);
      const delta = x.delta === null ? "—" : `${formatPoints(x.delta)}${x.ci95 ? ` (${formatPoints(x.ci95[0])} to ${formatPoints(x.ci95[1])})` : ""}`;
      const p = x.pValue === null ? "—" : `${formatPValue(x.pValue)} (${x.test}, ${counted(x.n, "paired case")})`;
      // The pass rate and blockers once per candidate: later comparisons of it leave them blank.
      out.push(`| ${i === 0 ? name : ""} | ${i === 0 ? rate(c.casePassRate) : ""} | ${vs} | ${delta} | ${p} | ${x.verdict} | ${i === 0 ? blocking : ""} |`);
    });
  }
  out.push(
    "",
    "A case passes when all its scored checks pass (unscored and errored trials are left out). Pass rates carry their Wilson 95 % interval; a suspected regression blocks until a rerun confirms or clears it.",
  );
  const blockers = b.candidates.flatMap((c) => c.blockers.map((x) => ({ candidate: c.label, ...x })));
  if (blockers.some((x) => x.reason === "deterministic replay"))
    out.push(
      "A deterministic replay is a recorded answer against a recorded reference on a code check: a rerun replays the same answers, so it is confirmed without one.",
    );
  if (blockers.length) {
    out.push(
      "",
      "<details>",
      `<summary>Blocking regressions (${n(blockers.length)})</summary>`,
      "",
      "| Candidate | Case | Check | Against | Status |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const x of blockers.slice(0, MAX_BLOCKERS))
      out.push(`| ${cell(x.candidate)} | ${code(x.caseKey)} | ${cell(x.label)} | ${x.against} | ${listedAs(x)} |`);
    if (blockers.length > MAX_BLOCKERS) out.push("", `… and ${n(blockers.length - MAX_BLOCKERS)} more (see the JSON output)`);
    out.push("", "</details>");
  }
  out.push(...clearedSection(b), ...errorsSection(b));
  return out.join("\n") + "\n";
}

/** The regressions a confirm round cleared: shown so a reviewer sees the flake, marked as not blocking. */
function clearedSection(b: MarkdownBench): string[] {
  const cleared = b.candidates.flatMap((c) => (c.cleared ?? []).map((x) => ({ candidate: c.label, ...x })));
  if (cleared.length === 0) return [];
  const out = [
    "",
    "<details>",
    `<summary>Cleared by a rerun: flaky, not blocking (${n(cleared.length)})</summary>`,
    "",
    "| Candidate | Case | Check | Against | Status |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const x of cleared.slice(0, MAX_BLOCKERS)) out.push(`| ${cell(x.candidate)} | ${code(x.caseKey)} | ${cell(x.label)} | ${x.against} | flaky — cleared |`);
  if (cleared.length > MAX_BLOCKERS) out.push("", `… and ${n(cleared.length - MAX_BLOCKERS)} more (see the JSON output)`);
  return [...out, "", "</details>"];
}

/** The trials that ended as errors, per candidate, and their most common reasons. */
function errorsSection(b: MarkdownBench): string[] {
  const errored = b.candidates.filter((c) => (c.erroredTrials ?? 0) > 0);
  if (errored.length === 0) return [];
  const out = [
    "",
    `Trials that ended as errors (left out of the pass rates, not counted as failures): ${errored.map((c) => `${text(c.label)} ${n(c.erroredTrials ?? 0)} of ${n(c.trials ?? 0)}`).join(", ")}.`,
  ];
  if (b.errors?.length) out.push("", ...b.errors.map((e) => `- ${n(e.trials)} × ${text(e.message)}`));
  return out;
}
