/**
 * Inheritance of eval fields by its cases (issue #6 "Parameterised cases", DESIGN.md §6):
 * - a key that is absent (or `undefined`) in the case takes the eval's value;
 * - a key set to `null` clears it;
 * - `labels` merge with the eval's, eval's first, without duplicates; `labels: null` clears them;
 * - `metadata` merges with the case winning; `metadata: null` clears it;
 * - every other key (including `data` and `evaluate`) is replaced as a whole.
 */
import { CASE_FIELD_KEYS } from "./fields";
import type { CaseFields } from "./types";

/** A field value after inheritance: the value, or `null` when cleared or never set. */
export type ResolvedFields = { [K in keyof CaseFields]-?: Exclude<CaseFields[K], undefined> };

/** Labels of the eval followed by the case's new ones, without duplicates (first occurrence kept). */
export function mergeLabels(base: readonly string[] | null | undefined, own: readonly string[] | null | undefined): string[] {
  if (own === null) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const l of [...(base ?? []), ...(own ?? [])]) {
    if (seen.has(l)) continue;
    seen.add(l);
    out.push(l);
  }
  return out;
}

/** Metadata of the eval overlaid with the case's (case wins per key); `null` clears. */
export function mergeMetadata(
  base: Readonly<Record<string, unknown>> | null | undefined,
  own: Readonly<Record<string, unknown>> | null | undefined,
): Record<string, unknown> {
  if (own === null) return {};
  return { ...(base ?? {}), ...(own ?? {}) };
}

/**
 * Resolves the fields of one case from its eval's fields and its own.
 * @param evalFields the eval's fields as written (unknown keys are ignored here)
 * @param own the case's fields as written; `{}` for an eval without `cases`
 * @returns every field of {@link CASE_FIELD_KEYS}: the inherited, overridden or cleared value
 *   (`null` when cleared or never set); `labels` is always a list and `metadata` always an object
 */
export function resolveFields(evalFields: Readonly<CaseFields>, own: Readonly<CaseFields>): ResolvedFields {
  const out: Record<string, unknown> = {};
  for (const key of CASE_FIELD_KEYS) {
    if (key === "labels") out.labels = mergeLabels(evalFields.labels, own.labels);
    else if (key === "metadata") out.metadata = mergeMetadata(evalFields.metadata, own.metadata);
    else {
      const v = own[key];
      out[key] = v === undefined ? (evalFields[key] ?? null) : v;
    }
  }
  return out as ResolvedFields;
}
