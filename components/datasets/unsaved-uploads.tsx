import type { UploadSummary } from "@/db/queries/dataset-uploads";
import { formatBytes, formatCount } from "@/lib/import/errors";
import { LinkButton } from "./link-button";

/** "5 min ago", "3 h ago", "just now" (server-rendered; the page is dynamic). */
function ago(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ago`;
}

/**
 * The system's unsaved uploads with a link back to Map and preview (where Cancel deletes one),
 * and how much of the quota they use: a full quota refuses new uploads until one is saved,
 * cancelled or expires (a day after upload).
 */
export function UnsavedUploads({
  systemId,
  uploads,
  quota,
  now,
}: {
  systemId: string;
  uploads: UploadSummary[];
  quota: { maxCount: number; maxBytes: number };
  now: number;
}) {
  if (uploads.length === 0) return null;
  const bytes = uploads.reduce((n, u) => n + u.size, 0);
  return (
    <section aria-label="Unsaved uploads" className="rounded-lg border border-slate-200 bg-white p-5 text-sm text-slate-700">
      <h2 className="text-sm font-semibold text-slate-900">Unsaved uploads</h2>
      <p className="mt-1 text-xs text-slate-500">
        {formatCount(uploads.length)} of {formatCount(quota.maxCount)} uploads, {formatBytes(bytes)} of {formatBytes(quota.maxBytes)} per system. Each is
        deleted a day after upload unless you save it; Cancel on its page deletes it now.
      </p>
      <ul className="mt-3 flex flex-col divide-y divide-slate-100">
        {uploads.map((u) => (
          <li key={u.id} className="flex items-center justify-between gap-3 py-2">
            <span className="min-w-0">
              <span className="block truncate font-medium text-slate-800">{u.fileName}</span>
              <span className="text-xs text-slate-500">
                {formatBytes(u.size)} · uploaded {ago(now - u.createdAt)}
                {u.sheet ? ` · sheet "${u.sheet}"` : ""}
              </span>
            </span>
            <LinkButton size="sm" href={`/systems/${systemId}/datasets/upload/${u.id}${u.sheet ? `?sheet=${encodeURIComponent(u.sheet)}` : ""}`}>
              Continue
            </LinkButton>
          </li>
        ))}
      </ul>
    </section>
  );
}
