/**
 * The audit trail (issue 19): who did what to which subject, when. Rows are written by the query
 * that makes the change, inside its own transaction ({@link recordActivityTx}), so a change and its
 * activity row commit or roll back together.
 */
import { and, asc, count, desc, eq, gte, lte, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { activity } from "../schema";
import type { Tx } from "../write-transaction";
import type { Author } from "@/lib/audit/author";

/** What can be recorded. `subjectType` names the kind of row, `subjectId` its id. */
export interface ActivityEntry {
  action: string;
  subjectType: string;
  subjectId: string | number;
  systemId?: string | null;
  /** One short line for the list (e.g. `case cap-01 r2`); cut to 200 characters. */
  detail?: string;
}

/**
 * Records one change inside the caller's open transaction (`tx` of `transaction(db, …)`). Nothing is
 * recorded without an author (seed, automatic retention): those are not a person's changes.
 * @returns when the row is written; await it inside the transaction body
 */
export function recordActivityTx(tx: Tx, author: Author | null | undefined, e: ActivityEntry, at = Date.now()): Promise<void> {
  if (!author) return Promise.resolve();
  // `.then` starts the insert now rather than at the caller's await: on SQLite it runs at once, so a
  // caller still inside a synchronous writeTransaction (a module not yet async, issue 20) records
  // the row inside its transaction too.
  return tx
    .insert(activity)
    .values({
      at,
      actorId: author.userId,
      actorEmail: author.email,
      action: e.action,
      subjectType: e.subjectType,
      subjectId: String(e.subjectId),
      systemId: e.systemId ?? null,
      detail: (e.detail ?? "").slice(0, 200),
    })
    .then(() => undefined);
}

/** Filters of the Activity page; every one optional. Times in ms since the epoch, inclusive. */
export interface ActivityFilter {
  actor?: string;
  action?: string;
  subjectType?: string;
  subjectId?: string;
  from?: number;
  to?: number;
}

export type ActivitySort = "at" | "actor" | "action" | "subject";

/** One row of the Activity page. */
export type ActivityRow = typeof activity.$inferSelect;

const sortColumns = { at: activity.at, actor: activity.actorEmail, action: activity.action, subject: activity.subjectType } as const;

/**
 * One page of activity matching `filter`, sorted by `sort` (ties newest first; by time ascending, oldest
 * first), and the total count.
 * `actor` matches the user id or the e-mail exactly.
 */
export async function listActivity(
  db: Db,
  filter: ActivityFilter,
  opts: { sort?: ActivitySort; dir?: "asc" | "desc"; page?: number; pageSize?: number } = {},
): Promise<{ rows: ActivityRow[]; total: number }> {
  const where: SQL[] = [];
  if (filter.actor)
    where.push(filter.actor.includes("@") || filter.actor === "local" ? eq(activity.actorEmail, filter.actor) : eq(activity.actorId, filter.actor));
  if (filter.action) where.push(eq(activity.action, filter.action));
  if (filter.subjectType) where.push(eq(activity.subjectType, filter.subjectType));
  if (filter.subjectId) where.push(eq(activity.subjectId, filter.subjectId));
  if (filter.from != null) where.push(gte(activity.at, filter.from));
  if (filter.to != null) where.push(lte(activity.at, filter.to));
  const cond = where.length ? and(...where) : undefined;
  const pageSize = opts.pageSize ?? 50;
  const page = Math.max(1, opts.page ?? 1);
  const col = sortColumns[opts.sort ?? "at"];
  const ascending = (opts.dir ?? "desc") === "asc";
  const order = ascending ? asc(col) : desc(col);
  // Ties newest first; sorted by time, ties follow the time's direction (ids are in the order the
  // changes were made, so a launch and its cancel in one millisecond keep their order).
  const tie = (opts.sort ?? "at") === "at" && ascending ? asc : desc;
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(activity)
      .where(cond)
      .orderBy(order, tie(activity.at), tie(activity.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    first(db.select({ n: count() }).from(activity).where(cond)),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

/** The distinct actors and actions recorded, for the filter menus. */
export async function activityFacets(db: Db): Promise<{ actors: string[]; actions: string[]; subjectTypes: string[] }> {
  const [actors, actions, types] = await Promise.all([
    db.selectDistinct({ v: activity.actorEmail }).from(activity).orderBy(activity.actorEmail),
    db.selectDistinct({ v: activity.action }).from(activity).orderBy(activity.action),
    db.selectDistinct({ v: activity.subjectType }).from(activity).orderBy(activity.subjectType),
  ]);
  return { actors: actors.map((r) => r.v), actions: actions.map((r) => r.v), subjectTypes: types.map((r) => r.v) };
}
