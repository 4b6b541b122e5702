/**
 * Cases and case revisions (DESIGN.md §1, §3). Revisions are immutable: an edit inserts revision
 * N+1 and moves the case's pointer, guarded by the revision the edit started from (optimistic
 * concurrency). Every write runs in one transaction.
 */
import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { writeTransaction, type Tx } from "../write-transaction";
import { caseRevisions, cases, prompts, systems } from "../schema";
import type { CaseContent, CaseSource, CaseStatus } from "@/lib/library/case-content";
import { caseKeyProblem, generateCaseKey } from "@/lib/library/case-key";
import { decodeContent, encodeDetails, sameContent } from "@/lib/library/content-codec";
import { LibraryError } from "@/lib/library/errors";
import { eraseTrialText, REMOVED_CASE_SKIP_REASON } from "@/lib/bench/erase";
import { mergeCaseFields, type CaseFields } from "@/lib/library/forms";
import { LIMITS } from "@/lib/library/limits";
import { authorColumnsOf, type Author } from "@/lib/audit/author";
import { recordActivityTx } from "./activity";

/** Sort orders of the Cases table. */
export const CASE_SORTS = ["updated-desc", "updated-asc", "id-asc", "id-desc"] as const;
export type CaseSort = (typeof CASE_SORTS)[number];

/** Filters of the Cases tab; every field lives in the URL. `page` is 1-based. */
export interface CaseListQuery {
  systemId: string;
  source?: CaseSource;
  promptId?: number;
  status?: CaseStatus;
  q?: string;
  page?: number;
  pageSize?: number;
  sort?: CaseSort;
  /** Bound of a text search (default SEARCH_MATCH_LIMIT); tests use a small one. */
  searchLimit?: number;
}

/** One row of the Cases table. `input`/`expected` are cut to 300 characters for display. */
export interface CaseListRow {
  id: number;
  caseKey: string;
  promptId: number;
  promptName: string;
  source: CaseSource;
  status: CaseStatus;
  userCorrected: boolean;
  input: string;
  expected: string;
  revisionNumber: number;
  updatedAt: number;
}

/** A page of the Cases table with the pager's numbers. */
export interface CaseListPage {
  rows: CaseListRow[];
  /** Matching cases; for a bounded search, at most SEARCH_MATCH_LIMIT (see `truncated`). */
  total: number;
  /** True when a search matched more than SEARCH_MATCH_LIMIT cases and only the newest are listed. */
  truncated: boolean;
  page: number;
  pageSize: number;
  pageCount: number;
}

/** Where an imported, retained or code case came from. */
export type CaseOrigin =
  | { kind: "dataset"; datasetId?: number; datasetName: string; version?: number; row: number }
  | { kind: "code"; file: string; row?: number; release?: string }
  | { kind: "bench"; benchId: number; fromCaseId?: number; trialCaseRevisionId?: number }
  | { kind: "generated"; note?: string; runId?: string; proposalId?: number; model?: string; fromCaseId?: number };

/** A case with its current content and its list of revisions. */
export interface CaseDetail {
  id: number;
  caseKey: string;
  systemId: string;
  promptId: number;
  promptName: string;
  source: CaseSource;
  status: CaseStatus;
  userCorrected: boolean;
  origin: CaseOrigin | null;
  revisionNumber: number;
  createdAt: number;
  updatedAt: number;
  removedAt: number | null;
  content: CaseContent;
  /** Newest first; `authorEmail` is who saved it (issue 19), null when not recorded. */
  revisions: { number: number; createdAt: number; authorEmail: string | null }[];
}

/** Page size of the Cases tab (issue #2: ten per page). */
export const CASES_PAGE_SIZE = 10;

/** Quotes one search term for an FTS5 MATCH (a phrase; inner quotes doubled). */
function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Searches are bounded: for a term in very many cases, only the newest matches (by creation) are
 * listed, and the page says so. Keeps a search under the Cases tab's time budget on 100,000 cases.
 */
export const SEARCH_MATCH_LIMIT = 5_000;

