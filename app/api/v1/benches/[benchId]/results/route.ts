/** GET /api/v1/benches/{benchId}/results: what `bench run` prints and writes once the bench ended (viewer; token scope read). */
import { getDb } from "@/db/client";
import { apiRoute, idParam } from "@/server/api/handler";
import { benchResults } from "@/server/api/benches";

export const dynamic = "force-dynamic";

export const GET = apiRoute<undefined, { benchId: string }>({ role: "viewer" }, ({ params }) => benchResults(getDb(), idParam(params.benchId, "Bench")));
