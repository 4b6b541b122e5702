/**
 * Bulk check edits on the Cases tab (issue 15): add or remove a check on many cases at once — the
 * ticked rows, or every case matching the filter — making new case revisions in one transaction.
 */
import type { Author } from "@/lib/audit/author";
import type { Db } from "@/db/client";
import { listCases, reviseCases, type CaseListQuery } from "@/db/queries/cases";
import { BULK_CHECKS, type BulkCheckName } from "@/lib/library/bulk-checks";
import { LibraryError } from "@/lib/library/errors";

export { BULK_CHECKS, type BulkCheckName };

/** Most cases one bulk action changes (one transaction holds the write lock for all of them). */
export const BULK_MAX_CASES = 10_000;

/** Which cases: ticked rows, or every case matching the Cases tab's filters. */
export type BulkTarget =
  { kind: "ids"; caseIds: number[] } | { kind: "filter"; filter: Omit<CaseListQuery, "systemId" | "page" | "pageSize" | "sort" | "searchLimit"> };

/** Result of {@link bulkCaseCheck}. */
export interface BulkCheckResult {
  /** Cases that got a new revision. */
  revised: number;
  /** Cases that already had (add) or did not have (remove) the check. */
  unchanged: number;
  /** Cases left out of an add because they have no expected result to compare with. */
  noExpected: string[];
}

/** True when `spec` is the bulk check (same kind; extra options of a hand-made one still count). */
function isCheck(spec: unknown, name: BulkCheckName): boolean {
  return typeof spec === "object" && spec !== null && (spec as { kind?: unknown }).kind === BULK_CHECKS[name].spec.kind;
}

/**
 * Adds or removes one check on many cases, as new case revisions in one transaction.
 * Add: appended to cases without a check of that kind (cases without an expected result are left
 * out when the check compares with it, and named). Remove: every check of that kind goes.
 * @throws LibraryError `validation` (no case selected; more than {@link BULK_MAX_CASES}) or
 *   `not_found` (a selected case is not live in the system); nothing is written then
 */
export async function bulkCaseCheck(
  db: Db,
  r: { systemId: string; target: BulkTarget; op: "add" | "remove"; check: BulkCheckName; author?: Author | null },
): Promise<BulkCheckResult> {
  let ids: number[];
  if (r.target.kind === "ids") ids = [...new Set(r.target.caseIds)];
  else {
    const page = await listCases(db, { ...r.target.filter, systemId: r.systemId, pageSize: BULK_MAX_CASES + 1, sort: "id-asc" });
    if (page.truncated || page.total > BULK_MAX_CASES)
      throw new LibraryError(
        "validation",
        `The filter matches more than ${BULK_MAX_CASES.toLocaleString("en-US")} cases; narrow it (one prompt, a source, a search) and apply again.`,
      );
    ids = page.rows.map((x) => x.id);
  }
  if (ids.length === 0) throw new LibraryError("validation", "No case is selected: tick rows, or choose every case that matches the filter.");
  if (ids.length > BULK_MAX_CASES) throw new LibraryError("validation", `At most ${BULK_MAX_CASES.toLocaleString("en-US")} cases per bulk action.`);
  const def = BULK_CHECKS[r.check];
  const noExpected: string[] = [];
  const res = await reviseCases(
    db,
    r.systemId,
    ids,
    (c, { caseKey }) => {
      if (r.op === "remove") {
        const kept = c.evaluators.filter((e) => !isCheck(e, r.check));
        return kept.length === c.evaluators.length ? null : { ...c, evaluators: kept };
      }
      if (c.evaluators.some((e) => isCheck(e, r.check))) return null;
      if (def.needsExpected && c.expected.trim() === "") {
        noExpected.push(caseKey);
        return null;
      }
      return { ...c, evaluators: [...c.evaluators, { ...def.spec }] };
    },
    r.author,
  );
  return { revised: res.revised.length, unchanged: res.unchanged - noExpected.length, noExpected };
}
