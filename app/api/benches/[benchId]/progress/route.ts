/** GET: live progress of a bench and what it spent, as JSON (the bench page polls it). */
import { getDb } from "@/db/client";
import { guardedRoute } from "@/server/auth/guard";
import { benchProgressPoll } from "@/server/bench/progress-poll";

export const dynamic = "force-dynamic";

export const GET = guardedRoute("viewer", async (_req: Request, { params }: { params: Promise<{ benchId: string }> }) => {
  const id = Number((await params).benchId);
  const p = Number.isInteger(id) && id > 0 ? await benchProgressPoll(getDb(), id) : null;
  if (!p) return Response.json({ error: "no such bench" }, { status: 404 });
  return Response.json(p, { headers: { "cache-control": "no-store" } });
});
