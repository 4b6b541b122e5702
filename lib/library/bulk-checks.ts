/**
 * The checks the Cases tab's bulk action offers (issue 15), by name. Pure data, so the page's
 * client components and the server share one list.
 */
/** The checks the bulk action offers, by name: each is an evaluator spec that works for any case. */
export const BULK_CHECKS = {
  exact: { spec: { kind: "exact" }, label: "Exact match with the expected result", needsExpected: true },
  contains: { spec: { kind: "contains" }, label: "Output contains the expected result", needsExpected: true },
  gsm8k: { spec: { kind: "gsm8k" }, label: "GSM8K final answer", needsExpected: true },
  json: { spec: { kind: "json" }, label: "Output is valid JSON", needsExpected: false },
  non_empty: { spec: { kind: "non_empty" }, label: "Output is not empty", needsExpected: false },
} as const;
/** A name of {@link BULK_CHECKS}. */
export type BulkCheckName = keyof typeof BULK_CHECKS;
