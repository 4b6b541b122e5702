/**
 * Size caps of what a bench stores per trial. A custom evaluator that threw a 5 MB message stored
 * 5 MB per trial (and a 10 MB trial page); a provider's error page or a runaway answer can do the
 * same. {@link capOutcome} is applied by the worker to every outcome before the store writes it, so
 * every stored trial and check record goes through it. Checks are scored on the whole trial first:
 * only what is kept is cut, and each cut says so with `… [truncated, N characters]`.
 */
import { truncateText, truncationMarker } from "../evaluators/text/truncate";
import { LIMITS } from "../library/limits";
import type { TrialOutcome } from "./queue";
import type { CheckRecord } from "./types";

/** Caps in characters (UTF-16 code units). */
export const STORED_LIMITS = {
  /** A check's message (its reason) and a trial's error: a few paragraphs are plenty to read. */
  message: 4_000,
  /** A check's label: a criterion's rule, which the criterion form limits to the same. */
  label: LIMITS.criterionRule,
  /** The candidate's answer: ~50,000 tokens, above the output limit of common models. */
  output: 200_000,
  /** A check's details (judge prompt and answer, evaluator logs and evidence), as JSON. */
  details: 64_000,
  /** The trial record (rendered messages, steps, tool calls and results), as JSON. */
  record: 1_000_000,
} as const;

/**
 * About the length of `value`'s JSON text (escapes not counted), counting no further than a little
 * past `stop`. Cheaper than serialising: most values are far below their cap.
 */
function jsonSize(value: unknown, stop: number): number {
  if (typeof value === "string") return value.length + 2;
  if (value === null || typeof value !== "object") return 8;
  let n = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      n += jsonSize(item, stop - n) + 1;
      if (n > stop) return n;
    }
    return n;
  }
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    n += k.length + 4 + jsonSize(v, stop - n);
    if (n > stop) return n;
  }
  return n;
}

/** `value` with every string longer than `max` cut by {@link truncateText}. */
function cutStrings(value: unknown, max: number): unknown {
  if (typeof value === "string") return truncateText(value, max);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => cutStrings(v, max));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v, max)]));
}

/**
 * A JSON value whose text is at most about `max` characters: `value` itself when it fits, else a
 * copy whose long strings are cut (each marked), shorter each round, else
 * `{ truncated: "[truncated, N characters of JSON]" }` when even that does not fit (a huge list).
 * @param value a JSON-compatible value (no cycles)
 * @param max characters of JSON
 */
export function capJson(value: unknown, max: number): unknown {
  const size = jsonSize(value, max);
  if (size <= max) return value;
  for (const longest of [max / 4, max / 16, max / 64, 100]) {
    const cut = cutStrings(value, Math.floor(longest));
    if (jsonSize(cut, max) <= max) return cut;
  }
  return { truncated: `[truncated, ${(JSON.stringify(value)?.length ?? size).toLocaleString("en-US")} characters of JSON]` };
}

/** A check record within {@link STORED_LIMITS}; the same object when it already was. */
export function capCheck(check: CheckRecord): CheckRecord {
  const message = truncateText(check.message, STORED_LIMITS.message);
  const label = truncateText(check.label, STORED_LIMITS.label);
  const details = check.details === undefined ? undefined : (capJson(check.details, STORED_LIMITS.details) as Record<string, unknown>);
  if (message === check.message && label === check.label && details === check.details) return check;
  const out: CheckRecord = { ...check, message, label };
  if (details !== undefined) out.details = details;
  return out;
}

/** The record's JSON text within {@link STORED_LIMITS}.record (long strings inside cut first). */
function capRecord(record: string): string {
  if (record.length <= STORED_LIMITS.record) return record;
  let parsed: unknown;
  try {
    parsed = JSON.parse(record);
  } catch {
    return JSON.stringify({ truncated: truncationMarker(record.length) });
  }
  return JSON.stringify(capJson(parsed, STORED_LIMITS.record));
}

/**
 * A trial outcome within {@link STORED_LIMITS}: output, error, record, and each check's message,
 * label and details; the same object when nothing needed cutting.
 */
export function capOutcome(o: TrialOutcome): TrialOutcome {
  const output = o.output === null ? null : truncateText(o.output, STORED_LIMITS.output);
  const error = o.error === null ? null : truncateText(o.error, STORED_LIMITS.message);
  const record = o.record === null ? null : capRecord(o.record);
  let checks = o.checks;
  if (checks) {
    const capped = checks.map(capCheck);
    if (capped.some((c, i) => c !== checks![i])) checks = capped;
  }
  if (output === o.output && error === o.error && record === o.record && checks === o.checks) return o;
  return { ...o, output, error, record, checks };
}