/**
 * Search condition over the case ID and the current input and expected result of one system's
 * cases: every whitespace-separated term must occur in one of them (case-insensitive substring;
 * different terms may match different fields). Terms of 3+ characters use the trigram index
 * (migration 0006 indexes the case ID too), limited to the newest {@link SEARCH_MATCH_LIMIT}
 * matches; shorter terms fall back to LIKE on the case ID and the revision row.
 */
function searchCondition(systemId: string, q: string, limit: number): SQL | undefined {
  const terms = q.trim().slice(0, LIMITS.searchQuery).split(/\s+/).filter(Boolean);
  if (terms.length === 0) return undefined;
  const parts: SQL[] = [];
  const long = terms.filter((t) => [...t].length >= 3);
  const short = terms.filter((t) => [...t].length < 3);
  if (long.length) {
    const match = long.map(ftsPhrase).join(" AND ");
    // Walk the index newest-first, keep this system's live cases, stop after limit + 1 of them.
    parts.push(
      sql`${cases.id} IN (SELECT s.rowid FROM case_search s JOIN cases c2 ON c2.id = s.rowid WHERE case_search MATCH ${match} AND c2.system_id = ${systemId} AND c2.removed_at IS NULL ORDER BY s.rowid DESC LIMIT ${limit + 1})`,
    );
  }
  for (const t of short) {
    const p = likePattern(t);
    parts.push(
      sql`(${cases.caseKey} LIKE ${p} ESCAPE '\\' OR EXISTS (SELECT 1 FROM case_revisions r WHERE r.id = ${cases.currentRevisionId} AND (r.input LIKE ${p} ESCAPE '\\' OR r.expected LIKE ${p} ESCAPE '\\')))`,
    );
  }
  return and(...parts);
}

function listConditions(q: CaseListQuery): SQL {
  const conds: (SQL | undefined)[] = [eq(cases.systemId, q.systemId), isNull(cases.removedAt)];
  if (q.source) conds.push(eq(cases.source, q.source));
  if (q.status) conds.push(eq(cases.status, q.status));
  if (q.promptId) conds.push(eq(cases.promptId, q.promptId));
  if (q.q) conds.push(searchCondition(q.systemId, q.q, q.searchLimit ?? SEARCH_MATCH_LIMIT));
  return and(...conds)!;
}

function orderOf(sort: CaseSort | undefined) {
  switch (sort) {
    case "updated-asc":
      return [asc(cases.updatedAt), asc(cases.id)];
    case "id-asc":
      return [asc(cases.caseKey)];
    case "id-desc":
      return [desc(cases.caseKey)];
    default:
      return [desc(cases.updatedAt), desc(cases.id)];
  }
}

/** Live cases matching the non-text filters, from the trigger-maintained `case_counts` table. */
function countFromCounters(db: Db, q: CaseListQuery): number {
  const conds: SQL[] = [sql`system_id = ${q.systemId}`];
  if (q.source) conds.push(sql`source = ${q.source}`);
  if (q.status) conds.push(sql`status = ${q.status}`);
  if (q.promptId) conds.push(sql`prompt_id = ${q.promptId}`);
  const row = db.get<{ n: number | null }>(sql`SELECT sum(n) AS n FROM case_counts WHERE ${sql.join(conds, sql` AND `)}`);
  return row?.n ?? 0;
}

/**
 * One page of a system's live cases, filtered and sorted. A page past the end is clamped to the
 * last page (an old link still shows something sensible).
 */
export async function listCases(db: Db, q: CaseListQuery): Promise<CaseListPage> {
  const pageSize = q.pageSize ?? CASES_PAGE_SIZE;
  const where = listConditions(q);
  let total = q.q?.trim()
    ? (db
        .select({ n: sql<number>`count(*)` })
        .from(cases)
        .where(where)
        .get()?.n ?? 0)
    : countFromCounters(db, q);
  const limit = q.searchLimit ?? SEARCH_MATCH_LIMIT;
  const truncated = Boolean(q.q?.trim()) && total > limit;
  if (truncated) total = limit;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.floor(q.page ?? 1)), pageCount);
  const rows = db
    .select({
      id: cases.id,
      caseKey: cases.caseKey,
      promptId: cases.promptId,
      promptName: prompts.name,
      source: cases.source,
      status: cases.status,
      userCorrected: cases.userCorrected,
      input: sql<string>`substr(${caseRevisions.input}, 1, 300)`,
      expected: sql<string>`substr(${caseRevisions.expected}, 1, 300)`,
      revisionNumber: cases.revisionNumber,
      updatedAt: cases.updatedAt,
    })
    .from(cases)
    .innerJoin(caseRevisions, eq(caseRevisions.id, cases.currentRevisionId))
    .innerJoin(prompts, eq(prompts.id, cases.promptId))
    .where(where)
    .orderBy(...orderOf(q.sort))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all();
  return { rows, total, truncated, page, pageSize, pageCount };
}

