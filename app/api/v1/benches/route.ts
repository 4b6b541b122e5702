/** POST /api/v1/benches: launch a bench from `bench run`'s options (editor; token scope run). */
import { getDb } from "@/db/client";
import { benchRunBodySchema } from "@/lib/api/schemas";
import { apiRoute } from "@/server/api/handler";
import { launchBenchRun } from "@/server/api/benches";

export const dynamic = "force-dynamic";

export const POST = apiRoute({ role: "editor", body: benchRunBodySchema, status: 201 }, ({ actor, body }) => launchBenchRun(getDb(), body, actor, process.env));
