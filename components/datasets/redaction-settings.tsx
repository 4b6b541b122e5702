"use client";

import { KEEP_LIST_MAX } from "@/lib/import/redact/settings";
import { Textarea } from "@/components/ui/textarea";

/**
 * The dataset's redaction settings on Map and preview (item 27): on or off, and a keep-list of
 * values or `*` patterns that stay as written (business contact data such as a privacy address).
 * A new version of a dataset starts from its latest version's settings.
 */
export function RedactionSettingsForm({
  enabled,
  keepText,
  problems,
  inherited,
  onEnabled,
  onKeepText,
}: {
  enabled: boolean;
  keepText: string;
  /** What is wrong with the keep-list (blocks Save). */
  problems: string[];
  /** The dataset these settings came from, when they are an existing dataset's. */
  inherited: string | null;
  onEnabled: (on: boolean) => void;
  onKeepText: (text: string) => void;
}) {
  const radio = "h-4 w-4 border-slate-300 text-indigo-600";
  return (
    <fieldset aria-label="Redaction settings" className="flex flex-col gap-2 border-b border-slate-100 px-4 py-3">
      <legend className="sr-only">Redaction settings</legend>
      <div className="flex flex-wrap items-center gap-x-5 gap-y-1 text-sm text-slate-800">
        <span className="font-medium">Redact personal data</span>
        <label className="flex items-center gap-1.5">
          <input type="radio" name="redaction-enabled" className={radio} checked={enabled} onChange={() => onEnabled(true)} />
          On
        </label>
        <label className="flex items-center gap-1.5">
          <input type="radio" name="redaction-enabled" className={radio} checked={!enabled} onChange={() => onEnabled(false)} />
          Off (keep every value as written)
        </label>
        {inherited ? <span className="text-xs text-slate-500">Settings of “{inherited}” (its latest version).</span> : null}
      </div>
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
        Keep these values as written
        <Textarea
          value={keepText}
          disabled={!enabled}
          rows={3}
          placeholder={"privacy@northwind.example\n*@northwind.example"}
          onChange={(e) => onKeepText(e.target.value)}
          className={`rounded-md border bg-white px-2 py-1.5 font-mono text-xs font-normal text-slate-900 disabled:bg-slate-50 disabled:text-slate-400 ${problems.length ? "border-red-400" : "border-slate-300"}`}
        />
      </label>
      <p className="text-xs text-slate-500">
        One per line, at most {KEEP_LIST_MAX}: an exact value (any letter case; a phone number however it is spaced) or a pattern with <code>*</code> for any
        characters, such as <code>*@northwind.example</code>. For known business contact data only: a customer&apos;s own data should be redacted.
      </p>
      {problems.map((p) => (
        <p key={p} role="alert" className="text-xs text-red-700">
          {p}
        </p>
      ))}
    </fieldset>
  );
}
