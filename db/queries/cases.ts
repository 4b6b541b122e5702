/**
 * Cases and case revisions (DESIGN.md §1, §3). Revisions are immutable: an edit inserts revision
 * N+1 and moves the case's pointer, guarded by the revision the edit started from (optimistic
 * concurrency). Every write runs in one transaction.
 */
import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../client";
import { isPostgres, isUniqueViolation, rawRows } from "../dialect";
import { first } from "../rows";
import { transaction, type TxDb as Tx } from "../transaction";
import { benchCandidates, benchCases, caseRevisions, cases, prompts, systems, trials } from "../schema";
import type { CaseContent, CaseSource, CaseStatus } from "@/lib/library/case-content";
import { caseKeyProblem, generateCaseKey } from "@/lib/library/case-key";
import { decodeContent, encodeDetails, sameContent } from "@/lib/library/content-codec";
import { LibraryError } from "@/lib/library/errors";
import { eraseTrialText, REMOVED_CASE_SKIP_REASON } from "@/lib/bench/erase";
import { mergeCaseFields, type CaseFields } from "@/lib/library/forms";
import { LIMITS } from "@/lib/library/limits";
import { authorColumnsOf, type Author } from "@/lib/audit/author";
import { recordActivityTx } from "./activity";
import { shortTermMatches } from "./case-search-short";
import { withCaseCountsOnce } from "./case-counts-once";

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

/** `column LIKE pattern` with backslash escapes, case-insensitive on both stores (ILIKE on PostgreSQL). */
function likeEscaped(db: Db, column: SQL | typeof cases.caseKey, pattern: string): SQL {
  return isPostgres(db) ? sql`${column} ILIKE ${pattern} ESCAPE '\\'` : sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}

/**
 * Search condition over the case ID and the current input and expected result of one system's
 * cases: every whitespace-separated term must occur in one of them (case-insensitive substring;
 * different terms may match different fields). Terms of 3+ characters use the trigram index,
 * limited to the newest {@link SEARCH_MATCH_LIMIT} matches: on SQLite the FTS5 trigram table
 * `case_search` (migration 0006 indexes the case ID too); on PostgreSQL the trigger-kept
 * `case_search` table, whose `haystack` (input, expected result and case ID, one per line) a
 * pg_trgm GIN index answers with ILIKE (db/migrations-pg/0001_case_search.sql). Shorter terms fall
 * back to LIKE on the case ID and the revision row (SQLite) or to ILIKE on the haystack in the same
 * bounded newest-first walk of `case_search` (PostgreSQL: no trigram for them, but one table and
 * stopping after the bound, 10× faster at 100,000 cases than the join). On PostgreSQL a search of
 * short terms only finds its matches first (db/queries/case-search-short.ts: the walk for common
 * terms, the `case_search_grams` index for rare ones), the same set the walk alone would give.
 */
async function searchCondition(db: Db, systemId: string, q: string, limit: number): Promise<SQL | undefined> {
  const terms = q.trim().slice(0, LIMITS.searchQuery).split(/\s+/).filter(Boolean);
  if (terms.length === 0) return undefined;
  const parts: SQL[] = [];
  const long = terms.filter((t) => [...t].length >= 3);
  const short = terms.filter((t) => [...t].length < 3);
  if (isPostgres(db) && long.length === 0) {
    const { ids } = await shortTermMatches(db, systemId, short, short.map(likePattern), limit + 1, await countFromCounters(db, { systemId }));
    return sql`${cases.id} = ANY(${`{${ids.join(",")}}`}::int[])`;
  }
  if (isPostgres(db)) {
    // case_search holds only live cases with a current revision (its trigger); a term has no
    // whitespace, so it is in one of the three fields exactly when it is in the haystack.
    const matches = sql.join(
      terms.map((t) => sql`haystack ILIKE ${likePattern(t)}`),
      sql` AND `,
    );
    // = ANY(ARRAY(…)), not IN (…): the planner runs the bounded search once and fetches its cases
    // by primary key; with IN it hash-joined against a scan of every case (5 ms vs 20–30 ms at 100,000).
    parts.push(
      sql`${cases.id} = ANY(ARRAY(SELECT case_id FROM case_search WHERE system_id = ${systemId} AND ${matches} ORDER BY case_id DESC LIMIT ${limit + 1}))`,
    );
    return parts[0];
  }
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
      or(
        likeEscaped(db, cases.caseKey, p),
        sql`EXISTS (SELECT 1 FROM case_revisions r WHERE r.id = ${cases.currentRevisionId} AND (${likeEscaped(db, sql`r.input`, p)} OR ${likeEscaped(db, sql`r.expected`, p)}))`,
      )!,
    );
  }
  return and(...parts);
}

