/**
 * Defaults of the optional evaluator spec fields (see spec.ts), in a file without zod so that code
 * describing checks (bench aggregation, the results page) does not load the spec schemas.
 */

/** Defaults applied to optional fields when a spec runs (documented here, never written into the spec). */
export const SPEC_DEFAULTS = {
  /** exact / contains / answer_bank: compare NFC-normalised text. */
  normalizeUnicode: true,
  /** exact / contains / answer_bank: compare text as is, without trimming. */
  trim: false,
  /** exact / contains / answer_bank: case-sensitive. */
  ignoreCase: false,
  /** gsm8k: the upstream final-answer marker. */
  gsm8kMarker: "####",
  /** gsm8k: only the number after the marker counts. */
  gsm8kMode: "strict",
  /** tool_call_syntax: version of the spec format. */
  toolCallSyntaxVersion: 1,
  /** tool_call_syntax: expected calls may come in any order. */
  order: "unordered",
  /** tool_call_syntax: calls not listed in the alternative fail the check. */
  extraCalls: "forbid",
  /** tool_call_syntax: arguments not listed for a call fail the check. */
  extraArguments: "forbid",
  /** tool_call_syntax: a listed argument must be present unless it says otherwise. */
  argumentRequired: true,
  /** expected_tool_calls: tools other than the named ones may also fire. */
  allowAdditional: true,
  /** judge: pass/fail verdict. */
  judgeMode: "binary",
  /** judge (numeric mode): pass when the 1-10 score is at least this. */
  judgeThreshold: 7,
  /** json: the whole output must be JSON, without a ``` code fence around it. */
  allowCodeFence: false,
} as const;
