import Link from "next/link";
import type { PromptRevision } from "@/db/queries/prompt-revisions";
import { LocalTime } from "@/components/ui/local-time";
import { Badge } from "@/components/ui/badge";
import { AuthorNote } from "@/components/audit/author-note";

/**
 * The revision history of a prompt: number, date, message; each opens read-only, each but the first
 * has a diff against the one before it, and any two can be compared.
 */
export function RevisionHistory({
  base,
  revisions,
  currentId,
  selected,
}: {
  base: string;
  revisions: PromptRevision[];
  currentId: number;
  selected?: { from?: number; to?: number };
}) {
  const newest = revisions[0]?.number;
  const previous = revisions[1]?.number;
  return (
    <section aria-label="Revision history" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="text-sm font-semibold text-slate-900">Revision history</h2>
      <ol className="flex flex-col divide-y divide-slate-100" data-testid="revision-list">
        {revisions.map((r) => (
          <li key={r.id} className="flex flex-col gap-0.5 py-2" data-testid="revision-row">
            <div className="flex flex-wrap items-center gap-2">
              <Link href={`${base}/r/${r.number}`} className="font-mono text-sm font-semibold text-indigo-700 hover:underline">
                r{r.number}
              </Link>
              {r.id === currentId ? <Badge tone="green">current</Badge> : null}
              <span className="text-xs text-slate-500">
                <LocalTime ms={r.createdAt} compact />
                <AuthorNote email={r.authorEmail} />
              </span>
              {r.number > 1 ? (
                <Link
                  href={`${base}/diff?from=${r.number - 1}&to=${r.number}`}
                  className="ml-auto text-xs font-medium text-indigo-700 hover:underline"
                  aria-label={`Diff r${r.number - 1} → r${r.number}`}
                >
                  diff vs r{r.number - 1}
                </Link>
              ) : null}
            </div>
            <p className="text-sm text-slate-700">{r.message || <span className="text-slate-400">{r.number === 1 ? "first revision" : "no message"}</span>}</p>
          </li>
        ))}
      </ol>
      {revisions.length > 1 ? (
        <form action={`${base}/diff`} method="get" className="flex flex-wrap items-end gap-2 border-t border-slate-100 pt-3" aria-label="Compare two revisions">
          <label className="flex flex-col gap-0.5 text-xs text-slate-600">
            From
            <select name="from" defaultValue={selected?.from ?? previous} className="h-8 rounded border border-slate-300 bg-white px-2 text-sm">
              {revisions.map((r) => (
                <option key={r.id} value={r.number}>
                  r{r.number}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-0.5 text-xs text-slate-600">
            To
            <select name="to" defaultValue={selected?.to ?? newest} className="h-8 rounded border border-slate-300 bg-white px-2 text-sm">
              {revisions.map((r) => (
                <option key={r.id} value={r.number}>
                  r{r.number}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="h-8 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50">
            Compare
          </button>
        </form>
      ) : null}
    </section>
  );
}