async function listConditions(db: Db, q: CaseListQuery): Promise<SQL> {
  const conds: (SQL | undefined)[] = [eq(cases.systemId, q.systemId), isNull(cases.removedAt)];
  if (q.source) conds.push(eq(cases.source, q.source));
  if (q.status) conds.push(eq(cases.status, q.status));
  if (q.promptId) conds.push(eq(cases.promptId, q.promptId));
  if (q.q) conds.push(await searchCondition(db, q.systemId, q.q, q.searchLimit ?? SEARCH_MATCH_LIMIT));
  return and(...conds)!;
}

/** The Cases table's order over `c`: the cases table itself, or a subquery of its columns. */
function orderOf(sort: CaseSort | undefined, c: { id: SQLWrapper; caseKey: SQLWrapper; updatedAt: SQLWrapper } = cases) {
  switch (sort) {
    case "updated-asc":
      return [asc(c.updatedAt), asc(c.id)];
    case "id-asc":
      return [asc(c.caseKey)];
    case "id-desc":
      return [desc(c.caseKey)];
    default:
      return [desc(c.updatedAt), desc(c.id)];
  }
}

/** Live cases matching the non-text filters, from the trigger-maintained `case_counts` table (both stores). */
async function countFromCounters(db: Db, q: CaseListQuery): Promise<number> {
  const conds: SQL[] = [sql`system_id = ${q.systemId}`];
  if (q.source) conds.push(sql`source = ${q.source}`);
  if (q.status) conds.push(sql`status = ${q.status}`);
  if (q.promptId) conds.push(sql`prompt_id = ${q.promptId}`);
  // sum() of integers is bigint on PostgreSQL (a number through the store, but raw rows are text): Number() both.
  const [row] = await rawRows<{ n: number | string | null }>(db, sql`SELECT coalesce(sum(n), 0) AS n FROM case_counts WHERE ${sql.join(conds, sql` AND `)}`);
  return Number(row?.n ?? 0);
}

/**
 * One page of a system's live cases, filtered and sorted. A page past the end is clamped to the
 * last page (an old link still shows something sensible).
 */
export async function listCases(db: Db, q: CaseListQuery): Promise<CaseListPage> {
  const pageSize = q.pageSize ?? CASES_PAGE_SIZE;
  const where = await listConditions(db, q);
  let total = q.q?.trim()
    ? ((
        await first(
          db
            .select({ n: sql<number>`count(*)`.mapWith(Number) })
            .from(cases)
            .where(where),
        )
      )?.n ?? 0)
    : await countFromCounters(db, q);
  const limit = q.searchLimit ?? SEARCH_MATCH_LIMIT;
  const truncated = Boolean(q.q?.trim()) && total > limit;
  if (truncated) total = limit;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.floor(q.page ?? 1)), pageCount);
  // The page's cases first, then their revisions and prompt names: joining the revisions before the
  // sort made PostgreSQL fetch the revision of every match (5,001 for a common term) for a page of 10.
  const onPage = db
    .select({
      id: cases.id,
      caseKey: cases.caseKey,
      promptId: cases.promptId,
      source: cases.source,
      status: cases.status,
      userCorrected: cases.userCorrected,
      revisionNumber: cases.revisionNumber,
      updatedAt: cases.updatedAt,
      currentRevisionId: cases.currentRevisionId,
    })
    .from(cases)
    .where(and(where, isNotNull(cases.currentRevisionId)))
    .orderBy(...orderOf(q.sort))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .as("on_page");
  const rows = await db
    .select({
      id: onPage.id,
      caseKey: onPage.caseKey,
      promptId: onPage.promptId,
      promptName: prompts.name,
      source: onPage.source,
      status: onPage.status,
      userCorrected: onPage.userCorrected,
      input: sql<string>`substr(${caseRevisions.input}, 1, 300)`,
      expected: sql<string>`substr(${caseRevisions.expected}, 1, 300)`,
      revisionNumber: onPage.revisionNumber,
      updatedAt: onPage.updatedAt,
    })
    .from(onPage)
    .innerJoin(caseRevisions, eq(caseRevisions.id, onPage.currentRevisionId))
    .innerJoin(prompts, eq(prompts.id, onPage.promptId))
    .orderBy(...orderOf(q.sort, onPage));
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
    (await first(
      db
        .select({ id: cases.id, systemId: cases.systemId, promptName: prompts.name, systemName: systems.name })
        .from(cases)
        .innerJoin(prompts, eq(prompts.id, cases.promptId))
        .innerJoin(systems, eq(systems.id, cases.systemId))
        .where(and(eq(cases.caseKey, caseKey), isNull(cases.removedAt), promptId === undefined ? undefined : eq(cases.promptId, promptId)))
        .orderBy(asc(cases.id))
        .limit(1),
    )) ?? null
  );
}

