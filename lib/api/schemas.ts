/**
 * The request bodies of the HTTP API for the CLI (`/api/v1`, issue 19), as zod schemas: the route
 * handlers validate with them and the OpenAPI document is generated from them (lib/api/openapi.ts).
 * Field names follow the CLI's options, so a 400 names the option the user typed.
 */
import { z } from "zod";
import { datasetChecksSchema } from "@/lib/datasets/checks";
import { COLLISION_CHOICES } from "@/lib/datasets/collisions";
import { mappingFileSchema } from "@/lib/datasets/schemas";
import { releaseSchema } from "@/lib/suite/release-schema";

/** A numeric CLI option: sent as the text the user typed, or as a number. */
const optionNumber = z
  .union([z.string().max(40), z.number()])
  .transform(String)
  .optional();
/** "is required" for a missing field, "must be …" for a value of the wrong type. */
const required = (what: string) => ({ error: (iss: { input?: unknown }) => (iss.input === undefined ? "is required" : `must be ${what}`) });
const name = z.string(required("text")).trim().min(1, "must not be empty").max(200, "is too long (at most 200 characters)");

/**
 * `POST /api/v1/benches`: `benchwork bench run`'s options. Candidates are `recorded:COLUMN` or
 * `model:CONFIG[@REVISION]`; `cases` is `all`, `tag:T`, `source:S` or `dataset:NAME`.
 */
export const benchRunBodySchema = z
  .object({
    system: name.describe("the system's id"),
    prompt: name.describe("the target prompt's name"),
    candidate: z
      .array(z.string(required("text")).max(300), required("a list of candidate specs"))
      .max(20, "at most 20 candidates")
      .default([])
      .describe("recorded:COLUMN or model:CONFIG[@REVISION]"),
    baseline: z.string().max(20).optional().describe("0-based candidate index, last or none (default 0)"),
    cases: z.string().max(300).optional().describe("all | tag:T | source:S | dataset:NAME (default all)"),
    retained: z.boolean().optional().describe("false leaves out retained regression cases"),
    budget: optionNumber,
    repeats: optionNumber,
    concurrency: optionNumber,
    timeout: optionNumber.describe("per-trial timeout in seconds"),
    judge: z.string().max(200).optional().describe("model configuration that judges the rubric's criteria"),
    generateCriteria: optionNumber,
    generateScenarios: optionNumber,
    generator: z.string().max(200).optional(),
    maxCost: optionNumber.describe("spend cap in USD (issue 16 §4)"),
    maxLatencyIncrease: optionNumber.describe("block a candidate whose p95 latency is more than this % over the baseline's"),
    maxCostIncrease: optionNumber.describe("block a candidate whose cost per case is more than this % over the baseline's"),
    /** Makes a retried request launch one bench (the first one's id comes back). */
    launchKey: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{8,100}$/, "must be 8-100 letters, digits or . _ : -")
      .optional(),
  })
  .strict();
export type BenchRunBody = z.output<typeof benchRunBodySchema>;

/** `POST /api/v1/publish`: a compiled release (`benchwork compile`'s file) into a system's library. */
export const publishBodySchema = z
  .object({
    system: name.describe("the system whose library receives the cases"),
    prompt: name.optional().describe("put every case into this prompt (default: one prompt per eval id)"),
    release: releaseSchema,
  })
  .strict();
export type PublishBody = z.output<typeof publishBodySchema>;

/** `POST /api/v1/datasets/import`: a data file (base64) saved as a new dataset version. */
export const datasetImportBodySchema = z
  .object({
    system: name,
    name: name.describe("dataset name; an existing name gets its next version"),
    fileName: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .refine((s) => !/[\\/]/.test(s), "must be a file name without folders"),
    fileBase64: z.base64("must be the file's bytes in base64"),
    sheet: z.string().max(200).optional(),
    headerRow: z.number().int().min(0).max(1_000_000).optional(),
    mapping: mappingFileSchema
      .optional()
      .describe("what --mapping's file holds: a list of column assignments or { mapping, corrections, excludedRows, redaction }"),
    checks: datasetChecksSchema.optional(),
    use: name.optional().describe("also add the version's golden cases to this prompt"),
    onCollision: z.enum(COLLISION_CHOICES).optional(),
  })
  .strict();
export type DatasetImportBody = z.output<typeof datasetImportBodySchema>;

/** `POST /api/v1/benches/{benchId}/cancel`: an empty object (a JSON body, so no cross-site form can send it). */
export const cancelBodySchema = z.object({}).strict();

/** Every error response: a machine code, one line for the user, and the fields (request body paths) at fault. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fieldErrors: z.record(z.string(), z.string()).optional(),
    problems: z.array(z.unknown()).optional(),
  }),
});
export type ApiError = z.output<typeof apiErrorSchema>["error"];
