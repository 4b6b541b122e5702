/** GET /api/v1/benches/{benchId}/progress: trial counts and status (viewer; token scope read). */
import { getDb } from "@/db/client";
import { apiRoute, idParam } from "@/server/api/handler";
import { benchProgress } from "@/server/api/benches";

export const dynamic = "force-dynamic";

export const GET = apiRoute<undefined, { benchId: string }>({ role: "viewer" }, ({ params }) => benchProgress(getDb(), idParam(params.benchId, "Bench")));
