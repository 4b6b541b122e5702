/** POST /api/v1/publish: load a compiled release into a system's library (editor; token scope run). */
import { getDb } from "@/db/client";
import { publishBodySchema } from "@/lib/api/schemas";
import { apiRoute } from "@/server/api/handler";
import { publishForApi } from "@/server/api/publish";

export const dynamic = "force-dynamic";

/** A release with thousands of cases is a few MB of JSON. */
const MAX_RELEASE_BYTES = 16 * 1024 * 1024;

export const POST = apiRoute({ role: "editor", body: publishBodySchema, maxBytes: MAX_RELEASE_BYTES }, ({ actor, body }) =>
  publishForApi(getDb(), body, actor),
);
