/**
 * Recorded candidates (DESIGN.md §1 "candidate", §4 step 4): the answer is read from the case's
 * recorded outputs (a dataset column per candidate) instead of calling a model. The trial record
 * has the same shape as a live one, so evaluators treat both alike.
 */
import type { CaseContent } from "@/lib/library/case-content";
import { normalizeTrialToolCalls, zeroUsage, type TrialRecord, type TrialToolCall } from "./trial-record";

/** Returned by {@link recordedTrial} when the case has nothing recorded for the candidate. */
export interface MissingRecording {
  missing: true;
  /** Names the candidate, e.g. `no recorded output for candidate "gpt-4o"`. */
  reason: string;
}

function has(obj: Record<string, unknown> | undefined, key: string): boolean {
  return obj !== undefined && obj !== null && Object.prototype.hasOwnProperty.call(obj, key);
}

/**
 * The trial of a recorded candidate on one case.
 * - `output`: `content.recordedOutputs[name]` ("" when only tool calls were recorded; an empty
 *   recorded string is a recorded answer, not a missing one).
 * - `toolCalls`: `content.recordedToolCalls[name]` as recorded, each given the id `recorded-<index>`;
 *   `normalizedToolCalls` parses JSON-string inputs.
 * - `latencyMs` 0, usage 0 tokens, `finishReason` "stop", one step, no tool results, no messages sent.
 * @param content the case content
 * @param candidateName the recorded candidate (dataset column) name
 * @returns the record, or `{ missing: true, reason }` when the case has neither a recorded output
 *   nor recorded tool calls for that candidate
 */
export function recordedTrial(content: Pick<CaseContent, "recordedOutputs" | "recordedToolCalls">, candidateName: string): TrialRecord | MissingRecording {
  const hasOutput = has(content.recordedOutputs, candidateName);
  const hasCalls = has(content.recordedToolCalls, candidateName);
  if (!hasOutput && !hasCalls) {
    return { missing: true, reason: `no recorded output for candidate "${candidateName}"` };
  }
  const output = hasOutput ? String(content.recordedOutputs[candidateName] ?? "") : "";
  const recordedCalls = hasCalls ? (content.recordedToolCalls?.[candidateName] ?? []) : [];
  const toolCalls: TrialToolCall[] = recordedCalls.map((c, i) => ({ toolCallId: `recorded-${i}`, toolName: c.toolName, input: c.input }));
  return {
    output,
    toolCalls,
    normalizedToolCalls: normalizeTrialToolCalls(toolCalls),
    toolResults: [],
    steps: [{ text: output, toolCalls, toolResults: [], finishReason: "stop", usage: zeroUsage() }],
    finishReason: "stop",
    usage: zeroUsage(),
    latencyMs: 0,
    renderedMessages: [],
  };
}

/** Whether a {@link recordedTrial} result is the "missing" marker. */
export function isMissingRecording(r: TrialRecord | MissingRecording): r is MissingRecording {
  return (r as MissingRecording).missing === true;
}

/** One recorded candidate name and how many cases have a recording for it. */
export interface RecordedCandidate {
  name: string;
  /** Number of cases with a recorded output or recorded tool calls under this name. */
  cases: number;
}

/**
 * The recorded candidates available over a set of cases: the union of names in `recordedOutputs`
 * and `recordedToolCalls`, in order of first appearance, with how many cases have each (a case is
 * counted once per name).
 */
export function recordedCandidateNames(contents: readonly Pick<CaseContent, "recordedOutputs" | "recordedToolCalls">[]): RecordedCandidate[] {
  const counts = new Map<string, number>();
  for (const content of contents) {
    const names = new Set([...Object.keys(content.recordedOutputs ?? {}), ...Object.keys(content.recordedToolCalls ?? {})]);
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, cases]) => ({ name, cases }));
}