/**
 * Finds the live case holding a case ID, or null. Case IDs are unique within a prompt's library:
 * with `promptId` the answer is that prompt's case; without it, the oldest live case holding the ID.
 */
export async function findCaseByKey(
  db: Db,
  caseKey: string,
  promptId?: number,
): Promise<{ id: number; systemId: string; promptName: string; systemName: string } | null> {
  return (
    db
      .select({ id: cases.id, systemId: cases.systemId, promptName: prompts.name, systemName: systems.name })
      .from(cases)
      .innerJoin(prompts, eq(prompts.id, cases.promptId))
      .innerJoin(systems, eq(systems.id, cases.systemId))
      .where(and(eq(cases.caseKey, caseKey), isNull(cases.removedAt), promptId === undefined ? undefined : eq(cases.promptId, promptId)))
      .orderBy(asc(cases.id))
      .get() ?? null
  );
}

/**
 * A case with its current content and revision list; removed cases are returned too (with
 * `removedAt` set and empty content) so a page can say so. Null when no such case ever existed.
 */
export async function getCase(db: Db, caseId: number): Promise<CaseDetail | null> {
  const row = db
    .select({
      id: cases.id,
      caseKey: cases.caseKey,
      systemId: cases.systemId,
      promptId: cases.promptId,
      promptName: prompts.name,
      source: cases.source,
      status: cases.status,
      userCorrected: cases.userCorrected,
      origin: cases.origin,
      revisionNumber: cases.revisionNumber,
      createdAt: cases.createdAt,
      updatedAt: cases.updatedAt,
      removedAt: cases.removedAt,
      input: caseRevisions.input,
      expected: caseRevisions.expected,
      details: caseRevisions.details,
    })
    .from(cases)
    .innerJoin(prompts, eq(prompts.id, cases.promptId))
    .leftJoin(caseRevisions, eq(caseRevisions.id, cases.currentRevisionId))
    .where(eq(cases.id, caseId))
    .get();
  if (!row) return null;
  const revisions = db
    .select({ number: caseRevisions.number, createdAt: caseRevisions.createdAt, authorEmail: caseRevisions.authorEmail })
    .from(caseRevisions)
    .where(eq(caseRevisions.caseId, caseId))
    .orderBy(desc(caseRevisions.number))
    .all();
  const { input, expected, details, origin, ...rest } = row;
  return {
    ...rest,
    origin: origin ? (JSON.parse(origin) as CaseOrigin) : null,
    content: decodeContent(input ?? "", expected ?? "", details ?? "{}"),
    revisions,
  };
}

/** One revision's content (read-only view of an earlier revision), or null. */
export async function getCaseRevision(
  db: Db,
  caseId: number,
  number: number,
): Promise<{ id: number; number: number; createdAt: number; authorEmail: string | null; erased: boolean; content: CaseContent } | null> {
  const r = db
    .select()
    .from(caseRevisions)
    .where(and(eq(caseRevisions.caseId, caseId), eq(caseRevisions.number, number)))
    .get();
  if (!r) return null;
  return {
    id: r.id,
    number: r.number,
    createdAt: r.createdAt,
    authorEmail: r.authorEmail ?? null,
    erased: r.erasedAt != null,
    content: decodeContent(r.input, r.expected, r.details),
  };
}

/** A new case to insert: target prompt, content, source and optional fixed case ID. */
export interface NewCase {
  systemId: string;
  promptId: number;
  caseKey?: string;
  source: CaseSource;
  status?: CaseStatus;
  origin?: CaseOrigin | null;
  content: CaseContent;
  /** Who adds it (issue 19): stored on revision 1 and in the activity; null for the seed. */
  author?: Author | null;
}

