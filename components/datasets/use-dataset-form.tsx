"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { adoptDatasetAction } from "@/app/systems/[systemId]/datasets/actions";
import type { ImportProblem } from "@/lib/import/types";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { LocalTime } from "@/components/ui/local-time";
import { ProblemLine } from "./problem-line";
import type { CollisionChoice } from "@/lib/datasets/collisions";

/** What "Add golden cases" would do for one prompt (trimmed for the page; counts are complete). */
export interface UseOption {
  promptId: number;
  promptName: string;
  willAdd: number;
  blockedCount: number;
  blocked: { row: number; problems: ImportProblem[] }[];
  warningCount: number;
  warnings: ImportProblem[];
  mappingErrors: ImportProblem[];
  conflictCount: number;
  conflicts: { row: number; message: string }[];
  /** What can be done about the collisions (revise only when they all come from an earlier version of this dataset). */
  collisionChoices: CollisionChoice[];
  alreadyAdded: { count: number; lastAddedAt: number } | null;
  /** The version's checks, as labels; every case added gets them. */
  checks: string[];
}

const CHOICE_LABEL: Record<CollisionChoice, string> = {
  skip: "Skip those rows",
  prefix: "Give the new cases a prefix (the dataset's name)",
  revise: "Make new revisions of the existing cases",
};

/**
 * Use a dataset: choose the target prompt, see how many cases will be added and which rows are
 * blocked, then Add golden cases. After adding, links to the library filtered by source=dataset.
 */
