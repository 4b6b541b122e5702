/**
 * The Activity page's URL (issue 19): filters (actor, action, subject type and id, a day range),
 * sort column and direction, and page, parsed from search params and written back into links.
 * Pure: no next/*, no db.
 */
import { z } from "zod";

export const ACTIVITY_SORTS = ["at", "actor", "action", "subject"] as const;
export type ActivitySortKey = (typeof ACTIVITY_SORTS)[number];
export const ACTIVITY_PAGE_SIZE = 50;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)));
const text = z.string().trim().min(1).max(200);

/** The page's state as read from the URL; invalid values are dropped (the filter is then off). */
export interface ActivityQuery {
  actor?: string;
  action?: string;
  subject?: string;
  subjectId?: string;
  /** Days, `YYYY-MM-DD` (UTC), both inclusive. */
  from?: string;
  to?: string;
  sort: ActivitySortKey;
  dir: "asc" | "desc";
  page: number;
}

type Params = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
function opt<T>(schema: z.ZodType<T>, v: string | string[] | undefined): T | undefined {
  const r = schema.safeParse(first(v));
  return r.success ? r.data : undefined;
}

/** Reads the Activity page's state from its search params. */
export function parseActivityQuery(sp: Params): ActivityQuery {
  return {
    actor: opt(text, sp.actor),
    action: opt(text, sp.action),
    subject: opt(text, sp.subject),
    subjectId: opt(text, sp.subjectId),
    from: opt(day, sp.from),
    to: opt(day, sp.to),
    sort: opt(z.enum(ACTIVITY_SORTS), sp.sort) ?? "at",
    dir: opt(z.enum(["asc", "desc"]), sp.dir) ?? "desc",
    page: opt(z.coerce.number().int().min(1).max(100_000), sp.page) ?? 1,
  };
}

/** The time range of a query in ms since the epoch: from the start of `from` to the end of `to` (UTC). */
export function activityRange(q: Pick<ActivityQuery, "from" | "to">): { from?: number; to?: number } {
  return {
    from: q.from ? Date.parse(`${q.from}T00:00:00Z`) : undefined,
    to: q.to ? Date.parse(`${q.to}T00:00:00Z`) + 86_400_000 - 1 : undefined,
  };
}

/** A link to the Activity page with `q` changed by `patch` (a changed filter or sort goes back to page 1). */
export function activityHref(q: ActivityQuery, patch: Partial<ActivityQuery>): string {
  const next: ActivityQuery = { ...q, ...("page" in patch ? {} : { page: 1 }), ...patch };
  const p = new URLSearchParams();
  for (const k of ["actor", "action", "subject", "subjectId", "from", "to"] as const) if (next[k]) p.set(k, next[k]!);
  if (next.sort !== "at") p.set("sort", next.sort);
  if (next.dir !== "desc") p.set("dir", next.dir);
  if (next.page > 1) p.set("page", String(next.page));
  const s = p.toString();
  return s ? `/activity?${s}` : "/activity";
}
