/**
 * Datasets and their immutable versions (DESIGN.md §1, §5; issue 3). One save function serves the
 * web page and the CLI ({@link saveDatasetVersion}); "Use a dataset" copies a version's rows into
 * a prompt's library through `addCases`, in one transaction ({@link adoptDatasetVersion}).
 * Versions are never updated: there is deliberately no function that changes one.
 */
import { and, asc, count, desc, eq, inArray, isNull, max, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { isPostgres, jsonText } from "../dialect";
import { first } from "../rows";
import { transaction } from "../transaction";
import { caseRevisions, cases, datasetUploads, datasetVersions, datasets, promptRevisions, prompts, systems } from "../schema";
import { addCasesTx, type CaseOrigin, type NewCase } from "./cases";
import { evaluatorsForRow, type DatasetCheck } from "@/lib/datasets/checks";
import { validateEvaluatorSpecs } from "@/lib/evaluators/validate";
import { resolveCollisions, type CollisionChoice, type CollisionPlan, type ExistingCase } from "@/lib/datasets/collisions";
import { decodeContent, encodeDetails, sameContent } from "@/lib/library/content-codec";
import type { ColumnMapping } from "@/lib/import/mapping";
import { DEFAULT_REDACTION, type RedactionSettings } from "@/lib/import/redact/settings";
import type { ImportProblem, ImportTable } from "@/lib/import/types";
import { DatasetError } from "@/lib/datasets/errors";
import { prepareVersion } from "@/lib/datasets/prepare";
import { datasetNameSchema } from "@/lib/datasets/schemas";
import { storedTable } from "@/lib/datasets/stored-table";
import type { Corrections, StoredRedactionReport } from "@/lib/datasets/types";
import { planUse, type BlockedRow } from "@/lib/datasets/use-plan";
import { templateVariables } from "@/lib/runtime/template";
import { LibraryError } from "@/lib/library/errors";
import { authorColumnsOf, type Author } from "@/lib/audit/author";
import { recordActivityTx } from "./activity";

/** What {@link saveDatasetVersion} needs: the file, the table the server parsed from it, and the user's choices. */
export interface SaveVersionInput {
  systemId: string;
  /** Dataset name; an existing name of the system gets its next version. */
  name: string;
  fileName: string;
  fileBytes: Uint8Array;
  /** The table parsed from `fileBytes` on the server (never from the client), with its header row applied. */
  table: ImportTable;
  /** The header's line (CSV) or sheet row (XLSX) when it was moved below the first row; 0 = as read. */
  headerRow?: number;
  mapping: ColumnMapping;
  corrections?: Corrections;
  excludedRows?: number[];
  /** Template variables to check rows against (the union of the system's prompts). */
  templateVariables?: string[];
  /** The upload this save consumes; deleted in the same transaction (a second Save of it is refused). */
  uploadId?: number;
  /** Redaction on or off and the keep-list (default: on, nothing kept). */
  redaction?: RedactionSettings;
  /** The checks confirmed for the whole dataset (lib/datasets/checks.ts); default none. */
  checks?: DatasetCheck[];
  /** Clock, for tests. */
  now?: number;
  /** Who saves it (issue 19): stored on the version and in the activity. */
  author?: Author | null;
}

/** A saved version, as the pages and the CLI report it. */
export interface SavedVersion {
  datasetId: number;
  name: string;
  version: number;
  versionId: number;
  rowCount: number;
  excludedRows: number[];
  blockedRows: number[];
  problems: ImportProblem[];
  redaction: StoredRedactionReport;
  checks: DatasetCheck[];
}

/**
 * Saves an immutable dataset version: the original file, the mapping, the corrected and redacted
 * rows, the corrections and exclusions, the redaction report and the problems. All or nothing.
 * @throws LibraryError `validation` (dataset name) or `not_found` (system); DatasetError
 *   `invalid_mapping`, `invalid_corrections`, `needs_sheet` (see prepareVersion) or
 *   `upload_not_found` (the upload was already saved or expired). Nothing is written then.
 */
export async function saveDatasetVersion(db: Db, input: SaveVersionInput): Promise<SavedVersion> {
  return saveVersion(db, input);
}

/**
 * Saves a version and uses it for a prompt (the CLI's `dataset import --use`) in ONE write
 * transaction: a refused use (a case ID collision without a choice, no row to add) saves nothing.
 * @throws what {@link saveDatasetVersion} and {@link adoptDatasetVersion} throw; nothing is written then
 */
export async function saveAndUseDatasetVersion(
  db: Db,
  input: SaveVersionInput,
  use: { promptId: number; onCollision?: CollisionChoice },
): Promise<{ saved: SavedVersion; used: UseResult }> {
  return transaction(db, async (tx) => {
    const saved = await saveVersion(tx, input);
    const used = await adopt(tx, {
      systemId: input.systemId,
      datasetId: saved.datasetId,
      version: saved.version,
      promptId: use.promptId,
      onCollision: use.onCollision,
      author: input.author,
    });
    return { saved, used };
  });
}

/** Saves a version in its own transaction (a savepoint when `db` is a transaction). */
async function saveVersion(db: Db, input: SaveVersionInput): Promise<SavedVersion> {
  const parsedName = datasetNameSchema.safeParse(input.name);
  if (!parsedName.success) {
    const msg = parsedName.error.issues[0].message;
    throw new LibraryError("validation", msg, { name: msg });
  }
  const name = parsedName.data;
  if (!(await first(db.select({ id: systems.id }).from(systems).where(eq(systems.id, input.systemId))))) {
    throw new LibraryError("not_found", `System "${input.systemId}" does not exist.`);
  }
  const prepared = prepareVersion(input.table, {
    mapping: input.mapping,
    corrections: input.corrections,
    excludedRows: input.excludedRows,
    templateVariables: input.templateVariables,
    redaction: input.redaction,
  });
  const now = input.now ?? Date.now();
  return transaction(db, async (tx) => {
    let datasetId = (
      await first(
        tx
          .select({ id: datasets.id })
          .from(datasets)
          .where(and(eq(datasets.systemId, input.systemId), eq(datasets.name, name))),
      )
    )?.id;
    datasetId ??= (await tx.insert(datasets).values({ systemId: input.systemId, name, createdAt: now }).returning({ id: datasets.id }))[0].id;
    const last =
      (
        await first(
          tx
            .select({ n: max(datasetVersions.version) })
            .from(datasetVersions)
            .where(eq(datasetVersions.datasetId, datasetId)),
        )
      )?.n ?? 0;
    const version = last + 1;
    const t = input.table;
    const [{ id: versionId }] = await tx
      .insert(datasetVersions)
      .values({
        datasetId,
        version,
        fileName: input.fileName,
        fileBytes: Buffer.from(input.fileBytes.buffer, input.fileBytes.byteOffset, input.fileBytes.byteLength),
        format: t.format,
        encoding: t.encoding,
        delimiter: t.delimiter ?? null,
        sheet: t.sheet ?? null,
        headerRow: input.headerRow ?? 0,
        columns: JSON.stringify(prepared.columns),
        mapping: JSON.stringify(prepared.mapping),
        rows: JSON.stringify(prepared.records),
        rowCount: prepared.rowCount,
        excludedRows: JSON.stringify(prepared.excludedRows),
        corrections: JSON.stringify(prepared.corrections),
        checks: JSON.stringify(input.checks ?? []),
        redactionReport: JSON.stringify(prepared.redaction),
        problems: JSON.stringify(prepared.problems),
        createdAt: now,
        ...authorColumnsOf(input.author),
      })
      .returning({ id: datasetVersions.id });
    await recordActivityTx(
      tx,
      input.author,
      {
        action: "dataset.version",
        subjectType: "dataset",
        subjectId: datasetId,
        systemId: input.systemId,
        detail: `${name} v${version} (${prepared.rowCount} rows)`,
      },
      now,
    );
    // Last: a second Save of the same upload (double click, two tabs) finds it gone and rolls back.
    if (input.uploadId !== undefined) {
      const deleted = await tx
        .delete(datasetUploads)
        .where(and(eq(datasetUploads.id, input.uploadId), eq(datasetUploads.systemId, input.systemId)))
        .returning({ id: datasetUploads.id });
      const gone = deleted.length === 0;
      if (gone) throw new DatasetError("upload_not_found", "This upload was already saved or has expired (uploads are kept for a day). Upload the file again.");
    }
    return {
      datasetId,
      name,
      version,
      versionId,
      rowCount: prepared.rowCount,
      excludedRows: prepared.excludedRows,
      blockedRows: prepared.blockedRows,
      problems: prepared.problems,
      redaction: prepared.redaction,
      checks: input.checks ?? [],
    };
  });
}

/** One version in the datasets list. */
export interface VersionSummary {
  id: number;
  version: number;
  fileName: string;
  rowCount: number;
  excludedCount: number;
  errorCount: number;
  warningCount: number;
  createdAt: number;
  /** Who saved it (issue 19); null when not recorded (seed, before authorship). */
  authorEmail: string | null;
}

/** A dataset with its versions, newest version first. */
export interface DatasetSummary {
  id: number;
  name: string;
  createdAt: number;
  versions: VersionSummary[];
}

/** The length of a JSON array column (SQLite `json_array_length`, PostgreSQL `jsonb_array_length`). */
function jsonArrayLength(db: Db, column: AnyColumn): SQL<number> {
  return (isPostgres(db) ? sql<number>`jsonb_array_length(${column}::jsonb)` : sql<number>`json_array_length(${column})`).mapWith(Number);
}

/** How many of a version's stored problems have this severity (a correlated subquery on `dataset_versions`). */
function problemCount(db: Db, severity: "error" | "warning"): SQL<number> {
  // Qualified by hand: the subquery must bind to the outer row, not to its own FROM.
  return (
    isPostgres(db)
      ? sql<number>`(SELECT count(*) FROM jsonb_array_elements("dataset_versions"."problems"::jsonb) AS p(value) WHERE p.value ->> 'severity' = ${severity})`
      : sql<number>`(SELECT count(*) FROM json_each("dataset_versions"."problems") WHERE json_extract(value, '$.severity') = ${severity})`
  ).mapWith(Number);
}

/** The datasets of a system by name, each with every version (newest first). */
export async function listDatasets(db: Db, systemId: string): Promise<DatasetSummary[]> {
  const sets = await db.select().from(datasets).where(eq(datasets.systemId, systemId)).orderBy(asc(datasets.name));
  if (sets.length === 0) return [];
  const rows = await db
    .select({
      id: datasetVersions.id,
      datasetId: datasetVersions.datasetId,
      version: datasetVersions.version,
      fileName: datasetVersions.fileName,
      rowCount: datasetVersions.rowCount,
      createdAt: datasetVersions.createdAt,
      authorEmail: datasetVersions.authorEmail,
      excludedCount: jsonArrayLength(db, datasetVersions.excludedRows),
      errorCount: problemCount(db, "error"),
      warningCount: problemCount(db, "warning"),
    })
    .from(datasetVersions)
    .innerJoin(datasets, eq(datasets.id, datasetVersions.datasetId))
    .where(eq(datasets.systemId, systemId))
    .orderBy(asc(datasetVersions.datasetId), desc(datasetVersions.version));
  const byDataset = new Map<number, VersionSummary[]>();
  for (const { datasetId, ...v } of rows) byDataset.set(datasetId, [...(byDataset.get(datasetId) ?? []), v]);
  return sets.map((d) => ({ id: d.id, name: d.name, createdAt: d.createdAt, versions: byDataset.get(d.id) ?? [] }));
}

/**
 * Names of a system's datasets with their latest version number (the Save step says "version N of
 * X") and that version's redaction settings (a new version starts from them).
 */
export async function datasetNames(db: Db, systemId: string): Promise<{ name: string; latestVersion: number; redaction: RedactionSettings }[]> {
  // The latest version's settings as JSON text on both stores (`->>`/json_extract of an object).
  const latestSettings = sql<
    string | null
  >`(SELECT ${jsonText(db, sql`l.redaction_report`, "settings")} FROM dataset_versions l WHERE l.dataset_id = "datasets"."id" ORDER BY l.version DESC LIMIT 1)`;
  const rows = await db
    .select({
      name: datasets.name,
      latestVersion: sql<number>`coalesce(max(${datasetVersions.version}), 0)`.mapWith(Number),
      settings: latestSettings,
    })
    .from(datasets)
    .leftJoin(datasetVersions, eq(datasetVersions.datasetId, datasets.id))
    .where(eq(datasets.systemId, systemId))
    .groupBy(datasets.id)
    .orderBy(asc(datasets.name));
  return rows.map((r) => ({ name: r.name, latestVersion: r.latestVersion, redaction: settingsOf(r.settings) }));
}

/** Stored settings JSON → settings; versions saved before settings existed were redacted with nothing kept. */
function settingsOf(json: string | null): RedactionSettings {
  if (!json) return { ...DEFAULT_REDACTION, keep: [] };
  const s = JSON.parse(json) as Partial<RedactionSettings>;
  return { enabled: s.enabled !== false, keep: Array.isArray(s.keep) ? s.keep.map(String) : [] };
}

/**
 * The redaction settings a new version of dataset `name` starts from: its latest version's, or
 * null when the system has no dataset of that name (a new dataset: on, nothing kept).
 */
export async function datasetRedactionSettings(db: Db, systemId: string, name: string): Promise<RedactionSettings | null> {
  return (await datasetNames(db, systemId)).find((d) => d.name === name.trim())?.redaction ?? null;
}

/** A saved version with everything the version page shows (not the file's bytes). */
export interface DatasetVersionDetail {
  id: number;
  datasetId: number;
  datasetName: string;
  systemId: string;
  version: number;
  fileName: string;
  fileSize: number;
  format: string;
  encoding: string | null;
  delimiter: string | null;
  sheet: string | null;
  /** The header's line (CSV) or sheet row (XLSX) when it is not the first non-empty row; 0 = as read. */
  headerRow: number;
  columns: string[];
  mapping: ColumnMapping;
  /** Rows as stored (corrected and redacted), keyed by column. */
  records: Record<string, string>[];
  rowCount: number;
  excludedRows: number[];
  corrections: Corrections;
  redaction: StoredRedactionReport;
  problems: ImportProblem[];
  /** The checks confirmed at mapping time; the golden cases made from this version get them. */
  checks: DatasetCheck[];
  createdAt: number;
  /** Who saved this version (issue 19); null when not recorded. */
  authorEmail: string | null;
  /** Every version of the dataset (for links), newest first, with who saved it. */
  versions: { version: number; createdAt: number; authorEmail: string | null }[];
}

/** One version of a dataset of the system, or null when there is none. */
export async function getDatasetVersion(db: Db, systemId: string, datasetId: number, version: number): Promise<DatasetVersionDetail | null> {
  return readVersion(db, systemId, datasetId, version);
}

async function readVersion(db: Db, systemId: string, datasetId: number, version: number): Promise<DatasetVersionDetail | null> {
  const d = await first(
    db
      .select()
      .from(datasets)
      .where(and(eq(datasets.id, datasetId), eq(datasets.systemId, systemId))),
  );
  if (!d) return null;
  const v = await first(
    db
      .select({
        id: datasetVersions.id,
        version: datasetVersions.version,
        fileName: datasetVersions.fileName,
        fileSize: sql<number>`length(${datasetVersions.fileBytes})`,
        format: datasetVersions.format,
        encoding: datasetVersions.encoding,
        delimiter: datasetVersions.delimiter,
        sheet: datasetVersions.sheet,
        headerRow: datasetVersions.headerRow,
        columns: datasetVersions.columns,
        mapping: datasetVersions.mapping,
        rows: datasetVersions.rows,
        rowCount: datasetVersions.rowCount,
        excludedRows: datasetVersions.excludedRows,
        corrections: datasetVersions.corrections,
        redactionReport: datasetVersions.redactionReport,
        problems: datasetVersions.problems,
        checks: datasetVersions.checks,
        createdAt: datasetVersions.createdAt,
        authorEmail: datasetVersions.authorEmail,
      })
      .from(datasetVersions)
      .where(and(eq(datasetVersions.datasetId, datasetId), eq(datasetVersions.version, version))),
  );
  if (!v) return null;
  const versions = await db
    .select({ version: datasetVersions.version, createdAt: datasetVersions.createdAt, authorEmail: datasetVersions.authorEmail })
    .from(datasetVersions)
    .where(eq(datasetVersions.datasetId, datasetId))
    .orderBy(desc(datasetVersions.version));
  return {
    id: v.id,
    datasetId,
    datasetName: d.name,
    systemId,
    version: v.version,
    fileName: v.fileName,
    fileSize: v.fileSize,
    format: v.format,
    encoding: v.encoding,
    delimiter: v.delimiter,
    sheet: v.sheet,
    headerRow: v.headerRow,
    columns: JSON.parse(v.columns) as string[],
    mapping: JSON.parse(v.mapping) as ColumnMapping,
    records: JSON.parse(v.rows) as Record<string, string>[],
    rowCount: v.rowCount,
    excludedRows: JSON.parse(v.excludedRows) as number[],
    corrections: JSON.parse(v.corrections) as Corrections,
    redaction: JSON.parse(v.redactionReport) as StoredRedactionReport,
    problems: JSON.parse(v.problems) as ImportProblem[],
    checks: JSON.parse(v.checks) as DatasetCheck[],
    createdAt: v.createdAt,
    authorEmail: v.authorEmail,
    versions,
  };
}

/** The original file of a version (to correct it into a new version), or null. */
export async function getDatasetVersionFile(
  db: Db,
  systemId: string,
  datasetId: number,
  version: number,
): Promise<{ fileName: string; fileBytes: Buffer; sheet: string | null; headerRow: number } | null> {
  return (
    (await first(
      db
        .select({
          fileName: datasetVersions.fileName,
          fileBytes: datasetVersions.fileBytes,
          sheet: datasetVersions.sheet,
          headerRow: datasetVersions.headerRow,
        })
        .from(datasetVersions)
        .innerJoin(datasets, eq(datasets.id, datasetVersions.datasetId))
        .where(and(eq(datasets.systemId, systemId), eq(datasets.id, datasetId), eq(datasetVersions.version, version))),
    )) ?? null
  );
}

/** Which prompts' libraries hold cases from a dataset version, and how many (live cases). */
export async function datasetVersionUsage(
  db: Db,
  systemId: string,
  datasetId: number,
  version: number,
): Promise<{ promptId: number; promptName: string; count: number; lastAddedAt: number }[]> {
  return usage(db, systemId, datasetId, version);
}

/** `column`'s JSON number at `key` equals `n` (json_extract gives SQLite a number, `->>` gives PostgreSQL text). */
function jsonNumberIs(db: Db, column: AnyColumn, key: string, n: number): SQL {
  return isPostgres(db) ? sql`${jsonText(db, column, key)} = ${String(n)}` : sql`${jsonText(db, column, key)} = ${n}`;
}

async function usage(
  db: Db,
  systemId: string,
  datasetId: number,
  version: number,
): Promise<{ promptId: number; promptName: string; count: number; lastAddedAt: number }[]> {
  return db
    .select({ promptId: cases.promptId, promptName: prompts.name, count: count(), lastAddedAt: sql<number>`max(${cases.createdAt})`.mapWith(Number) })
    .from(cases)
    .innerJoin(prompts, eq(prompts.id, cases.promptId))
    .where(
      and(
        eq(cases.systemId, systemId),
        eq(cases.source, "dataset"),
        isNull(cases.removedAt),
        jsonNumberIs(db, cases.origin, "datasetId", datasetId),
        jsonNumberIs(db, cases.origin, "version", version),
      ),
    )
    .groupBy(cases.promptId, prompts.name)
    .orderBy(asc(prompts.name));
}

/** A case ID of the version that the prompt's library already uses. */
export interface CaseIdConflict {
  row: number;
  caseKey: string;
  message: string;
  /** The case holding it came from an earlier version of the same dataset (new revisions are possible). */
  fromEarlierVersion: boolean;
}

/** What "Add golden cases" will do for one prompt (shown before the click, enforced on it). */
export interface UsePreview {
  promptId: number;
  promptName: string;
  /** Cases that will be added. */
  willAdd: number;
  blocked: BlockedRow[];
  /** Warnings for this prompt, e.g. rows lacking a template variable. */
  warnings: ImportProblem[];
  mappingErrors: ImportProblem[];
  conflicts: CaseIdConflict[];
  /** The collision choices that apply (revise only when every collision is with an earlier version of this dataset). */
  collisionChoices: CollisionChoice[];
  /** The choice this preview was made with, and what it does. */
  onCollision?: CollisionChoice;
  skipped: number;
  revised: number;
  /** Why the use cannot go ahead with the choice made (or without one). */
  collisionRefusals: string[];
  excludedRows: number[];
  /** Live cases of this prompt already copied from this version, or null. */
  alreadyAdded: { count: number; lastAddedAt: number } | null;
  /** The checks each new case gets from the version. */
  checks: DatasetCheck[];
}

/**
 * Live cases of a prompt holding one of `keys` (chunked IN lists), with their dataset origin.
 * Case IDs are unique within a prompt's library; other prompts do not count (issue 15).
 */
async function usedKeys(db: Db, promptId: number, keys: string[]): Promise<Map<string, ExistingCase>> {
  const out = new Map<string, ExistingCase>();
  for (let i = 0; i < keys.length; i += 500) {
    const chunk = keys.slice(i, i + 500);
    const rows = await db
      .select({ id: cases.id, key: cases.caseKey, origin: cases.origin })
      .from(cases)
      .where(and(eq(cases.promptId, promptId), isNull(cases.removedAt), inArray(cases.caseKey, chunk)));
    for (const r of rows) {
      const e: ExistingCase = { caseId: r.id, caseKey: r.key };
      // The origin is small JSON; reading it here keeps the query the same on both stores.
      const o = r.origin ? (JSON.parse(r.origin) as { kind?: unknown; datasetId?: unknown; version?: unknown }) : null;
      if (o?.kind === "dataset" && o.datasetId != null && o.version != null) e.dataset = { datasetId: Number(o.datasetId), version: Number(o.version) };
      out.set(r.key, e);
    }
  }
  return out;
}

interface Planned {
  preview: UsePreview;
  detail: DatasetVersionDetail;
  drafts: ReturnType<typeof planUse>["drafts"];
  collisions: CollisionPlan;
}

/** The prompt with its current template (`db` may be a transaction). */
async function promptOf(db: Db, systemId: string, promptId: number): Promise<{ id: number; name: string; template: string }> {
  const p = await first(
    db
      .select({ id: prompts.id, name: prompts.name, systemId: prompts.systemId, template: promptRevisions.systemPrompt })
      .from(prompts)
      .leftJoin(promptRevisions, eq(promptRevisions.id, prompts.currentRevisionId))
      .where(eq(prompts.id, promptId)),
  );
  if (!p || p.systemId !== systemId) {
    const msg = `Prompt #${promptId} does not exist in system "${systemId}". Choose one of the system's prompts.`;
    throw new LibraryError("validation", msg, { promptId: msg });
  }
  return { id: p.id, name: p.name, template: p.template ?? "" };
}

/** Plans a use; `db` may be the write transaction of the insert (queries only, no I/O). */
async function plan(db: Db, q: UseQuery, loaded?: DatasetVersionDetail): Promise<Planned> {
  const detail = loaded ?? (await readVersion(db, q.systemId, q.datasetId, q.version));
  if (!detail) throw new LibraryError("not_found", `Dataset #${q.datasetId} has no version ${q.version} in system "${q.systemId}".`);
  const prompt = await promptOf(db, q.systemId, q.promptId);
  const p = planUse(storedTable(detail, detail.columns, detail.records), detail.mapping, detail.excludedRows, templateVariables(prompt.template));
  const keyed = p.drafts.filter((d) => d.caseKey !== undefined).map((d) => ({ row: d.rowNumber, caseKey: d.caseKey! }));
  const used = await usedKeys(db, prompt.id, [...new Set(keyed.map((d) => d.caseKey))]);
  const collisions = resolveCollisions(keyed, used, { datasetId: detail.datasetId, datasetName: detail.datasetName, version: detail.version }, q.onCollision);
  const conflicts = collisions.collisions.map((c) => ({
    row: c.row,
    caseKey: c.caseKey,
    fromEarlierVersion: c.fromEarlierVersion,
    message: `Row ${c.row}: Case ID "${c.caseKey}" is already used by a case of prompt "${prompt.name}"${c.fromEarlierVersion ? ` (from an earlier version of "${detail.datasetName}")` : ""}.`,
  }));
  const collisionChoices: CollisionChoice[] =
    conflicts.length === 0 ? [] : conflicts.every((c) => c.fromEarlierVersion) ? ["skip", "prefix", "revise"] : ["skip", "prefix"];
  const mine = (await usage(db, q.systemId, q.datasetId, q.version)).find((u) => u.promptId === q.promptId);
  return {
    detail,
    drafts: p.drafts,
    collisions,
    preview: {
      promptId: prompt.id,
      promptName: prompt.name,
      willAdd: p.drafts.length - collisions.skipped.length - collisions.revised.size,
      blocked: p.blocked,
      warnings: p.warnings,
      mappingErrors: p.mappingErrors,
      conflicts,
      collisionChoices,
      ...(q.onCollision ? { onCollision: q.onCollision } : {}),
      skipped: collisions.skipped.length,
      revised: collisions.revised.size,
      collisionRefusals: collisions.refusals,
      excludedRows: p.excludedRows,
      alreadyAdded: mine ? { count: mine.count, lastAddedAt: mine.lastAddedAt } : null,
      checks: detail.checks,
    },
  };
}

/** Which version goes into which prompt, and what to do with case IDs the prompt already uses. */
export interface UseQuery {
  systemId: string;
  datasetId: number;
  version: number;
  promptId: number;
  /** Rows whose case IDs the prompt's library already uses: skip them, prefix them with the dataset's name, or revise the existing cases. */
  onCollision?: CollisionChoice;
  /** Who uses it (issue 19): on the new cases and revisions, and in the activity. */
  author?: Author | null;
}

/**
 * What "Add golden cases" would do for a prompt: cases to add, blocked rows and why, case IDs
 * already used in the library, variable warnings, and whether this version is already there.
 * @throws LibraryError `not_found` (version) or `validation` (prompt not in the system)
 */
export async function planDatasetUse(db: Db, q: UseQuery): Promise<UsePreview> {
  return (await plan(db, q)).preview;
}

/**
 * {@link planDatasetUse} for every prompt of the system (the version page's Use a dataset form),
 * reading the version once.
 * @returns one preview per prompt, by prompt name; empty when the version does not exist
 */
export async function planDatasetUseForPrompts(db: Db, q: Omit<UseQuery, "promptId">): Promise<UsePreview[]> {
  const detail = await readVersion(db, q.systemId, q.datasetId, q.version);
  if (!detail) return [];
  const ids = await db.select({ id: prompts.id }).from(prompts).where(eq(prompts.systemId, q.systemId)).orderBy(asc(prompts.name));
  return Promise.all(ids.map(async ({ id }) => (await plan(db, { ...q, promptId: id }, detail)).preview));
}

/** Result of {@link adoptDatasetVersion}. */
export interface UseResult {
  promptName: string;
  added: number;
  /** Rows left out because their case IDs are taken (skip). */
  skipped: number;
  /** Existing cases that got a new revision (revise), and those already equal to the row. */
  revised: number;
  unchanged: number;
  /** Rows left out because they are blocked (not corrected, not excluded). */
  blockedRows: number[];
  caseKeys: string[];
}

/** The refusals of a planned use, checked again under the write lock. */
function refusal({ preview, detail, drafts }: Planned): LibraryError | null {
  if (preview.mappingErrors.length > 0)
    return new LibraryError("validation", `This version cannot be used: ${preview.mappingErrors.map((p) => p.message).join(" ")}`);
  if (preview.alreadyAdded) {
    return new LibraryError(
      "conflict",
      `Version ${detail.version} of "${detail.datasetName}" is already in the library of ${preview.promptName} (${preview.alreadyAdded.count} cases). Adding it again would duplicate them.`,
    );
  }
  if (preview.collisionRefusals.length > 0) {
    return new LibraryError(
      "conflict",
      `No case was added: ${preview.collisionRefusals.slice(0, 3).join(" ")}${preview.collisionRefusals.length > 3 ? " …" : ""}`,
    );
  }
  if (drafts.length === 0 || drafts.length === preview.skipped) {
    return new LibraryError(
      "validation",
      `No row of version ${detail.version} can be added: every row is excluded or blocked. Correct the blocked rows in a new version.`,
    );
  }
  return null;
}

/**
 * Use a dataset: copies the version's rows into the prompt's library as golden cases with source
 * `dataset` and origin `{ kind: "dataset", datasetId, datasetName, version, row }`; recorded
 * outputs, history, variables, tags, notes and extra columns travel with each case. Blocked rows
 * are not copied (they must be corrected in a new version, or excluded). All or nothing: the
 * checks and `addCases` run under one write transaction.
 * @throws LibraryError `not_found`, `validation` (no row can be added; a case ID is already used),
 *   `conflict` (this version is already in this prompt's library). Nothing is written then.
 */
export async function adoptDatasetVersion(db: Db, q: UseQuery): Promise<UseResult> {
  return adopt(db, q);
}

async function adopt(db: Db, q: UseQuery): Promise<UseResult> {
  let inserted: { id: number; caseKey: string }[] = [];
  let planned: Planned | undefined;
  let added: ReturnType<Planned["drafts"]["filter"]> = [];
  let revised = 0;
  let unchanged = 0;
  await transaction(db, async (tx) => {
    planned = await plan(tx, q);
    const refused = refusal(planned);
    if (refused) throw refused;
    const { detail, drafts, collisions } = planned;
    const skipped = new Set(collisions.skipped);
    const now = Date.now();
    const originOf = (row: number): CaseOrigin => ({
      kind: "dataset",
      datasetId: detail.datasetId,
      datasetName: detail.datasetName,
      version: detail.version,
      row,
    });
    // The version's checks travel with every case made from it (issue 15).
    const contentOf = (d: Planned["drafts"][number]) => {
      const evaluators = [
        ...d.content.evaluators,
        ...evaluatorsForRow(detail.checks, { expected: d.content.expected, expectedToolNames: d.expectedToolNames }),
      ];
      // A row the checks cannot use (an expected result that is not a valid regular expression, …) is named.
      const bad = validateEvaluatorSpecs(evaluators, { expected: d.content.expected })[0];
      if (bad) {
        const kind = String((evaluators[bad.index] as { kind?: unknown }).kind);
        throw new LibraryError(
          "validation",
          `Row ${d.rowNumber}: the ${kind} check cannot be made from this row: ${bad.message}. No case was added; choose other checks or correct the row in a new version.`,
        );
      }
      return { ...d.content, evaluators };
    };
    for (const d of drafts) {
      const existing = collisions.revised.get(d.rowNumber);
      if (!existing) continue;
      // A new revision of the case made from an earlier version of this dataset.
      const c = (await first(tx.select().from(cases).where(eq(cases.id, existing.caseId))))!;
      const cur = (await first(tx.select().from(caseRevisions).where(eq(caseRevisions.id, c.currentRevisionId!))))!;
      const after = contentOf(d);
      await tx
        .update(cases)
        .set({ origin: JSON.stringify(originOf(d.rowNumber)) })
        .where(eq(cases.id, c.id));
      if (sameContent(decodeContent(cur.input, cur.expected, cur.details), after)) {
        unchanged++;
        continue;
      }
      const number = c.revisionNumber + 1;
      const [rev] = await tx
        .insert(caseRevisions)
        .values({
          caseId: c.id,
          number,
          input: after.input,
          expected: after.expected,
          details: encodeDetails(after),
          createdAt: now,
          ...authorColumnsOf(q.author),
        })
        .returning({ id: caseRevisions.id });
      await tx.update(cases).set({ currentRevisionId: rev.id, revisionNumber: number, updatedAt: now }).where(eq(cases.id, c.id));
      revised++;
    }
    added = drafts.filter((d) => !skipped.has(d.rowNumber) && !collisions.revised.has(d.rowNumber));
    const list: NewCase[] = added.map((d) => ({
      systemId: q.systemId,
      promptId: q.promptId,
      caseKey: collisions.renamed.get(d.rowNumber) ?? d.caseKey,
      source: "dataset",
      origin: originOf(d.rowNumber),
      content: contentOf(d),
      author: q.author,
    }));
    try {
      // In this transaction: a refused case rolls back the revisions above too.
      inserted = await addCasesTx(tx, list);
      await recordActivityTx(tx, q.author, {
        action: "dataset.use",
        subjectType: "dataset",
        subjectId: detail.datasetId,
        systemId: q.systemId,
        detail: `${detail.datasetName} v${detail.version} → ${planned!.preview.promptName}: ${inserted.length} added, ${revised} revised`,
      });
    } catch (e) {
      if (e instanceof LibraryError) {
        const m = /^Case (\d+) of \d+: /.exec(e.message);
        if (m) throw new LibraryError(e.code, `Row ${added[Number(m[1]) - 1]?.rowNumber}: ${e.message.slice(m[0].length)} No case was added.`, e.fieldErrors);
      }
      throw e;
    }
  });
  const { preview } = planned!;
  return {
    promptName: preview.promptName,
    added: inserted.length,
    skipped: preview.skipped,
    revised,
    unchanged,
    blockedRows: preview.blocked.map((b) => b.row),
    caseKeys: inserted.map((c) => c.caseKey),
  };
}
