/**
 * Shared types of dataset versions (DESIGN.md §1 "dataset / dataset version", §5). Pure data.
 */
import type { PiiType } from "@/lib/import/redact/detectors";
import type { PiiCounts } from "@/lib/import/redact/redact";
import type { RedactionSettings } from "@/lib/import/redact/settings";

/**
 * Cell corrections made in the preview: data-row number (1-based, as a string key in JSON) →
 * column name → the new cell text. Saved with the version so the change stays visible.
 */
export type Corrections = Record<number, Record<string, string>>;

/**
 * The redaction report as stored with a version. It is the import core's report without the
 * "before" text of the sample cells: the stored rows are redacted, and the report must not put
 * the personal data back next to them.
 */
export interface StoredRedactionReport {
  /** Replacements per type over the whole table (every type present, 0 when none). */
  totals: Record<PiiType, number>;
  /** Replacements per column and type, in column order; columns without replacements are left out. */
  columns: { column: string; counts: PiiCounts; total: number }[];
  changedCells: number;
  changedRows: number;
  /** The first changed cells after redaction (row is the 1-based data-row number). */
  preview: { row: number; column: string; after: string }[];
  /** The dataset's settings when this version was saved (absent in versions saved before they existed: on, nothing kept). */
  settings?: RedactionSettings;
  /** Per keep-list entry: how many values it kept as written. */
  kept?: { entry: string; count: number }[];
}

/**
 * What the upload route handler answers for an accepted file
 * (`POST /api/systems/[systemId]/uploads?name=FILE`): the upload id, where to map it, and the
 * importer's first look (no rows).
 */
export interface UploadAccepted {
  uploadId: number;
  /** The Map and preview page of this upload. */
  href: string;
  fileName: string;
  format: string;
  needsSheet: boolean;
  sheets: { name: string; hidden: boolean }[];
  sheet: string | null;
  columns: string[];
  rowCount: number;
  errorCount: number;
  warningCount: number;
}
