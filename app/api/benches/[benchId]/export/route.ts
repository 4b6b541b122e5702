/**
 * GET ?format=csv|json: a bench's results as a file (one row per trial with the case's input and
 * expected result, the output, tool calls, each check's verdict and reason, and which rerun added
 * it: `rerun` confirm|error|empty, `rerunOf` the errored trial it reruns; JSON adds the
 * summary, recommendation, regressions, fixes and manifest). CSV cells that would start a formula
 * are escaped.
 */
import { getDb } from "@/db/client";
import { getBench, getManifest } from "@/db/queries/benches";
import { exportTrialRows } from "@/db/queries/bench-matrix";
import { toCsv } from "@/lib/import/export";
import { statsOf } from "@/lib/bench/aggregate";
import { guardedRoute } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guardedRoute("viewer", async (req: Request, { params }: { params: Promise<{ benchId: string }> }) => {
  const id = Number((await params).benchId);
  const format = new URL(req.url).searchParams.get("format") ?? "csv";
  if (format !== "csv" && format !== "json") return Response.json({ error: "format must be csv or json" }, { status: 400 });
  const db = getDb();
  const bench = Number.isInteger(id) && id > 0 ? await getBench(db, id) : null;
  if (!bench) return Response.json({ error: "no such bench" }, { status: 404 });
  const rows = await exportTrialRows(db, id);
  const name = `bench-${id}`;
  if (format === "json") {
    const body = {
      bench: {
        id: bench.id,
        title: bench.title,
        prompt: bench.promptName,
        status: bench.status,
        createdAt: bench.createdAt,
        finishedAt: bench.finishedAt,
        settings: bench.settings,
        rubric: bench.rubric,
        rubricHash: bench.rubricHash,
      },
      candidates: bench.candidates.map((c) => ({ id: c.id, label: c.label, kind: c.kind, stats: statsOf(bench.summary, c.id) })),
      recommendation: bench.recommendation,
      regressions: bench.summary?.regressions ?? {},
      fixes: bench.summary?.fixes ?? {},
      manifest: (await getManifest(db, id)).map((m) => ({
        position: m.position,
        caseId: m.caseKey,
        caseRevision: m.caseRevisionId,
        source: m.source,
        group: m.group,
        included: m.included,
        reason: m.reason,
        note: m.note,
      })),
      trials: rows.map((r) => ({
        ...r,
        toolCalls: r.toolCalls ? JSON.parse(String(r.toolCalls)) : r.status === "done" ? [] : null,
        checks: r.checks ? JSON.parse(String(r.checks)) : null,
      })),
    };
    return new Response(JSON.stringify(body, null, 2), {
      headers: { "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="${name}.json"` },
    });
  }
  const table = rows.map((r) => {
    const checks = r.checks ? (JSON.parse(String(r.checks)) as { label: string; verdict: string; message?: string }[]) : [];
    const { checks: _c, rerun, rerunOf, ...rest } = r;
    // Each check with its reason: "verdict: label — reason", checks separated by " | ".
    const checkText = checks.map((c) => `${c.verdict}: ${c.label}${c.message ? ` — ${c.message}` : ""}`).join(" | ");
    const toolCalls = r.toolCalls ?? (r.status === "done" ? "[]" : null);
    // The rerun columns last (issue #16 §3), so the earlier columns keep their places.
    return Object.fromEntries(Object.entries({ ...rest, toolCalls, checks: checkText, rerun, rerunOf }).map(([k, v]) => [k, v == null ? "" : String(v)]));
  });
  // A byte-order mark so spreadsheet programs read the file as UTF-8.
  return new Response(toCsv(table, { bom: true }), {
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${name}.csv"` },
  });
});
