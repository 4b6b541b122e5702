/**
 * The Cases tab's state lives in the URL so a link reproduces the view (issue #2 §3).
 * `parseCasesParams` reads untrusted search params leniently: an unknown value is dropped, never
 * an error page. `casesHref` writes a new URL from the current state plus changes.
 */
import { CASE_SOURCES, CASE_STATUSES, type CaseSource, type CaseStatus } from "./case-content";
import { LIMITS } from "./limits";

export const CASE_SORT_VALUES = ["updated-desc", "updated-asc", "id-asc", "id-desc"] as const;
export type CaseSortValue = (typeof CASE_SORT_VALUES)[number];

/** Parsed Cases tab state. `prompt` is a prompt NAME (readable links); `caseId` opens the edit panel. */
export interface CasesParams {
  source?: CaseSource;
  prompt?: string;
  status?: CaseStatus;
  q?: string;
  page: number;
  sort: CaseSortValue;
  caseId?: number;
  rev?: number;
  adding: boolean;
}

type Raw = Record<string, string | string[] | undefined>;

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

function positiveInt(v: string | undefined): number | undefined {
  if (!v || !/^\d{1,9}$/.test(v)) return undefined;
  const n = Number(v);
  return n > 0 ? n : undefined;
}

/** Reads the Cases tab state from search params (unknown or malformed values are ignored). */
export function parseCasesParams(raw: Raw): CasesParams {
  const source = first(raw.source);
  const status = first(raw.status);
  const sort = first(raw.sort);
  const q = first(raw.q)?.slice(0, LIMITS.searchQuery);
  return {
    source: (CASE_SOURCES as readonly string[]).includes(source ?? "") ? (source as CaseSource) : undefined,
    status: (CASE_STATUSES as readonly string[]).includes(status ?? "") ? (status as CaseStatus) : undefined,
    prompt: first(raw.prompt) || undefined,
    q: q?.trim() ? q : undefined,
    page: positiveInt(first(raw.page)) ?? 1,
    sort: (CASE_SORT_VALUES as readonly string[]).includes(sort ?? "") ? (sort as CaseSortValue) : "updated-desc",
    caseId: positiveInt(first(raw.case)),
    rev: positiveInt(first(raw.rev)),
    adding: first(raw.new) === "1",
  };
}

/**
 * The URL of the Cases tab for `state` with `changes` applied. Changing a filter resets the page
 * to 1 unless `page` is part of the changes. Defaults are left out to keep links short.
 */
export function casesHref(base: string, state: CasesParams, changes: Partial<CasesParams>): string {
  const filterChanged = ["source", "prompt", "status", "q", "sort"].some((k) => k in changes);
  const next: CasesParams = { ...state, ...(filterChanged && !("page" in changes) ? { page: 1 } : {}), ...changes };
  const p = new URLSearchParams();
  if (next.source) p.set("source", next.source);
  if (next.prompt) p.set("prompt", next.prompt);
  if (next.status) p.set("status", next.status);
  if (next.q) p.set("q", next.q);
  if (next.sort !== "updated-desc") p.set("sort", next.sort);
  if (next.page > 1) p.set("page", String(next.page));
  if (next.caseId) p.set("case", String(next.caseId));
  if (next.caseId && next.rev) p.set("rev", String(next.rev));
  if (next.adding) p.set("new", "1");
  const s = p.toString();
  return s ? `${base}?${s}` : base;
}
