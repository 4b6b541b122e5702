/**
 * Console text of `benchwork run`: one line per case (with done/total), the verbose panels
 * (message, tool calls, response), the listing of `--list`, and the closing summary.
 */
import type { CaseDetail } from "@/lib/suite/runner";
import type { CaseResult, ReleaseCase, SuiteResult } from "@/lib/suite/types";

const MAX_PANEL = 2_000;

function clip(text: string, max = MAX_PANEL): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

function json(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function indent(text: string, prefix = "    "): string {
  return text
    .split("\n")
    .map((l) => prefix + l)
    .join("\n");
}

/** Why a case failed, in one line: its error, else the checks that did not pass. */
export function failureReason(r: CaseResult): string {
  if (r.skipped) return "skipped (the run was cancelled)";
  if (r.error) return r.error;
  const parts: string[] = [];
  if (r.evaluatorPassed === false) parts.push(`evaluator: ${r.evaluatorMessage ?? "failed"}`);
  if (r.judgePassed === false) parts.push(`judge: ${r.judgeReason ?? "failed"}`);
  if (r.reliabilityPassed === false) parts.push(`reliability: expected tool calls not met (called: ${r.toolsCalled.join(", ") || "none"})`);
  if (parts.length === 0) parts.push("no check ran");
  return parts.join("; ");
}

/** `[3/27] PASS policy-lookup (0.02 s)` or `[4/27] FAIL late-order (0.03 s): reason`. */
export function caseLine(r: CaseResult, done: number, total: number): string {
  const head = `[${done}/${total}] ${r.skipped ? "SKIP" : r.passed ? "PASS" : "FAIL"} ${r.name}`;
  if (r.skipped) return head;
  const time = ` (${r.durationSeconds.toFixed(2)} s)`;
  return r.passed ? head + time : `${head}${time}: ${failureReason(r)}`;
}

/**
 * The verbose panels of one case: Message, Tool calls, Response, and each check with the evidence
 * (`details`) and console output of evaluate functions and custom evaluators.
 */
export function verbosePanels(c: ReleaseCase, r: CaseResult, detail: CaseDetail): string[] {
  const lines: string[] = [];
  lines.push("  Message:");
  if (c.systemPrompt) lines.push(indent(`[system] ${clip(c.systemPrompt)}`));
  lines.push(indent(`[user] ${clip(c.prompt)}`));
  const calls = detail.trial?.toolCalls ?? [];
  const results = detail.trial?.toolResults ?? [];
  const ended = r.timedOut || (r.error ?? "").includes("run: cancelled");
  lines.push(`  Tool calls:${calls.length === 0 ? " none" : ""}`);
  for (const call of calls) {
    const res = results.find((x) => x.toolCallId === call.toolCallId);
    // The arguments as the model sent them; what the tool's schema made of them when that differs.
    const received = call.parsedInput !== undefined ? ` (the tool received ${clip(json(call.parsedInput), 500)})` : "";
    const outcome = res ? ` → ${clip(json(res.output), 500)}` : !call.invalid && ended ? " → (no result: the case ended while the tool ran)" : "";
    lines.push(indent(`${call.toolName}(${clip(json(call.input), 500)})${received}${call.invalid ? ` — invalid: ${call.error}` : ""}${outcome}`));
  }
  lines.push("  Response:");
  lines.push(indent(r.output === null ? "(none)" : clip(r.output) || "(empty)"));
  if (detail.checks.length > 0) {
    lines.push("  Checks:");
    for (const ch of detail.checks) {
      lines.push(indent(`${ch.verdict.toUpperCase()} ${ch.kind}: ${clip(ch.message, 500)}`));
      // The evidence an evaluate function (or custom evaluator) returned, and its console output.
      if (ch.details?.evidence !== undefined) lines.push(indent(`details: ${clip(json(ch.details.evidence))}`, "      "));
      const logs = ch.details?.logs;
      if (Array.isArray(logs)) for (const l of logs) lines.push(indent(`console: ${clip(String(l), 500)}`, "      "));
    }
  }
  return lines;
}

/** One line per case for `--list`: id, eval, tags, source. */
export function listLine(c: ReleaseCase): string {
  const where = `${c.source.file}${c.source.row !== undefined ? ` row ${c.source.row}` : ""}`;
  return `${c.id}  (${c.evalId}${c.labels.length ? `; tags ${c.labels.join(", ")}` : ""}; ${where})`;
}

/** The closing summary: counts, status, time, and the failed cases with their reasons. */
export function summaryLines(suite: SuiteResult, title: string, seconds: number): string[] {
  const skipped = suite.results.filter((r) => r.skipped).length;
  const lines = [
    `${title}: ${suite.passed} passed, ${suite.failed} failed${skipped ? ` (${skipped} skipped)` : ""} of ${suite.total} in ${seconds.toFixed(2)} s — ${suite.status}`,
  ];
  const failed = suite.results.filter((r) => !r.passed && !r.skipped);
  if (failed.length > 0) {
    lines.push("Failed:");
    for (const r of failed.slice(0, 50)) lines.push(`  ${r.name}: ${failureReason(r)}`);
    if (failed.length > 50) lines.push(`  … and ${failed.length - 50} more (see --json-output)`);
  }
  return lines;
}
