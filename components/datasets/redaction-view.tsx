import { PII_LABEL, PII_TYPES, type PiiType } from "@/lib/import/redact/detectors";

/** Sample cells shown. */
const SAMPLES = 6;

const TYPE_NAME: Record<PiiType, string> = { email: "E-mail", phone: "Phone", card: "Card", iban: "IBAN", ip: "IP address", national_id: "National ID" };

/** The keep-list and what each entry kept; nothing when the list is empty. */
function KeptList({ kept, saved }: { kept: { entry: string; count: number }[]; saved: boolean }) {
  if (kept.length === 0) return null;
  return (
    <div className="text-sm text-slate-700" data-testid="redaction-kept">
      <span className="font-medium">Kept as written (keep-list):</span>
      <ul className="mt-1 flex flex-wrap gap-1.5">
        {kept.map((k) => (
          <li key={k.entry} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">
            <code>{k.entry}</code> · {k.count.toLocaleString("en-US")} value{k.count === 1 ? "" : "s"} {saved ? "kept" : "to keep"}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A redaction report (preview before saving, or the stored report): the dataset's settings (off,
 * keep-list), counts per column and type, and sample cells.
 */
export function RedactionView({
  report,
  saved,
}: {
  report: {
    totals: Record<PiiType, number>;
    columns: { column: string; counts: Partial<Record<PiiType, number>>; total: number }[];
    changedCells: number;
    changedRows: number;
    preview: { row: number; column: string; before?: string; after: string }[];
    /** Absent in versions saved before settings existed (on, nothing kept). */
    settings?: { enabled: boolean; keep: string[] };
    kept?: { entry: string; count: number }[];
  };
  /** True for a saved version (past tense, no "before" text). */
  saved: boolean;
}) {
  const types = PII_TYPES.filter((t) => report.totals[t] > 0);
  const total = types.reduce((n, t) => n + report.totals[t], 0);
  if (report.settings && !report.settings.enabled) {
    return (
      <p className="px-4 py-3 text-sm text-amber-800" data-testid="redaction-off">
        Redaction is off for this {saved ? "version" : "dataset"}: no value {saved ? "was" : "will be"} replaced; personal data{" "}
        {saved ? "is stored" : "will be stored"} as written.
      </p>
    );
  }
  const kept = report.kept ?? [];
  if (total === 0) {
    return (
      <div className="flex flex-col gap-2 px-4 py-3">
        <p className="text-sm text-slate-600">
          No {kept.some((k) => k.count > 0) ? "other " : ""}e-mail addresses, phone numbers, card numbers, IBANs, IP addresses or national IDs were found
          {saved ? "" : " in any column"}.
        </p>
        <KeptList kept={kept} saved={saved} />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-3 px-4 py-3">
      <KeptList kept={kept} saved={saved} />
      <p className="text-sm text-slate-700">
        {total.toLocaleString("en-US")} value{total === 1 ? "" : "s"} in {report.changedRows.toLocaleString("en-US")} row{report.changedRows === 1 ? "" : "s"}{" "}
        {saved ? (total === 1 ? "was" : "were") : "will be"} replaced by placeholders such as{" "}
        <code className="rounded bg-slate-100 px-1 text-xs">[EMAIL_1]</code>, numbered per row (the same value in one row gets the same placeholder).
      </p>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Replacements per column and type</caption>
        <thead className="text-xs text-slate-500">
          <tr>
            <th scope="col" className="py-1 pr-4 font-medium">
              Column
            </th>
            <th scope="col" className="py-1 pr-4 font-medium">
              Replaced
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {report.columns.map((c) => (
            <tr key={c.column} className="border-t border-slate-100 align-top">
              <th scope="row" className="py-1.5 pr-4 font-mono text-xs font-normal break-all text-slate-800">
                {c.column}
              </th>
              <td className="py-1.5 pr-4">
                <span className="flex flex-wrap gap-1">
                  {types
                    .filter((t) => (c.counts[t] ?? 0) > 0)
                    .map((t) => (
                      <span key={t} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700" title={`[${PII_LABEL[t]}_n]`}>
                        {TYPE_NAME[t]} <span className="font-medium tabular-nums">{c.counts[t]}</span>
                      </span>
                    ))}
                </span>
              </td>
              <td className="py-1.5 text-right font-medium tabular-nums">{c.total}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.preview.length > 0 ? (
        <div>
          <h3 className="text-xs font-medium text-slate-500">{saved ? "First redacted cells" : "First cells, before → after"}</h3>
          <ul className="mt-1 flex flex-col gap-1.5">
            {report.preview.slice(0, SAMPLES).map((p) => (
              <li key={`${p.row}:${p.column}`} className="text-xs">
                <span className="text-slate-500">
                  Row {p.row} · <span className="font-mono">{p.column}</span>:
                </span>{" "}
                {p.before !== undefined ? (
                  <>
                    <del className="rounded bg-red-50 px-1 break-words text-red-800">{short(p.before)}</del> <span aria-hidden>→</span>
                    <span className="sr-only">becomes</span>{" "}
                  </>
                ) : null}
                <ins className="rounded bg-emerald-50 px-1 break-words text-emerald-900 no-underline">{short(p.after)}</ins>
              </li>
            ))}
          </ul>
          {report.preview.length > SAMPLES ? <p className="mt-1 text-xs text-slate-500">… and more; every changed cell is in the rows.</p> : null}
        </div>
      ) : null}
    </div>
  );
}

function short(s: string): string {
  return s.length > 160 ? `${s.slice(0, 159)}…` : s;
}
