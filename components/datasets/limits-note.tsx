import { formatBytes, formatCount } from "@/lib/import/errors";

/** The import limits in force, as the upload pages state them (issue 3: "shown on the page"). */
export function LimitsNote({ maxBytes, maxRows }: { maxBytes: number; maxRows: number }) {
  return (
    <p className="text-xs text-slate-500">
      Up to <strong className="font-medium text-slate-700">{formatBytes(maxBytes)}</strong> and{" "}
      <strong className="font-medium text-slate-700">{formatCount(maxRows)} data rows</strong> per file. Set by{" "}
      <code className="rounded bg-slate-100 px-1">BENCHWORK_IMPORT_MAX_BYTES</code> and{" "}
      <code className="rounded bg-slate-100 px-1">BENCHWORK_IMPORT_MAX_ROWS</code>.
    </p>
  );
}