function duplicateMessage(key: string, existing: { promptName: string; systemName: string }): string {
  return `Case ID "${key}" is already used by a case of prompt "${existing.promptName}" in "${existing.systemName}". Choose another ID or leave it empty to generate one.`;
}

/** The live case of a prompt holding a case ID (case IDs are unique within a prompt's library). */
function existingKey(tx: Tx, promptId: number, key: string) {
  // Cheap index probe first; the joins for the message run only on a hit.
  if (!tx.get(sql`SELECT 1 FROM cases WHERE prompt_id = ${promptId} AND case_key = ${key} AND removed_at IS NULL`)) return undefined;
  return tx
    .select({ id: cases.id, promptName: prompts.name, systemName: systems.name })
    .from(cases)
    .innerJoin(prompts, eq(prompts.id, cases.promptId))
    .innerJoin(systems, eq(systems.id, cases.systemId))
    .where(and(eq(cases.promptId, promptId), eq(cases.caseKey, key), isNull(cases.removedAt)))
    .get();
}

/** Inserts one case and its revision 1 inside an open transaction; returns the case id. */
/** `quiet`: no activity row per case (a bulk add records one summary row itself). */
function insertCaseTx(tx: Tx, c: NewCase, promptName: string, now: number, quiet = false): { id: number; caseKey: string } {
  let key = c.caseKey ?? "";
  if (key) {
    const problem = caseKeyProblem(key);
    if (problem) throw new LibraryError("validation", problem, { caseKey: problem });
    const existing = existingKey(tx, c.promptId, key);
    if (existing) {
      const msg = duplicateMessage(key, existing);
      throw new LibraryError("duplicate_case_id", msg, { caseKey: msg });
    }
  } else {
    do key = generateCaseKey(promptName, (n) => randomBytes(n));
    while (existingKey(tx, c.promptId, key));
  }
  const { id } = tx
    .insert(cases)
    .values({
      caseKey: key,
      systemId: c.systemId,
      promptId: c.promptId,
      source: c.source,
      status: c.status ?? "active",
      origin: c.origin ? JSON.stringify(c.origin) : null,
      revisionNumber: 1,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: cases.id })
    .get();
  const rev = tx
    .insert(caseRevisions)
    .values({
      caseId: id,
      number: 1,
      input: c.content.input,
      expected: c.content.expected,
      details: encodeDetails(c.content),
      createdAt: now,
      ...authorColumnsOf(c.author),
    })
    .returning({ id: caseRevisions.id })
    .get();
  tx.update(cases).set({ currentRevisionId: rev.id }).where(eq(cases.id, id)).run();
  if (!quiet)
    recordActivityTx(tx, c.author, { action: "case.add", subjectType: "case", subjectId: id, systemId: c.systemId, detail: `${key} (${c.source})` }, now);
  return { id, caseKey: key };
}

function promptOf(tx: Tx, systemId: string, promptId: number): { name: string } {
  const p = tx.select({ name: prompts.name, systemId: prompts.systemId }).from(prompts).where(eq(prompts.id, promptId)).get();
  if (!p || p.systemId !== systemId) {
    const msg = `Prompt #${promptId} does not exist in system "${systemId}". Choose one of the system's prompts.`;
    throw new LibraryError("validation", msg, { promptId: msg });
  }
  return p;
}

/**
 * Adds one case (revision 1).
 * @returns the new case's id and case ID
 * @throws LibraryError `duplicate_case_id` naming the case that holds the ID; `validation` for an
 *   unknown prompt or a malformed case ID. Nothing is written when it throws.
 */
export async function addCase(db: Db, c: NewCase): Promise<{ id: number; caseKey: string }> {
  try {
    return writeTransaction(db, (tx) => insertCaseTx(tx, c, promptOf(tx, c.systemId, c.promptId).name, Date.now()));
  } catch (e) {
    // Two writers racing for the same ID: the partial unique index is the final judge.
    if (e instanceof Error && "code" in e && (e as { code: string }).code === "SQLITE_CONSTRAINT_UNIQUE" && c.caseKey) {
      const msg = `Case ID "${c.caseKey}" is already used by another case of this prompt. Choose another ID.`;
      throw new LibraryError("duplicate_case_id", msg, { caseKey: msg });
    }
    throw e;
  }
}

