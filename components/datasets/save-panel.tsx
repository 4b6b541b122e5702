"use client";

import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { DATASET_NAME_MAX } from "@/lib/datasets/schemas";

/** What Save will store, in numbers. */
export interface SaveSummary {
  rows: number;
  excluded: number;
  blocked: number;
  warnings: number;
  /** Values that will be replaced; null when redaction is off. */
  redacted: number | null;
  corrected: number;
}

/**
 * The Save panel beside Map and preview: dataset name (existing names listed, with "this will be
 * version N of X"), what will be stored, and Save. The server re-checks everything.
 */
export function SavePanel({
  name,
  onName,
  existing,
  summary,
  blockedReason,
  pending,
  error,
  nameError,
  onSave,
  onCancel,
}: {
  name: string;
  onName: (name: string) => void;
  existing: { name: string; latestVersion: number; redaction?: unknown }[];
  summary: SaveSummary;
  /** Why Save is not possible yet (mapping errors), or null. */
  blockedReason: string | null;
  pending: boolean;
  error: string | null;
  nameError?: string;
  onSave: () => void;
  onCancel: () => void;
}) {
  const trimmed = name.trim();
  const match = existing.find((d) => d.name === trimmed);
  const hint = !trimmed
    ? "Required."
    : match
      ? `This will be version ${match.latestVersion + 1} of “${match.name}”.`
      : `A new dataset “${trimmed}” (version 1).`;
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    <aside aria-label="Save dataset version" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm xl:sticky xl:top-4">
      <h2 className="text-base font-semibold">Save</h2>
      <Field label="Dataset name" htmlFor="dataset-name" error={nameError} hint={hint}>
        <input
          id="dataset-name"
          list="dataset-names"
          value={name}
          maxLength={DATASET_NAME_MAX}
          onChange={(e) => onName(e.target.value)}
          className={inputClass(nameError)}
          aria-describedby={nameError ? "dataset-name-error" : undefined}
        />
        <datalist id="dataset-names">
          {existing.map((d) => (
            <option key={d.name} value={d.name} />
          ))}
        </datalist>
      </Field>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Rows</dt>
        <dd className="text-right tabular-nums">{n(summary.rows)}</dd>
        <dt className="text-slate-600">Corrected rows</dt>
        <dd className="text-right tabular-nums">{n(summary.corrected)}</dd>
        <dt className="text-slate-600">Excluded rows</dt>
        <dd className="text-right tabular-nums">{n(summary.excluded)}</dd>
        <dt className={summary.blocked ? "font-medium text-red-700" : "text-slate-600"}>Blocked rows</dt>
        <dd className={`text-right tabular-nums ${summary.blocked ? "font-medium text-red-700" : ""}`}>{n(summary.blocked)}</dd>
        <dt className="text-slate-600">Warnings</dt>
        <dd className="text-right tabular-nums">{n(summary.warnings)}</dd>
        <dt className="text-slate-600">Values redacted</dt>
        <dd className="text-right tabular-nums">{summary.redacted === null ? "off" : n(summary.redacted)}</dd>
      </dl>
      {summary.blocked > 0 ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-900">
          Blocked rows are saved with their problems but cannot become golden cases until they are corrected (in a new version) or excluded.
        </p>
      ) : null}
      {blockedReason ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {blockedReason}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button variant="primary" onClick={onSave} disabled={pending || Boolean(blockedReason) || !trimmed}>
          {pending ? "Saving…" : match ? `Save version ${match.latestVersion + 1}` : "Save version 1"}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={pending}>
          Cancel upload
        </Button>
      </div>
      <p className="text-xs text-slate-500">
        Saving stores the original file, the mapping, the redacted rows, the redaction report and the problems. It adds nothing to a library and starts no
        evaluation.
      </p>
    </aside>
  );
}
