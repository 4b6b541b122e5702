/**
 * Case selection for `benchwork run` (issue #6): `--name` (a case id, or `EVAL[ID]`: a case of an
 * eval by its given id or position), `--tag` (a label) and `FILE::EVAL[ID]` variant selectors. Within one kind, values are alternatives (any may match);
 * the kinds given combine (a case must satisfy each). No selector selects every case.
 */
import { parseCaseName, type CaseNameParts, type VariantSelector } from "./naming";
import type { ReleaseCase } from "./types";

/** What to select. Empty or absent lists do not filter. */
export interface Selection {
  names?: readonly string[];
  tags?: readonly string[];
  variants?: readonly VariantSelector[];
}

/** Result of {@link selectCases}: the cases in release order, and the selector values that matched no case. */
export interface SelectionResult<T> {
  selected: T[];
  /** Each `--name`, `--tag` or variant selector (as written) that matched no case of the release. */
  unmatched: string[];
}

/**
 * True when `c` is one of the cases a variant selector names: same module file, same eval (when
 * given), and the variant equal to the case's given id or to its position (when given).
 * @param fileMatches whether the selector's FILE names the case's module (paths are resolved by the shell)
 */
export function matchesVariant(c: ReleaseCase, v: VariantSelector, fileMatches: (file: string, module: string) => boolean): boolean {
  if (!fileMatches(v.file, c.source.module)) return false;
  if (v.evalId !== null && v.evalId !== c.evalId) return false;
  if (v.variant === null) return true;
  return (c.givenId && c.id === v.variant) || String(c.index) === v.variant;
}

/**
 * True when `--name NAME` names `c`: NAME is its case id, or `EVAL[ID]` with EVAL its eval and ID
 * its given id or its 0-based position (so `refunds[holiday]` finds the case `holiday` of `refunds`).
 * @param parts `parseCaseName(name)`, parsed once by the caller
 */
export function matchesName(c: ReleaseCase, name: string, parts: CaseNameParts | null): boolean {
  if (c.id === name) return true;
  if (!parts || parts.evalId !== c.evalId) return false;
  return (c.givenId && c.id === parts.variant) || String(c.index) === parts.variant;
}

/** Default file matching: the selector's FILE equals the module path after `./` and `\` are normalised. */
export function samePath(file: string, module: string): boolean {
  const norm = (p: string) => p.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
  return norm(file) === norm(module);
}

/**
 * Selects cases.
 * @param cases the release's cases, in order
 * @param selection names, tags, variant selectors
 * @param fileMatches how a selector's FILE is compared with a module path (default {@link samePath})
 * @returns the selected cases in release order and the selector values that matched nothing
 */
export function selectCases<T extends ReleaseCase>(
  cases: readonly T[],
  selection: Selection,
  fileMatches: (file: string, module: string) => boolean = samePath,
): SelectionResult<T> {
  const names = selection.names ?? [];
  const tags = selection.tags ?? [];
  const variants = selection.variants ?? [];
  const nameSet = new Set(names);
  const parsed = names.map((n) => ({ n, parts: parseCaseName(n) }));
  // Plain ids are looked up in the set (large suites, many --name); EVAL[ID] names are compared.
  const evalNames = parsed.filter((x) => x.parts !== null);
  const nameMatches = (c: T) => nameSet.has(c.id) || evalNames.some((x) => matchesName(c, x.n, x.parts));
  const unmatched = [
    ...parsed.filter((x) => !cases.some((c) => matchesName(c, x.n, x.parts))).map((x) => `--name ${x.n}`),
    ...tags.filter((t) => !cases.some((c) => c.labels.includes(t))).map((t) => `--tag ${t}`),
    ...variants.filter((v) => !cases.some((c) => matchesVariant(c, v, fileMatches))).map((v) => v.text),
  ];
  const selected = cases.filter(
    (c) =>
      (names.length === 0 || nameMatches(c)) &&
      (tags.length === 0 || tags.some((t) => c.labels.includes(t))) &&
      (variants.length === 0 || variants.some((v) => matchesVariant(c, v, fileMatches))),
  );
  return { selected, unmatched };
}