/**
 * Adds one case (revision 1) inside an open write transaction (accepting a generated proposal
 * together with its review record).
 * @throws LibraryError as {@link addCase}
 */
export function addCaseTx(tx: Tx, c: NewCase): { id: number; caseKey: string } {
  return insertCaseTx(tx, c, promptOf(tx, c.systemId, c.promptId).name, Date.now());
}

/**
 * Adds many cases in ONE transaction (import, seed, publish): all or nothing.
 * @throws LibraryError naming the 1-based position of the first bad case; nothing is written then.
 */
export async function addCases(db: Db, list: NewCase[]): Promise<{ id: number; caseKey: string }[]> {
  return writeTransaction(db, (tx) => addCasesTx(tx, list));
}

/**
 * {@link addCases} inside the caller's open write transaction. Each case's revision 1 records its
 * author, but no activity row is written per case: the caller records the bulk change once. (a workflow that writes more in the
 * same transaction, e.g. Use a dataset with new revisions): throws synchronously, so the caller's
 * whole transaction rolls back.
 * @throws LibraryError naming the 1-based position of the first bad case
 */
export function addCasesTx(tx: Tx, list: NewCase[]): { id: number; caseKey: string }[] {
  const names = new Map<number, string>();
  const now = Date.now();
  return list.map((c, i) => {
    try {
      let name = names.get(c.promptId);
      if (name === undefined) names.set(c.promptId, (name = promptOf(tx, c.systemId, c.promptId).name));
      return insertCaseTx(tx, c, name, now, true);
    } catch (e) {
      if (e instanceof LibraryError) throw new LibraryError(e.code, `Case ${i + 1} of ${list.length}: ${e.message}`, e.fieldErrors);
      throw e;
    }
  });
}

function liveCase(tx: Tx, caseId: number) {
  const c = tx.select().from(cases).where(eq(cases.id, caseId)).get();
  if (!c) throw new LibraryError("not_found", `Case #${caseId} does not exist.`);
  if (c.removedAt != null)
    throw new LibraryError("removed", `Case "${c.caseKey}" was removed on ${new Date(c.removedAt).toISOString().slice(0, 10)}; it can no longer be edited.`);
  return c;
}

/**
 * Save for future benches: stores the edited fields as a new case revision.
 * Editing a `retained` case marks it corrected by the user, so automatic retention never
 * overwrites it (issue #2 §6).
 * @param baseRevision the revision number the edit started from
 * @returns the new revision number
 * @throws LibraryError `conflict` when the case moved past `baseRevision` (nothing is saved, the
 *   caller keeps the user's text), `unchanged` when nothing differs, `not_found`/`removed`.
 */
export async function saveCaseRevision(
  db: Db,
  caseId: number,
  baseRevision: number,
  fields: CaseFields,
  author?: Author | null,
): Promise<{ revisionNumber: number }> {
  return writeTransaction(db, (tx) => {
    const c = liveCase(tx, caseId);
    if (c.source === "generated") throw new LibraryError("not_allowed", "Generated cases are read-only. Use Customize to make an editable copy.");
    if (c.revisionNumber !== baseRevision) {
      throw new LibraryError(
        "conflict",
        `Case "${c.caseKey}" was changed while you edited it: you started from revision ${baseRevision}, it is now at revision ${c.revisionNumber}. Nothing was saved; your edits are still in the form. Open the latest revision, then apply them again.`,
      );
    }
    const cur = tx.select().from(caseRevisions).where(eq(caseRevisions.id, c.currentRevisionId!)).get()!;
    const before = decodeContent(cur.input, cur.expected, cur.details);
    const after = mergeCaseFields(before, fields);
    if (sameContent(before, after)) throw new LibraryError("unchanged", "Nothing changed since the current revision; no new revision was made.");
    const now = Date.now();
    const number = c.revisionNumber + 1;
    const rev = tx
      .insert(caseRevisions)
      .values({ caseId, number, input: after.input, expected: after.expected, details: encodeDetails(after), createdAt: now, ...authorColumnsOf(author) })
      .returning({ id: caseRevisions.id })
      .get();
    recordActivityTx(
      tx,
      author,
      { action: "case.revise", subjectType: "case", subjectId: caseId, systemId: c.systemId, detail: `${c.caseKey} r${number}` },
      now,
    );
    const res = tx
      .update(cases)
      .set({ currentRevisionId: rev.id, revisionNumber: number, updatedAt: now, userCorrected: c.source === "retained" ? true : c.userCorrected })
      .where(and(eq(cases.id, caseId), eq(cases.revisionNumber, baseRevision)))
      .run();
    if (res.changes !== 1) throw new LibraryError("conflict", `Case "${c.caseKey}" was changed while you edited it. Nothing was saved.`);
    return { revisionNumber: number };
  });
}

