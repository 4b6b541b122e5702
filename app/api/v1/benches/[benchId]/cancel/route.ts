/** POST /api/v1/benches/{benchId}/cancel: stop a running bench (editor; token scope run). Body: `{}`. */
import { getDb } from "@/db/client";
import { cancelBodySchema } from "@/lib/api/schemas";
import { apiRoute, idParam } from "@/server/api/handler";
import { cancelBench } from "@/server/api/benches";

export const dynamic = "force-dynamic";

export const POST = apiRoute<typeof cancelBodySchema, { benchId: string }>({ role: "editor", body: cancelBodySchema }, ({ actor, params }) =>
  cancelBench(getDb(), idParam(params.benchId, "Bench"), actor),
);
