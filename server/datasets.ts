/**
 * Dataset import shared by the web page (Save on Map and preview) and the CLI
 * (`benchwork dataset import`): parse the file on the server with bounded time and memory, check
 * rows against the system's prompt templates, and save one immutable version.
 */
import type { Author } from "@/lib/audit/author";
import type { Db } from "@/db/client";
import {
  datasetRedactionSettings,
  saveAndUseDatasetVersion,
  saveDatasetVersion,
  type SavedVersion,
  type SaveVersionInput,
  type UseResult,
} from "@/db/queries/datasets";
import type { CollisionChoice } from "@/lib/datasets/collisions";
import { getSystem, listPrompts } from "@/db/queries/systems";
import { proposedChecks, type DatasetCheck } from "@/lib/datasets/checks";
import { DatasetError } from "@/lib/datasets/errors";
import { problemPlace } from "@/lib/datasets/labels";
import { prepareVersion } from "@/lib/datasets/prepare";
import type { Corrections } from "@/lib/datasets/types";
import { unionVariables } from "@/lib/datasets/use-plan";
import { detectHeaderRow, withHeaderRow } from "@/lib/import/header-row";
import type { ImportLimits } from "@/lib/import/limits";
import type { RedactionSettings } from "@/lib/import/redact/settings";
import type { ColumnMapping } from "@/lib/import/mapping";
import { suggestMapping } from "@/lib/import/suggest";
import type { ImportTable } from "@/lib/import/types";
import { LibraryError } from "@/lib/library/errors";
import { templateVariables } from "@/lib/runtime/template";
import { parseBounded, type ParseBounds } from "./parse-bounded";

/**
 * Variables the system's prompt templates use: the union over every prompt's current revision
 * (issue 3: rows are checked against them when the target prompt is not known yet).
 */
export async function systemTemplateVariables(db: Db, systemId: string): Promise<string[]> {
  const prompts = await listPrompts(db, systemId);
  return unionVariables(prompts.map((p) => templateVariables(p.revision?.systemPrompt ?? "")));
}

/** Expected results of the first 20 rows (what the proposal of checks looks at). */
export function sampleExpected(table: ImportTable, mapping: ColumnMapping): string[] {
  const column = mapping.find((a) => a.role === "expected")?.column;
  const j = column === undefined ? -1 : table.columns.indexOf(column);
  return j < 0 ? [] : table.rows.slice(0, 20).map((r) => r[j] ?? "");
}

/** One import: the file, where it goes, and the user's choices. */
export interface ImportRequest {
  systemId: string;
  /** Who imports (issue 19): on the version, the cases made with `use`, and in the activity. */
  author?: Author | null;
  name: string;
  fileName: string;
  bytes: Uint8Array;
  /** XLSX: the worksheet to read. */
  sheet?: string;
  /**
   * CSV/XLSX: the line (CSV) or sheet row (XLSX) of the header; 0 = the first non-empty row as
   * read; default: detected (a title above the header, lib/import/header-row.ts).
   */
  headerRow?: number;
  /** Column roles; default: the suggested mapping. */
  mapping?: ColumnMapping;
  corrections?: Corrections;
  excludedRows?: number[];
  /** Redaction on/off and keep-list; default: the dataset's latest version's settings (on, nothing kept for a new dataset). */
  redaction?: RedactionSettings;
  /** The upload this save consumes (web). */
  uploadId?: number;
  limits: ImportLimits;
  bounds?: ParseBounds;
  /** Refuse to save while rows are blocked (the CLI: there is no preview to correct them in). */
  refuseBlockedRows?: boolean;
  /** The checks confirmed for the whole dataset; default: the ones proposed for the mapping (lib/datasets/checks.ts). */
  checks?: DatasetCheck[];
  /** Use the saved version for this prompt in the same transaction (the CLI's `--use`): a refused use saves nothing. */
  use?: { promptId: number; onCollision?: CollisionChoice };
}

/**
 * Parses (bounded), checks and saves a dataset version.
 * @returns the saved version, the parsed table and the mapping used
 * @throws LibraryError `not_found` (system) or `validation` (name); ImportError (file refused, or
 *   `header_row_not_found`);
 *   DatasetError `parse_timeout` / `parse_memory` / `parse_failed`, `needs_sheet`,
 *   `invalid_mapping`, `invalid_corrections`, `upload_not_found`, `blocked_rows`; with `use`, what
 *   adoptDatasetVersion throws (`conflict` for case IDs the prompt already uses, naming the choices).
 *   Nothing is stored when it throws.
 */
export async function importDataset(
  db: Db,
  req: ImportRequest,
): Promise<{ saved: SavedVersion; table: ImportTable; mapping: ColumnMapping; used?: UseResult }> {
  if (!(await getSystem(db, req.systemId))) throw new LibraryError("not_found", `System "${req.systemId}" does not exist.`);
  // With --use the target prompt is known: its variables, not every prompt's (a warning about
  // another prompt's {{variable}} would be wrong for this one). A prompt of another system is
  // refused by the use itself.
  const target = req.use ? (await listPrompts(db, req.systemId)).find((p) => p.id === req.use!.promptId) : undefined;
  const vars = target ? templateVariables(target.revision?.systemPrompt ?? "") : await systemTemplateVariables(db, req.systemId);
  const parsed = await parseBounded(req.bytes, req.fileName, { sheet: req.sheet, limits: req.limits }, req.bounds);
  if (parsed.needsSheet) {
    const names = (parsed.sheets ?? []).map((s) => `"${s.name}"${s.hidden ? " (hidden)" : ""}`).join(", ");
    throw new DatasetError("needs_sheet", `${req.fileName} has several worksheets (${names}); choose the one that holds the cases.`);
  }
  const table = withHeaderRow(parsed, req.headerRow ?? detectHeaderRow(parsed) ?? 0);
  const mapping = req.mapping ?? suggestMapping(table.columns, { templateVariables: vars, sampleRows: table.rows.slice(0, 20) });
  if (req.refuseBlockedRows) {
    const prepared = prepareVersion(table, { mapping, corrections: req.corrections, excludedRows: req.excludedRows, templateVariables: vars });
    if (prepared.blockedRows.length > 0) {
      const blocking = prepared.problems.filter((p) => p.severity === "error" && p.row !== undefined && prepared.blockedRows.includes(p.row));
      const first = blocking
        .slice(0, 3)
        .map((p) => `${problemPlace(p)}: ${p.message}`)
        .join("; ");
      throw new DatasetError(
        "blocked_rows",
        `${prepared.blockedRows.length} row(s) of ${req.fileName} cannot become cases (${first}${blocking.length > 3 ? "; …" : ""}). Correct or exclude them, then import again.`,
        blocking,
      );
    }
  }
  const input: SaveVersionInput = {
    systemId: req.systemId,
    name: req.name,
    fileName: req.fileName,
    fileBytes: req.bytes,
    table,
    headerRow: table.headerSource !== parsed.headerSource ? (table.headerSource ?? 0) : 0,
    mapping,
    corrections: req.corrections,
    excludedRows: req.excludedRows,
    templateVariables: vars,
    uploadId: req.uploadId,
    redaction: req.redaction ?? (await datasetRedactionSettings(db, req.systemId, req.name)) ?? undefined,
    checks: req.checks ?? proposedChecks(mapping, sampleExpected(table, mapping)),
    author: req.author,
  };
  if (req.use) {
    const { saved, used } = await saveAndUseDatasetVersion(db, input, req.use);
    return { saved, table, mapping, used };
  }
  return { saved: await saveDatasetVersion(db, input), table, mapping };
}