/**
 * Customize a generated case: a custom case with the same content (origin `generated` with
 * `fromCaseId`), editable, while the generated one is paused so benches do not run both.
 * @returns the custom copy's id and case ID
 * @throws LibraryError `not_allowed` when the case is not generated or already has a live copy;
 *   `not_found` / `removed`
 */
export async function customizeCase(db: Db, caseId: number, author?: Author | null): Promise<{ id: number; caseKey: string }> {
  return writeTransaction(db, (tx) => {
    const g = liveCase(tx, caseId);
    if (g.source !== "generated") throw new LibraryError("not_allowed", "Only generated cases can be customized; edit this one directly.");
    const copy = tx.get<{ case_key: string }>(
      sql`SELECT case_key FROM cases WHERE removed_at IS NULL AND source = 'custom' AND json_extract(origin, '$.fromCaseId') = ${caseId}`,
    );
    if (copy) throw new LibraryError("not_allowed", `This case is already customized: ${copy.case_key} is its editable copy.`);
    const rev = tx.select().from(caseRevisions).where(eq(caseRevisions.id, g.currentRevisionId!)).get()!;
    const origin = g.origin ? (JSON.parse(g.origin) as CaseOrigin) : null;
    const made = insertCaseTx(
      tx,
      {
        systemId: g.systemId,
        promptId: g.promptId,
        source: "custom",
        origin: { ...(origin?.kind === "generated" ? origin : { kind: "generated" as const }), fromCaseId: g.id },
        content: decodeContent(rev.input, rev.expected, rev.details),
        author,
      },
      promptOf(tx, g.systemId, g.promptId).name,
      Date.now(),
    );
    if (g.status !== "paused") tx.update(cases).set({ status: "paused", updatedAt: Date.now() }).where(eq(cases.id, g.id)).run();
    return made;
  });
}

/**
 * Pause (out of future benches) or Resume. Idempotent: setting the status it already has is fine.
 * @throws LibraryError `not_found` / `removed`
 */
export async function setCaseStatus(db: Db, caseId: number, status: CaseStatus, author?: Author | null): Promise<{ caseKey: string }> {
  return writeTransaction(db, (tx) => {
    const c = liveCase(tx, caseId);
    if (c.status !== status) {
      tx.update(cases).set({ status, updatedAt: Date.now() }).where(eq(cases.id, caseId)).run();
      recordActivityTx(tx, author, {
        action: status === "paused" ? "case.pause" : "case.resume",
        subjectType: "case",
        subjectId: caseId,
        systemId: c.systemId,
        detail: c.caseKey,
      });
    }
    return { caseKey: c.caseKey };
  });
}

/** True when the library offers Remove for this case: custom cases and user-corrected ones (issue #2 §7). */
export function canRemove(c: { source: CaseSource; userCorrected: boolean }): boolean {
  return c.source === "custom" || c.userCorrected;
}

/**
 * Removes a case: it leaves the library, its case ID becomes free, and the saved content of all
 * its revisions is erased — also where benches quoted it: the trials that used the case keep
 * their verdicts, scores and counts but lose check messages, rendered prompts and recorded
 * answers (lib/bench/erase.ts); trials still queued are skipped. The automatic regression copies
 * of the case (source `retained`, made from its failures) go the same way, unless the user
 * corrected them (then they are the user's). Revision rows stay, so scores of earlier benches
 * that point at them stay. One transaction.
 * @returns the case ID, and the case IDs of the retained copies removed with it
 * @throws LibraryError `not_allowed` for sources other than custom (unless corrected by the user)
 */