export function UseDatasetForm({
  systemId,
  datasetId,
  version,
  options,
  correct,
}: {
  systemId: string;
  datasetId: number;
  version: number;
  options: UseOption[];
  /** The "Correct in a new version" control. */
  correct: React.ReactNode;
}) {
  const router = useRouter();
  const toast = useToast();
  const [promptId, setPromptId] = useState<string>(options.length === 1 ? String(options[0].promptId) : "");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ added: number; promptName: string; href: string; more: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const [onCollision, setOnCollision] = useState<CollisionChoice | "">("");
  const option = options.find((o) => String(o.promptId) === promptId);
  const choice = option && onCollision && option.collisionChoices.includes(onCollision) ? onCollision : undefined;
  // Rows with a taken case ID are added under a prefix, skipped, or revise the existing cases.
  const adding = !option ? 0 : choice === "skip" || choice === "revise" ? option.willAdd - option.conflictCount : option.willAdd;
  const refusal = !option
    ? null
    : option.mappingErrors.length
      ? "This version's mapping has no input or expected column; it cannot be used."
      : option.alreadyAdded
        ? `This version is already in the library of ${option.promptName} (${option.alreadyAdded.count} cases). Adding it again would duplicate them.`
        : option.conflictCount && !choice
          ? `${option.conflictCount} case ID${option.conflictCount === 1 ? " is" : "s are"} already used in this prompt's library: choose what to do with those rows.`
          : option.willAdd === 0 && !(choice === "revise")
            ? "Every row is excluded or blocked: correct the blocked rows in a new version first."
            : null;

  const add = () =>
    startTransition(async () => {
      setError(null);
      const r = await adoptDatasetAction({ systemId, datasetId, version, promptId, onCollision: choice });
      if (r.ok) {
        const more = [r.data.skipped ? `${r.data.skipped} skipped` : "", r.data.revised ? `${r.data.revised} revised` : ""].filter(Boolean).join(", ");
        // The lasting status says what the collision choice did (the toast fades): revised and unchanged cases are not "added".
        const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
        const lasting = [
          r.data.skipped ? `${count(r.data.skipped, "row was", "rows were")} skipped (case ID taken)` : "",
          r.data.revised ? `${count(r.data.revised, "existing case", "existing cases")} got a new revision` : "",
          r.data.unchanged ? `${count(r.data.unchanged, "existing case was", "existing cases were")} already the same` : "",
        ].filter(Boolean);
        setDone({ added: r.data.added, promptName: r.data.promptName, href: r.data.libraryHref, more: lasting.length ? `; ${lasting.join("; ")}` : "" });
        toast(`Added ${r.data.added.toLocaleString("en-US")} golden case${r.data.added === 1 ? "" : "s"} to ${r.data.promptName}${more ? ` (${more})` : ""}`);
        router.refresh();
      } else setError(r.error.message);
    });

  return (
    <aside aria-label="Use a dataset" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div>
        <h2 className="text-base font-semibold">Use a dataset</h2>
        <p className="mt-0.5 text-xs text-slate-500">
          Copies this version&apos;s rows into a prompt&apos;s library as golden cases (source “dataset”). Recorded outputs travel with each case. No evaluation
          starts.
        </p>
      </div>
      <Field label="Target prompt" htmlFor="use-prompt">
        <select
          id="use-prompt"
          value={promptId}
          onChange={(e) => {
            setPromptId(e.target.value);
            setDone(null);
            setError(null);
          }}
          className="h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900"
        >
          <option value="">Choose a prompt…</option>
          {options.map((o) => (
            <option key={o.promptId} value={o.promptId}>
              {o.promptName}
            </option>
          ))}
        </select>
      </Field>
      {option ? (
        <div className="flex flex-col gap-3 text-sm">
          {option.alreadyAdded ? null : (
            <p className="text-slate-800" aria-live="polite">
              Will add <strong>{adding.toLocaleString("en-US")}</strong> golden case{adding === 1 ? "" : "s"} to <strong>{option.promptName}</strong>
              {choice === "skip" && option.conflictCount ? `, skipping ${option.conflictCount} row${option.conflictCount === 1 ? "" : "s"}` : ""}
              {choice === "revise" && option.conflictCount
                ? `, and make new revisions of ${option.conflictCount} existing case${option.conflictCount === 1 ? "" : "s"}`
                : ""}
              .
            </p>
          )}
          {option.blockedCount > 0 ? (
            <div className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2">
              <p className="text-xs font-medium text-amber-900">
                {option.blockedCount} blocked row{option.blockedCount === 1 ? "" : "s"} will not be added until corrected or excluded:
              </p>
              <ul className="mt-1 flex flex-col gap-1">
                {option.blocked.map((b) => (
                  <li key={b.row} className="text-xs text-amber-950">
                    {b.problems.map((p) => (p.message.startsWith(`Row ${b.row}`) ? p.message : `Row ${b.row}: ${p.message}`)).join(" ")}
                  </li>
                ))}
                {option.blockedCount > option.blocked.length ? (
                  <li className="text-xs text-amber-900">… and {option.blockedCount - option.blocked.length} more.</li>
                ) : null}
              </ul>
              <div className="mt-2">{correct}</div>
            </div>
          ) : null}
          {option.conflicts.length > 0 && !option.alreadyAdded ? (
            <ul className="flex flex-col gap-1 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-xs text-red-900">
              {option.conflicts.slice(0, 3).map((c) => (
                <li key={c.row}>{c.message}</li>
              ))}
              {option.conflictCount > 3 ? <li>… and {option.conflictCount - 3} more rows.</li> : null}
            </ul>
          ) : null}
          {option.conflicts.length > 0 && !option.alreadyAdded ? (
            <fieldset className="flex flex-col gap-1 text-xs">
              <legend className="mb-1 font-medium text-slate-800">Case IDs already in {option.promptName}&apos;s library</legend>
              {option.collisionChoices.map((c) => (
                <label key={c} className="flex items-center gap-2">
                  <input type="radio" name="on-collision" value={c} checked={choice === c} onChange={() => setOnCollision(c)} />
                  {CHOICE_LABEL[c]}
                </label>
              ))}
            </fieldset>
          ) : null}
          <p className="text-xs text-slate-600">
            {option.checks.length > 0 ? (
              <>Checks every case gets: {option.checks.join("; ")}.</>
            ) : (
              <>This version has no checks: cases get the prompt&apos;s default checks, or none.</>
            )}
          </p>
          {option.warningCount > 0 ? (
            <details className="text-xs">
              <summary className="cursor-pointer text-slate-700">
                {option.warningCount} warning{option.warningCount === 1 ? "" : "s"} for {option.promptName} (e.g. template variables a row lacks; nothing is
                invented)
              </summary>
              <ul className="mt-1 flex flex-col gap-1">
                {option.warnings.map((w, i) => (
                  <li key={i}>
                    <ProblemLine problem={w} />
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          {option.alreadyAdded ? (
            <p className="text-xs text-slate-600">
              Added to {option.promptName} on <LocalTime ms={option.alreadyAdded.lastAddedAt} />.
            </p>
          ) : null}
        </div>
      ) : null}
      {refusal && !done ? (
        <p role="status" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-xs text-slate-700">
          {refusal}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {done ? (
        <div role="status" className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          Added {done.added.toLocaleString("en-US")} golden case{done.added === 1 ? "" : "s"} to {done.promptName}
          {done.more}.{" "}
          <Link href={done.href} className="font-medium underline">
            Open them in the library
          </Link>
        </div>
      ) : null}
      <Button variant="primary" onClick={add} disabled={!option || Boolean(refusal) || pending}>
        {pending
          ? "Adding…"
          : option && !refusal && choice !== "revise" && !option.conflictCount
            ? `Add ${option.willAdd.toLocaleString("en-US")} golden case${option.willAdd === 1 ? "" : "s"}`
            : "Add golden cases"}
      </Button>
    </aside>
  );
}
