/** POST /api/v1/datasets/import: save a data file as a new dataset version (editor; token scope run). */
import { getDb } from "@/db/client";
import { datasetImportBodySchema } from "@/lib/api/schemas";
import { apiRoute } from "@/server/api/handler";
import { importForApi } from "@/server/api/datasets";
import { importLimitsFromEnv } from "@/server/import-limits";

export const dynamic = "force-dynamic";

const limits = importLimitsFromEnv();

/** The file travels as base64 (4 bytes per 3) beside a small JSON envelope. */
export const POST = apiRoute(
  { role: "editor", body: datasetImportBodySchema, maxBytes: Math.ceil((limits.maxBytes * 4) / 3) + 256 * 1024, status: 201 },
  ({ actor, body }) => importForApi(getDb(), body, actor, limits),
);