export async function removeCase(db: Db, caseId: number, author?: Author | null): Promise<{ caseKey: string; alsoRemoved: string[] }> {
  return writeTransaction(db, (tx) => {
    const c = liveCase(tx, caseId);
    if (!canRemove(c)) {
      throw new LibraryError(
        "not_allowed",
        `Case "${c.caseKey}" comes from ${c.source}; only custom or user-corrected cases can be removed. Pause it instead.`,
      );
    }
    const now = Date.now();
    const copies = tx
      .select({ id: cases.id, caseKey: cases.caseKey })
      .from(cases)
      .where(
        and(
          eq(cases.source, "retained"),
          eq(cases.userCorrected, false),
          isNull(cases.removedAt),
          sql`json_extract(${cases.origin}, '$.fromCaseId') = ${caseId}`,
        ),
      )
      .orderBy(asc(cases.id))
      .all();
    for (const id of [caseId, ...copies.map((x) => x.id)]) {
      tx.update(cases).set({ removedAt: now, updatedAt: now }).where(eq(cases.id, id)).run();
      tx.update(caseRevisions).set({ input: "", expected: "", details: "{}", erasedAt: now }).where(eq(caseRevisions.caseId, id)).run();
      // Same connection, so these statements run inside this transaction (better-sqlite3 is synchronous).
      eraseTrialsOfCase(db, id, now);
    }
    recordActivityTx(tx, author, { action: "case.remove", subjectType: "case", subjectId: caseId, systemId: c.systemId, detail: c.caseKey }, now);
    return { caseKey: c.caseKey, alsoRemoved: copies.map((x) => x.caseKey) };
  });
}

/**
 * The trials of a removed case: finished ones lose the case's details (eraseTrialText), queued
 * ones are skipped (their case content is gone). Runs inside the caller's transaction.
 */
function eraseTrialsOfCase(db: Db, caseId: number, now: number): void {
  const c = db.$client;
  c.prepare(
    `UPDATE trials SET status = 'skipped', error = ?, finished_at = ?
     WHERE status = 'queued' AND bench_case_id IN (SELECT id FROM bench_cases WHERE case_id = ?)`,
  ).run(REMOVED_CASE_SKIP_REASON, now, caseId);
  const rows = c
    .prepare(
      `SELECT t.id, t.checks, t.record, t.output, k.kind FROM trials t
       JOIN bench_cases bc ON bc.id = t.bench_case_id JOIN bench_candidates k ON k.id = t.candidate_id
       WHERE bc.case_id = ? AND (t.checks IS NOT NULL OR t.record IS NOT NULL OR t.output IS NOT NULL)`,
    )
    .all(caseId) as { id: number; checks: string | null; record: string | null; output: string | null; kind: "model" | "recorded" }[];
  const write = c.prepare("UPDATE trials SET checks = ?, record = ?, output = ? WHERE id = ?");
  for (const r of rows) {
    const e = eraseTrialText(r, r.kind);
    write.run(e.checks, e.record, e.output, r.id);
  }
}

/** A live case of a prompt with its current revision's content (bench planning input). */
export interface PromptCase {
  caseId: number;
  caseKey: string;
  caseRevisionId: number;
  source: CaseSource;
  status: CaseStatus;
  origin: CaseOrigin | null;
  /** A retained case the user edited (see saveCaseRevision). */
  userCorrected: boolean;
  content: CaseContent;
}

