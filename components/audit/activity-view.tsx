import Link from "next/link";
import type { ActivityRow } from "@/db/queries/activity";
import { ACTIVITY_PAGE_SIZE, activityHref, type ActivityQuery, type ActivitySortKey } from "@/lib/audit/activity-query";
import { LocalTime } from "@/components/ui/local-time";

const input = "rounded-md border border-slate-300 bg-white px-2 py-1 text-sm";

/** Where a subject lives, when it has a page of its own. */
function subjectHref(r: ActivityRow): string | null {
  if (!r.systemId) return null;
  const s = encodeURIComponent(r.systemId);
  if (r.subjectType === "bench") return `/systems/${s}/benches/${r.subjectId}`;
  if (r.subjectType === "case") return `/systems/${s}/library?case=${r.subjectId}`;
  if (r.subjectType === "dataset") return `/systems/${s}/datasets/${r.subjectId}`;
  return null;
}

function SortHeader({ q, col, label }: { q: ActivityQuery; col: ActivitySortKey; label: string }) {
  const active = q.sort === col;
  const dir = active && q.dir === "desc" ? "asc" : "desc";
  return (
    <th className="px-3 py-2 font-medium" aria-sort={active ? (q.dir === "asc" ? "ascending" : "descending") : "none"}>
      <Link href={activityHref(q, { sort: col, dir })} className="hover:text-slate-900">
        {label}
        {active ? (q.dir === "asc" ? " ▲" : " ▼") : ""}
      </Link>
    </th>
  );
}

/** The Activity page: a GET filter form (so the filters are in the URL), a sortable table and paging. */
export function ActivityView({
  query: q,
  rows,
  total,
  facets,
}: {
  query: ActivityQuery;
  rows: ActivityRow[];
  total: number;
  facets: { actors: string[]; actions: string[]; subjectTypes: string[] };
}) {
  const pages = Math.max(1, Math.ceil(total / ACTIVITY_PAGE_SIZE));
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-xl font-semibold">Activity</h1>
        <p className="mt-1 text-sm text-slate-600">
          Every change to cases, criteria, prompts, datasets and benches: who, what and when. Only admins see this page.
        </p>
      </div>
      <form method="get" action="/activity" className="flex flex-wrap items-end gap-3 text-xs text-slate-600" aria-label="Filters">
        <label className="flex flex-col gap-1">
          Who
          <select name="actor" defaultValue={q.actor ?? ""} className={input}>
            <option value="">anyone</option>
            {facets.actors.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Action
          <select name="action" defaultValue={q.action ?? ""} className={input}>
            <option value="">any</option>
            {facets.actions.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Subject
          <select name="subject" defaultValue={q.subject ?? ""} className={input}>
            <option value="">any</option>
            {facets.subjectTypes.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Subject id
          <input name="subjectId" defaultValue={q.subjectId ?? ""} className={`${input} w-24`} />
        </label>
        <label className="flex flex-col gap-1">
          From (UTC)
          <input type="date" name="from" defaultValue={q.from ?? ""} className={input} />
        </label>
        <label className="flex flex-col gap-1">
          To (UTC)
          <input type="date" name="to" defaultValue={q.to ?? ""} className={input} />
        </label>
        {q.sort !== "at" ? <input type="hidden" name="sort" value={q.sort} /> : null}
        {q.dir !== "desc" ? <input type="hidden" name="dir" value={q.dir} /> : null}
        <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700">
          Filter
        </button>
        <Link href="/activity" className="py-1.5 text-sm text-indigo-700 hover:underline">
          Clear
        </Link>
      </form>
      <p className="text-xs text-slate-600" data-testid="activity-count">
        {total.toLocaleString("en-US")} change{total === 1 ? "" : "s"}
        {pages > 1 ? ` · page ${q.page} of ${pages}` : ""}
      </p>
      <table className="w-full border-collapse rounded-lg border border-slate-200 bg-white text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
          <tr>
            <SortHeader q={q} col="at" label="When" />
            <SortHeader q={q} col="actor" label="Who" />
            <SortHeader q={q} col="action" label="Action" />
            <SortHeader q={q} col="subject" label="Subject" />
            <th className="px-3 py-2 font-medium">Detail</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={5} className="px-3 py-6 text-center text-slate-500">
                No change matches these filters.
              </td>
            </tr>
          ) : (
            rows.map((r) => {
              const href = subjectHref(r);
              const subject = `${r.subjectType} #${r.subjectId}`;
              return (
                <tr key={r.id} data-testid="activity-row">
                  <td className="px-3 py-2 text-xs whitespace-nowrap text-slate-600">
                    <LocalTime ms={r.at} compact />
                  </td>
                  <td className="px-3 py-2">{r.actorEmail}</td>
                  <td className="px-3 py-2">
                    <code className="text-xs">{r.action}</code>
                  </td>
                  <td className="px-3 py-2">
                    {href ? (
                      <Link href={href} className="text-indigo-700 hover:underline">
                        {subject}
                      </Link>
                    ) : (
                      subject
                    )}
                    {r.systemId ? <span className="block text-xs text-slate-500">{r.systemId}</span> : null}
                  </td>
                  <td className="px-3 py-2 text-slate-700">{r.detail}</td>
                </tr>
              );
            })
          )}
        </tbody>
      </table>
      {pages > 1 ? (
        <nav className="flex gap-3 text-sm" aria-label="Pages">
          {q.page > 1 ? (
            <Link href={activityHref(q, { page: q.page - 1 })} className="text-indigo-700 hover:underline">
              ← Previous
            </Link>
          ) : null}
          {q.page < pages ? (
            <Link href={activityHref(q, { page: q.page + 1 })} className="text-indigo-700 hover:underline">
              Next →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
