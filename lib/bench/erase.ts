/**
 * What "Remove" erases from the trials that used a case (DESIGN.md §3: removing a case keeps the
 * scores of earlier benches but erases their saved details). A trial keeps what scores it — each
 * check's key, kind, label, verdict, score, priority and judge usage, and the counts in its row —
 * and loses everything that quotes the case: check messages and details (a GSM8K message says
 * "…but the expected answer is 999999"), the rendered prompt (input, history, variables), tool
 * results (the case's fixtures), and for a recorded candidate the recorded answer and tool calls.
 * A model candidate's own answer and tool calls stay: they are what the model said, not the case.
 * Pure: JSON text in, JSON text out.
 */
import type { CheckRecord } from "./types";

/** The message an erased check shows instead of its own. */
export const ERASED_CHECK_MESSAGE = "Erased: the case was removed.";

/** Why a trial still queued when its case was removed is skipped. */
export const REMOVED_CASE_SKIP_REASON = "the case was removed before this trial ran";

/** The stored text columns of one trial that may quote its case. */
export interface TrialText {
  checks: string | null;
  record: string | null;
  output: string | null;
}

/**
 * The trial's stored text without the case's details (see the module comment).
 * @param trial the trial's `checks`, `record` and `output` columns as stored (JSON text or null)
 * @param candidateKind `recorded` (the output is the case's recorded answer) or `model`
 * @returns the columns to store; unreadable JSON is dropped (null) rather than kept
 */
export function eraseTrialText(trial: TrialText, candidateKind: "model" | "recorded"): TrialText {
  return {
    checks: trial.checks === null ? null : eraseChecks(trial.checks),
    record: trial.record === null || candidateKind === "recorded" ? null : eraseRecord(trial.record),
    output: candidateKind === "recorded" ? null : trial.output,
  };
}

function eraseChecks(text: string): string | null {
  const list = parse(text);
  if (!Array.isArray(list)) return null;
  return JSON.stringify(
    (list as CheckRecord[]).map((c) => {
      const kept: CheckRecord = { key: c.key, kind: c.kind, label: c.label, verdict: c.verdict, score: c.score, message: ERASED_CHECK_MESSAGE };
      if (c.priority !== undefined) kept.priority = c.priority;
      if (c.criterionId !== undefined) kept.criterionId = c.criterionId;
      if (c.usage !== undefined) kept.usage = c.usage;
      return kept;
    }),
  );
}

function eraseRecord(text: string): string | null {
  const r = parse(text);
  if (r === null || typeof r !== "object" || Array.isArray(r)) return null;
  const { renderedMessages: _rendered, responseMessages: _response, toolResults: _results, steps, ...rest } = r as Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  if (Array.isArray(steps)) {
    out.steps = steps.map((s) => {
      if (s === null || typeof s !== "object") return s;
      const { toolResults: _stepResults, ...step } = s as Record<string, unknown>;
      return { ...step, toolResults: [] };
    });
  }
  return JSON.stringify(out);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