/** Every live case of a prompt with its current content, in creation order. */
export async function listPromptCases(db: Db, promptId: number): Promise<PromptCase[]> {
  const rows = db
    .select({
      caseId: cases.id,
      caseKey: cases.caseKey,
      caseRevisionId: cases.currentRevisionId,
      source: cases.source,
      status: cases.status,
      origin: cases.origin,
      userCorrected: cases.userCorrected,
      input: caseRevisions.input,
      expected: caseRevisions.expected,
      details: caseRevisions.details,
    })
    .from(cases)
    .innerJoin(caseRevisions, eq(caseRevisions.id, cases.currentRevisionId))
    .where(and(eq(cases.promptId, promptId), isNull(cases.removedAt)))
    .orderBy(asc(cases.id))
    .all();
  return rows.map((r) => ({
    caseId: r.caseId,
    caseKey: r.caseKey,
    caseRevisionId: r.caseRevisionId!,
    source: r.source,
    status: r.status,
    origin: r.origin ? (JSON.parse(r.origin) as CaseOrigin) : null,
    userCorrected: r.userCorrected,
    content: decodeContent(r.input, r.expected, r.details),
  }));
}

/**
 * A reader of case revisions' content by revision id, for the trials of a bench: each revision is
 * read (and decoded) the first time a trial asks for it and kept after. Reading a 5,000-case suite
 * up front held up a bench's first trials by ~60 ms per trial thread (issue #5, bench/runner.ts).
 * @returns `(revisionId) => content`, or undefined when no such revision is stored
 */
export function caseRevisionReader(db: Db): (revisionId: number) => CaseContent | undefined {
  const out = new Map<number, CaseContent>();
  const stmt = db.$client.prepare("SELECT input, expected, details FROM case_revisions WHERE id = ?");
  return (id) => {
    let c = out.get(id);
    if (c === undefined) {
      const r = stmt.get(id) as { input: string; expected: string; details: string } | undefined;
      if (!r) return undefined;
      out.set(id, (c = decodeContent(r.input, r.expected, r.details)));
    }
    return c;
  };
}

/** Result of {@link reviseCases}. */
export interface BulkRevisionResult {
  /** Cases that got a new revision, with the new revision number. */
  revised: { caseId: number; caseKey: string; revisionNumber: number }[];
  /** Cases the change left as they were. */
  unchanged: number;
}

/**
 * Makes new revisions of many live cases of a system in ONE write transaction (bulk actions of
 * the Cases tab): `change` gets each case's current content and returns the new content, or null
 * to leave it. All or nothing. Editing a `retained` case marks it corrected by the user, as a
 * single save does.
 * @param caseIds the cases; ids of removed cases or of other systems are refused
 * @throws LibraryError `not_found` naming the first case that is not a live case of the system;
 *   nothing is written then
 */
export async function reviseCases(
  db: Db,
  systemId: string,
  caseIds: readonly number[],
  change: (content: CaseContent, c: { caseId: number; caseKey: string }) => CaseContent | null,
  author?: Author | null,
): Promise<BulkRevisionResult> {
  return writeTransaction(db, (tx) => {
    const now = Date.now();
    const out: BulkRevisionResult = { revised: [], unchanged: 0 };
    for (const id of caseIds) {
      const c = tx.select().from(cases).where(eq(cases.id, id)).get();
      if (!c || c.systemId !== systemId || c.removedAt != null)
        throw new LibraryError("not_found", `Case #${id} is not a case of this system's library (it may have been removed). Nothing was changed.`);
      const cur = tx.select().from(caseRevisions).where(eq(caseRevisions.id, c.currentRevisionId!)).get()!;
      const before = decodeContent(cur.input, cur.expected, cur.details);
      const after = change(before, { caseId: id, caseKey: c.caseKey });
      if (!after || sameContent(before, after)) {
        out.unchanged++;
        continue;
      }
      const number = c.revisionNumber + 1;
      const rev = tx
        .insert(caseRevisions)
        .values({ caseId: id, number, input: after.input, expected: after.expected, details: encodeDetails(after), createdAt: now, ...authorColumnsOf(author) })
        .returning({ id: caseRevisions.id })
        .get();
      recordActivityTx(tx, author, { action: "case.revise", subjectType: "case", subjectId: id, systemId, detail: `${c.caseKey} r${number} (bulk)` }, now);
      tx.update(cases)
        .set({ currentRevisionId: rev.id, revisionNumber: number, updatedAt: now, userCorrected: c.source === "retained" ? true : c.userCorrected })
        .where(eq(cases.id, id))
        .run();
      out.revised.push({ caseId: id, caseKey: c.caseKey, revisionNumber: number });
    }
    return out;
  });
}