/**
 * A case with its current content and revision list; removed cases are returned too (with
 * `removedAt` set and empty content) so a page can say so. Null when no such case ever existed.
 */
export async function getCase(db: Db, caseId: number): Promise<CaseDetail | null> {
  const row = await first(
    db
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
      .where(eq(cases.id, caseId)),
  );
  if (!row) return null;
  const revisions = await db
    .select({ number: caseRevisions.number, createdAt: caseRevisions.createdAt, authorEmail: caseRevisions.authorEmail })
    .from(caseRevisions)
    .where(eq(caseRevisions.caseId, caseId))
    .orderBy(desc(caseRevisions.number));
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
  const r = await first(
    db
      .select()
      .from(caseRevisions)
      .where(and(eq(caseRevisions.caseId, caseId), eq(caseRevisions.number, number))),
  );
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
async function existingKey(tx: Tx, promptId: number, key: string) {
  const live = and(eq(cases.promptId, promptId), eq(cases.caseKey, key), isNull(cases.removedAt));
  // Cheap index probe first; the joins for the message run only on a hit.
  if (!(await first(tx.select({ id: cases.id }).from(cases).where(live).limit(1)))) return undefined;
  return first(
    tx
      .select({ id: cases.id, promptName: prompts.name, systemName: systems.name })
      .from(cases)
      .innerJoin(prompts, eq(prompts.id, cases.promptId))
      .innerJoin(systems, eq(systems.id, cases.systemId))
      .where(live)
      .limit(1),
  );
}

/** Inserts one case and its revision 1 inside an open transaction; returns the case id. */
/** `quiet`: no activity row per case (a bulk add records one summary row itself). */
async function insertCaseTx(tx: Tx, c: NewCase, promptName: string, now: number, quiet = false): Promise<{ id: number; caseKey: string }> {
  let key = c.caseKey ?? "";
  if (key) {
    const problem = caseKeyProblem(key);
    if (problem) throw new LibraryError("validation", problem, { caseKey: problem });
    const existing = await existingKey(tx, c.promptId, key);
    if (existing) {
      const msg = duplicateMessage(key, existing);
      throw new LibraryError("duplicate_case_id", msg, { caseKey: msg });
    }
  } else {
    do key = generateCaseKey(promptName, (n) => randomBytes(n));
    while (await existingKey(tx, c.promptId, key));
  }
  const { id } = (await first(
    tx
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
      .returning({ id: cases.id }),
  ))!;
  const rev = (await first(
    tx
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
      .returning({ id: caseRevisions.id }),
  ))!;
  await tx.update(cases).set({ currentRevisionId: rev.id }).where(eq(cases.id, id));
  if (!quiet)
    await recordActivityTx(tx, c.author, { action: "case.add", subjectType: "case", subjectId: id, systemId: c.systemId, detail: `${key} (${c.source})` }, now);
  return { id, caseKey: key };
}

async function promptOf(tx: Tx, systemId: string, promptId: number): Promise<{ name: string }> {
  const p = await first(tx.select({ name: prompts.name, systemId: prompts.systemId }).from(prompts).where(eq(prompts.id, promptId)));
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
    return await transaction(db, async (tx) => insertCaseTx(tx, c, (await promptOf(tx, c.systemId, c.promptId)).name, Date.now()));
  } catch (e) {
    // Two writers racing for the same ID: the partial unique index is the final judge.
    if (isUniqueViolation(e) && c.caseKey) {
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
export async function addCaseTx(tx: Tx, c: NewCase): Promise<{ id: number; caseKey: string }> {
  return insertCaseTx(tx, c, (await promptOf(tx, c.systemId, c.promptId)).name, Date.now());
}

/**
 * Adds many cases in ONE transaction (import, seed, publish): all or nothing.
 * @throws LibraryError naming the 1-based position of the first bad case; nothing is written then.
 */
export async function addCases(db: Db, list: NewCase[]): Promise<{ id: number; caseKey: string }[]> {
  return transaction(db, (tx) => addCasesTx(tx, list));
}

/**
 * {@link addCases} inside the caller's open write transaction. Each case's revision 1 records its
 * author, but no activity row is written per case: the caller records the bulk change once. (a workflow that writes more in the
 * same transaction, e.g. Use a dataset with new revisions): rejects, so the caller's whole
 * transaction rolls back.
 * @throws LibraryError naming the 1-based position of the first bad case
 */
export async function addCasesTx(tx: Tx, list: NewCase[]): Promise<{ id: number; caseKey: string }[]> {
  const names = new Map<number, string>();
  const now = Date.now();
  // On PostgreSQL the live-case counters are added once for the whole list (db/queries/case-counts-once.ts).
  return withCaseCountsOnce(tx, async () => {
    const out: { id: number; caseKey: string }[] = [];
    // One case after the other: the case-ID probe of each must see the ones inserted before it.
    for (const [i, c] of list.entries()) {
      try {
        let name = names.get(c.promptId);
        if (name === undefined) names.set(c.promptId, (name = (await promptOf(tx, c.systemId, c.promptId)).name));
        out.push(await insertCaseTx(tx, c, name, now, true));
      } catch (e) {
        if (e instanceof LibraryError) throw new LibraryError(e.code, `Case ${i + 1} of ${list.length}: ${e.message}`, e.fieldErrors);
        throw e;
      }
    }
    return out;
  });
}

async function liveCase(tx: Tx, caseId: number) {
  const c = await first(tx.select().from(cases).where(eq(cases.id, caseId)));
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
  return transaction(db, async (tx) => {
    const c = await liveCase(tx, caseId);
    if (c.source === "generated") throw new LibraryError("not_allowed", "Generated cases are read-only. Use Customize to make an editable copy.");
    if (c.revisionNumber !== baseRevision) {
      throw new LibraryError(
        "conflict",
        `Case "${c.caseKey}" was changed while you edited it: you started from revision ${baseRevision}, it is now at revision ${c.revisionNumber}. Nothing was saved; your edits are still in the form. Open the latest revision, then apply them again.`,
      );
    }
    const cur = (await first(tx.select().from(caseRevisions).where(eq(caseRevisions.id, c.currentRevisionId!))))!;
    const before = decodeContent(cur.input, cur.expected, cur.details);
    const after = mergeCaseFields(before, fields);
    if (sameContent(before, after)) throw new LibraryError("unchanged", "Nothing changed since the current revision; no new revision was made.");
    const now = Date.now();
    const number = c.revisionNumber + 1;
    const rev = (await first(
      tx
        .insert(caseRevisions)
        .values({ caseId, number, input: after.input, expected: after.expected, details: encodeDetails(after), createdAt: now, ...authorColumnsOf(author) })
        .returning({ id: caseRevisions.id }),
    ))!;
    await recordActivityTx(
      tx,
      author,
      { action: "case.revise", subjectType: "case", subjectId: caseId, systemId: c.systemId, detail: `${c.caseKey} r${number}` },
      now,
    );
    const res = await tx
      .update(cases)
      .set({ currentRevisionId: rev.id, revisionNumber: number, updatedAt: now, userCorrected: c.source === "retained" ? true : c.userCorrected })
      .where(and(eq(cases.id, caseId), eq(cases.revisionNumber, baseRevision)))
      .returning({ id: cases.id });
    if (res.length !== 1) throw new LibraryError("conflict", `Case "${c.caseKey}" was changed while you edited it. Nothing was saved.`);
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
  return transaction(db, async (tx) => {
    const g = await liveCase(tx, caseId);
    if (g.source !== "generated") throw new LibraryError("not_allowed", "Only generated cases can be customized; edit this one directly.");
    const copy = await first(
      tx
        .select({ caseKey: cases.caseKey })
        .from(cases)
        .where(and(isNull(cases.removedAt), eq(cases.source, "custom"), originFromCaseIs(tx, caseId)))
        .limit(1),
    );
    if (copy) throw new LibraryError("not_allowed", `This case is already customized: ${copy.caseKey} is its editable copy.`);
    const rev = (await first(tx.select().from(caseRevisions).where(eq(caseRevisions.id, g.currentRevisionId!))))!;
    const origin = g.origin ? (JSON.parse(g.origin) as CaseOrigin) : null;
    const made = await insertCaseTx(
      tx,
      {
        systemId: g.systemId,
        promptId: g.promptId,
        source: "custom",
        origin: { ...(origin?.kind === "generated" ? origin : { kind: "generated" as const }), fromCaseId: g.id },
        content: decodeContent(rev.input, rev.expected, rev.details),
        author,
      },
      (await promptOf(tx, g.systemId, g.promptId)).name,
      Date.now(),
    );
    if (g.status !== "paused") await tx.update(cases).set({ status: "paused", updatedAt: Date.now() }).where(eq(cases.id, g.id));
    return made;
  });
}

/**
 * Pause (out of future benches) or Resume. Idempotent: setting the status it already has is fine.
 * @throws LibraryError `not_found` / `removed`
 */
export async function setCaseStatus(db: Db, caseId: number, status: CaseStatus, author?: Author | null): Promise<{ caseKey: string }> {
  return transaction(db, async (tx) => {
    const c = await liveCase(tx, caseId);
    if (c.status !== status) {
      await tx.update(cases).set({ status, updatedAt: Date.now() }).where(eq(cases.id, caseId));
      await recordActivityTx(tx, author, {
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
  return transaction(db, async (tx) => {
    const c = await liveCase(tx, caseId);
    if (!canRemove(c)) {
      throw new LibraryError(
        "not_allowed",
        `Case "${c.caseKey}" comes from ${c.source}; only custom or user-corrected cases can be removed. Pause it instead.`,
      );
    }
    const now = Date.now();
    const copies = await tx
      .select({ id: cases.id, caseKey: cases.caseKey })
      .from(cases)
      .where(and(eq(cases.source, "retained"), eq(cases.userCorrected, false), isNull(cases.removedAt), originFromCaseIs(tx, caseId)))
      .orderBy(asc(cases.id));
    for (const id of [caseId, ...copies.map((x) => x.id)]) {
      await tx.update(cases).set({ removedAt: now, updatedAt: now }).where(eq(cases.id, id));
      await tx.update(caseRevisions).set({ input: "", expected: "", details: "{}", erasedAt: now }).where(eq(caseRevisions.caseId, id));
      await eraseTrialsOfCaseTx(tx, id, now);
    }
    await recordActivityTx(tx, author, { action: "case.remove", subjectType: "case", subjectId: caseId, systemId: c.systemId, detail: c.caseKey }, now);
    return { caseKey: c.caseKey, alsoRemoved: copies.map((x) => x.caseKey) };
  });
}

/**
 * The origin of a case points at case `caseId` (`origin.fromCaseId`, a JSON number): SQLite's
 * json_extract gives an integer, PostgreSQL's `->>` text, so each compares with its own kind.
 */
function originFromCaseIs(db: Db, caseId: number): SQL {
  return isPostgres(db) ? sql`(${cases.origin}::jsonb ->> 'fromCaseId') = ${String(caseId)}` : sql`json_extract(${cases.origin}, '$.fromCaseId') = ${caseId}`;
}

/**
 * The trials of a removed case: finished ones lose the case's details (eraseTrialText), queued
 * ones are skipped (their case content is gone). Runs inside the caller's transaction `tx`.
 */
async function eraseTrialsOfCaseTx(tx: Tx, caseId: number, now: number): Promise<void> {
  const ofCase = tx.select({ id: benchCases.id }).from(benchCases).where(eq(benchCases.caseId, caseId));
  await tx
    .update(trials)
    .set({ status: "skipped", error: REMOVED_CASE_SKIP_REASON, finishedAt: now })
    .where(and(eq(trials.status, "queued"), inArray(trials.benchCaseId, ofCase)));
  const rows = await tx
    .select({ id: trials.id, checks: trials.checks, record: trials.record, output: trials.output, kind: benchCandidates.kind })
    .from(trials)
    .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
    .innerJoin(benchCandidates, eq(benchCandidates.id, trials.candidateId))
    .where(and(eq(benchCases.caseId, caseId), or(sql`${trials.checks} IS NOT NULL`, sql`${trials.record} IS NOT NULL`, sql`${trials.output} IS NOT NULL`)));
  for (const r of rows) {
    const e = eraseTrialText(r, r.kind);
    await tx.update(trials).set({ checks: e.checks, record: e.record, output: e.output }).where(eq(trials.id, r.id));
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
  const rows = await db
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
    .orderBy(asc(cases.id));
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
 * The promise is kept, so trials asking for the same revision at once share one read; revisions
 * asked for in the same turn of the event loop are read in one query.
 * @returns `(revisionId) => content`, resolving to undefined when no such revision is stored
 */
export function caseRevisionReader(db: Db): (revisionId: number) => Promise<CaseContent | undefined> {
  const out = new Map<number, Promise<CaseContent | undefined>>();
  // Revisions asked for in the same turn of the event loop (a worker starts a claimed batch of
  // trials together) are read in one query when the turn ends: one round trip per batch on
  // PostgreSQL instead of one per case.
  let waiting: Map<number, { resolve: (c: CaseContent | undefined) => void; reject: (e: unknown) => void }> | null = null;
  const readWaiting = async () => {
    const batch = waiting!;
    waiting = null;
    try {
      const ids = [...batch.keys()];
      const found = new Map<number, CaseContent>();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db
          .select({ id: caseRevisions.id, input: caseRevisions.input, expected: caseRevisions.expected, details: caseRevisions.details })
          .from(caseRevisions)
          .where(inArray(caseRevisions.id, ids.slice(i, i + 500)));
        for (const r of rows) found.set(r.id, decodeContent(r.input, r.expected, r.details));
      }
      for (const [id, w] of batch) {
        if (!found.has(id)) out.delete(id); // not stored (yet): ask again next time
        w.resolve(found.get(id));
      }
    } catch (e) {
      for (const [id, w] of batch) {
        out.delete(id);
        w.reject(e);
      }
    }
  };
  return (id) => {
    let c = out.get(id);
    if (c === undefined) {
      if (!waiting) {
        waiting = new Map();
        setImmediate(() => void readWaiting());
      }
      const batch = waiting;
      out.set(id, (c = new Promise((resolve, reject) => batch.set(id, { resolve, reject }))));
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
  return transaction(db, async (tx) => {
    const now = Date.now();
    const out: BulkRevisionResult = { revised: [], unchanged: 0 };
    for (const id of caseIds) {
      const c = await first(tx.select().from(cases).where(eq(cases.id, id)));
      if (!c || c.systemId !== systemId || c.removedAt != null)
        throw new LibraryError("not_found", `Case #${id} is not a case of this system's library (it may have been removed). Nothing was changed.`);
      const cur = (await first(tx.select().from(caseRevisions).where(eq(caseRevisions.id, c.currentRevisionId!))))!;
      const before = decodeContent(cur.input, cur.expected, cur.details);
      const after = change(before, { caseId: id, caseKey: c.caseKey });
      if (!after || sameContent(before, after)) {
        out.unchanged++;
        continue;
      }
      const number = c.revisionNumber + 1;
      const rev = (await first(
        tx
          .insert(caseRevisions)
          .values({
            caseId: id,
            number,
            input: after.input,
            expected: after.expected,
            details: encodeDetails(after),
            createdAt: now,
            ...authorColumnsOf(author),
          })
          .returning({ id: caseRevisions.id }),
      ))!;
      await recordActivityTx(
        tx,
        author,
        { action: "case.revise", subjectType: "case", subjectId: id, systemId, detail: `${c.caseKey} r${number} (bulk)` },
        now,
      );
      await tx
        .update(cases)
        .set({ currentRevisionId: rev.id, revisionNumber: number, updatedAt: now, userCorrected: c.source === "retained" ? true : c.userCorrected })
        .where(eq(cases.id, id));
      out.revised.push({ caseId: id, caseKey: c.caseKey, revisionNumber: number });
    }
    return out;
  });
}
