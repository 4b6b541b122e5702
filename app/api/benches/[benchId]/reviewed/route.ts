/**
 * GET ?format=csv|jsonl: the reviewed set of the bench's prompt as a calibration dataset (issue 18):
 * one row per human verdict on a judged criterion, across the prompt's benches. CSV cells that
 * would start a formula are escaped.
 */
import { getDb } from "@/db/client";
import { getBench } from "@/db/queries/benches";
import { toCsv, toJsonl } from "@/lib/import/export";
import { guardedRoute } from "@/server/auth/guard";
import { REVIEWED_COLUMNS, reviewedSetRows } from "@/server/review/export";

export const dynamic = "force-dynamic";

export const GET = guardedRoute("viewer", async (req: Request, { params }: { params: Promise<{ benchId: string }> }) => {
  const id = Number((await params).benchId);
  const format = new URL(req.url).searchParams.get("format") ?? "csv";
  if (format !== "csv" && format !== "jsonl") return Response.json({ error: "format must be csv or jsonl" }, { status: 400 });
  const db = getDb();
  const bench = Number.isInteger(id) && id > 0 ? await getBench(db, id) : null;
  if (!bench) return Response.json({ error: "no such bench" }, { status: 404 });
  const rows = await reviewedSetRows(db, bench.promptId);
  const name = `reviewed-${bench.promptName.replace(/[^\w.-]+/g, "_")}-bench-${id}`;
  if (format === "jsonl")
    return new Response(toJsonl(rows, REVIEWED_COLUMNS), {
      headers: { "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="${name}.jsonl"` },
    });
  return new Response(toCsv(rows, { columns: REVIEWED_COLUMNS, bom: true }), {
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${name}.csv"` },
  });
});
