/**
 * Size limits of library fields, in characters (UTF-16 code units, as JavaScript counts them).
 * They keep one case small enough to render and to send to a model; the forms state them.
 */
export const LIMITS = {
  caseId: 128,
  input: 20_000,
  expected: 20_000,
  notes: 10_000,
  turnContent: 20_000,
  turns: 200,
  nameValueRows: 100,
  name: 100,
  value: 10_000,
  criterionRule: 2_000,
  criterionPassFail: 2_000,
  searchQuery: 200,
  evaluators: 50,
} as const;
