/**
 * zod schemas of what shells receive for datasets (forms, server actions, the CLI's mapping file).
 * DESIGN.md §2: shells parse input with zod and re-validate on the server.
 */
import { z } from "zod";
import { columnMappingSchema } from "@/lib/import/mapping-schema";
import { COLLISION_CHOICES } from "./collisions";
import { datasetChecksSchema } from "./checks";
import { KEEP_ENTRY_MAX, KEEP_LIST_MAX } from "@/lib/import/redact/settings";
import { LIMITS } from "@/lib/library/limits";

/** Longest dataset name, in characters. */
export const DATASET_NAME_MAX = 100;

/** A dataset name: trimmed, 1–100 characters, no control characters. */
export const datasetNameSchema = z
  .string({ error: "Dataset name must be text." })
  .trim()
  .min(1, { error: "Dataset name is required." })
  .max(DATASET_NAME_MAX, { error: `Dataset name is too long: the limit is ${DATASET_NAME_MAX} characters.` })
  // eslint-disable-next-line no-control-regex
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { error: "Dataset name must not contain control characters (tabs, newlines)." });

/** Corrections: data-row number → column → new text (each cell within the input-size limit). */
export const correctionsSchema = z.record(
  z.string().regex(/^[1-9]\d{0,8}$/, { error: "A correction must name a data-row number." }),
  z.record(
    z.string(),
    z.string().max(LIMITS.input, { error: `A corrected cell is too long: the limit is ${LIMITS.input.toLocaleString("en-US")} characters.` }),
  ),
);

/** Excluded data-row numbers. */
export const excludedRowsSchema = z.array(z.number().int().positive()).max(1_000_000);

/** A dataset's redaction settings: on or off, and the values (or `*` patterns) kept as written. */
export const redactionSettingsSchema = z.object({
  enabled: z.boolean({ error: "Redaction must be on (true) or off (false)." }),
  keep: z
    .array(
      z
        .string()
        .trim()
        .min(1, { error: "A keep-list entry is empty." })
        .max(KEEP_ENTRY_MAX, { error: `A keep-list entry is too long: the limit is ${KEEP_ENTRY_MAX} characters.` }),
    )
    .max(KEEP_LIST_MAX, { error: `The keep-list is too long: the limit is ${KEEP_LIST_MAX} entries.` })
    .default([]),
});

/** Save on the Map and preview step. */
export const saveDatasetSchema = z.object({
  systemId: z.string().min(1),
  uploadId: z.coerce.number().int().positive(),
  sheet: z.string().optional(),
  /** The header's line (CSV) or sheet row (XLSX); 0 = the first non-empty row; absent = detected. */
  headerRow: z.number().int().min(0).max(1_000_000_000).optional(),
  name: datasetNameSchema,
  mapping: columnMappingSchema,
  corrections: correctionsSchema.default({}),
  excludedRows: excludedRowsSchema.default([]),
  /** Absent: the dataset's settings (its latest version's), or on with nothing kept for a new dataset. */
  redaction: redactionSettingsSchema.optional(),
  /** The checks confirmed for the whole dataset; absent: the proposed ones. */
  checks: datasetChecksSchema.optional(),
});

/** Use a dataset: one version into one prompt's library. */
export const useDatasetSchema = z.object({
  systemId: z.string().min(1),
  datasetId: z.coerce.number().int().positive(),
  version: z.coerce.number().int().positive(),
  promptId: z.coerce.number({ error: "Choose a target prompt." }).int().positive({ error: "Choose a target prompt." }),
  /** What to do with rows whose case IDs the prompt's library already uses. */
  onCollision: z.enum(COLLISION_CHOICES).optional(),
});

/**
 * The CLI's `--mapping` file: a list of column assignments, or
 * `{ mapping, corrections?, excludedRows?, redaction? }`.
 */
export const mappingFileSchema = z.preprocess(
  (v) => (Array.isArray(v) ? { mapping: v } : v),
  z.object(
    {
      mapping: columnMappingSchema,
      corrections: correctionsSchema.default({}),
      excludedRows: excludedRowsSchema.default([]),
      redaction: redactionSettingsSchema.optional(),
    },
    { error: "Expected a list of column assignments or an object with a mapping list." },
  ),
);

/**
 * The default dataset name for a file: its name without the extension (`faq-2024.csv` → `faq-2024`).
 * @param fileName the uploaded file name
 */
export function defaultDatasetName(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, "");
  const stem = base.replace(/\.[^.]+$/, "");
  return (stem || base).trim().slice(0, DATASET_NAME_MAX) || "dataset";
}
