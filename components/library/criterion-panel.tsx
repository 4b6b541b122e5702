"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { CriterionRow } from "@/db/queries/criteria";
import type { CriterionFields } from "@/lib/library/forms";
import { LIMITS } from "@/lib/library/limits";
import { addCriterionAction, customizeCriterionAction, editCriterionAction } from "@/app/systems/[systemId]/library/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { useToast } from "@/components/ui/toast";
import { AuthorNote } from "@/components/audit/author-note";
import { Textarea } from "@/components/ui/textarea";

type Rev = { number: number; createdAt: number; authorEmail?: string | null } & CriterionFields;

/**
 * Add or edit a criterion (rule, what passes, what fails, priority). Editing a custom criterion
 * makes a new criterion revision; generated criteria are shown read-only with Customize.
 */
export function CriterionPanel({
  systemId,
  promptId,
  promptName,
  criterion,
  revisions,
  closeHref,
}: {
  systemId: string;
  promptId: number;
  promptName: string;
  criterion: CriterionRow | null;
  revisions: Rev[];
  closeHref: string;
}) {
  const router = useRouter();
  const toast = useToast();
  const [pending, startTransition] = useTransition();
  const initial: CriterionFields = criterion
    ? { rule: criterion.rule, passes: criterion.passes, fails: criterion.fails, priority: criterion.priority }
    : { rule: "", passes: "", fails: "", priority: "primary" };
  const [f, setF] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<{ text: string; conflict: boolean } | null>(null);
  const [shownRev, setShownRev] = useState<Rev | null>(null);
  const readOnly = criterion?.origin === "generated";
  const dirty = JSON.stringify(f) !== JSON.stringify(initial);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    startTransition(async () => {
      setBanner(null);
      const r = criterion
        ? await editCriterionAction(systemId, { ...f, criterionId: criterion.id, baseRevision: criterion.revisionNumber })
        : await addCriterionAction({ ...f, systemId, promptId });
      if (r.ok) {
        setErrors({});
        if (criterion) {
          toast(`Saved criterion revision ${(r.data as { revisionNumber: number }).revisionNumber}`);
          router.refresh();
        } else {
          toast(`Added criterion to ${promptName}`);
          router.push(closeHref);
        }
      } else {
        setErrors(r.error.fieldErrors ?? {});
        setBanner({ text: r.error.message, conflict: r.error.code === "conflict" });
      }
    });
  };

  const customize = () =>
    startTransition(async () => {
      const r = await customizeCriterionAction(systemId, { criterionId: criterion!.id });
      if (r.ok) {
        toast("Created a custom copy and paused the generated criterion");
        const url = new URL(window.location.href);
        url.searchParams.set("edit", String(r.data.id));
        router.push(url.pathname + url.search);
      } else setBanner({ text: r.error.message, conflict: false });
    });

  const title = !criterion ? `Add criterion to ${promptName}` : readOnly ? "Generated criterion" : "Edit criterion";
  const shown = shownRev ?? f;

  return (
    <aside aria-label={title} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <div className="flex items-start justify-between gap-2">
          <div>
            <h2 className="text-base font-semibold">{title}</h2>
            {criterion ? (
              <div className="mt-1 flex gap-1.5">
                <Badge tone={criterion.origin === "custom" ? "sky" : "violet"}>{criterion.origin}</Badge>
                <Badge tone={criterion.status === "active" ? "green" : "slate"}>{criterion.status}</Badge>
                <Badge>revision {criterion.revisionNumber}</Badge>
              </div>
            ) : null}
          </div>
          <Link href={closeHref} className="rounded p-1 text-slate-500 hover:bg-slate-100" aria-label="Close panel">
            ✕
          </Link>
        </div>
        {readOnly ? (
          <p className="rounded-md bg-violet-50 px-3 py-2 text-sm text-violet-900">
            Generated criteria are records of a generated rubric and cannot be edited. Customize creates a custom criterion from it that you can edit, and
            pauses this one so the rule is not judged twice.
          </p>
        ) : null}
        {shownRev ? (
          <p className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">
            Showing revision {shownRev.number} read-only.{" "}
            <button type="button" className="font-medium text-indigo-700 hover:underline" onClick={() => setShownRev(null)}>
              Back to the current revision
            </button>
          </p>
        ) : null}
        {banner ? (
          <div
            role="alert"
            className={`rounded-md border px-3 py-2 text-sm ${banner.conflict ? "border-amber-300 bg-amber-50 text-amber-900" : "border-red-300 bg-red-50 text-red-800"}`}
          >
            {banner.text}
            {banner.conflict ? (
              <div className="mt-2">
                <Button size="sm" onClick={() => router.refresh()}>
                  Discard my edits and load the latest revision
                </Button>
              </div>
            ) : null}
          </div>
        ) : null}
        <Field
          label="Rule"
          htmlFor="crit-rule"
          error={errors.rule}
          hint={`One rule a reply must follow. Up to ${LIMITS.criterionRule.toLocaleString("en-US")} characters.`}
        >
          <Textarea
            id="crit-rule"
            rows={2}
            value={shown.rule}
            readOnly={readOnly || !!shownRev}
            onChange={(e) => setF({ ...f, rule: e.target.value })}
            className={inputClass(errors.rule)}
            autoFocus={!criterion}
          />
        </Field>
        <Field label="What passes" htmlFor="crit-passes" error={errors.passes}>
          <Textarea
            id="crit-passes"
            rows={2}
            value={shown.passes}
            readOnly={readOnly || !!shownRev}
            onChange={(e) => setF({ ...f, passes: e.target.value })}
            className={inputClass(errors.passes)}
          />
        </Field>
        <Field label="What fails" htmlFor="crit-fails" error={errors.fails}>
          <Textarea
            id="crit-fails"
            rows={2}
            value={shown.fails}
            readOnly={readOnly || !!shownRev}
            onChange={(e) => setF({ ...f, fails: e.target.value })}
            className={inputClass(errors.fails)}
          />
        </Field>
        <fieldset className="flex flex-col gap-1">
          <legend className="text-sm font-medium text-slate-800">Priority</legend>
          <div className="flex gap-4 text-sm">
            {(["primary", "secondary"] as const).map((p) => (
              <label key={p} className="flex items-center gap-1.5">
                <input
                  type="radio"
                  name="priority"
                  value={p}
                  checked={shown.priority === p}
                  disabled={readOnly || !!shownRev}
                  onChange={() => setF({ ...f, priority: p })}
                />
                {p}
              </label>
            ))}
          </div>
          <p className="text-xs text-slate-500">Both count for regressions: a candidate that breaks a passing check of either priority is not recommended.</p>
        </fieldset>
        <div className="flex gap-2">
          {readOnly ? (
            <Button variant="primary" onClick={customize} disabled={pending}>
              Customize
            </Button>
          ) : (
            <>
              <Button type="submit" variant="primary" disabled={pending || !!shownRev || (!!criterion && !dirty)}>
                {pending ? "Saving…" : criterion ? "Save new revision" : "Add criterion"}
              </Button>
              {criterion && dirty ? (
                <Button variant="ghost" onClick={() => setF(initial)}>
                  Undo changes
                </Button>
              ) : null}
            </>
          )}
        </div>
        {criterion && revisions.length > 0 ? (
          <section aria-label="Criterion revisions" className="border-t border-slate-200 pt-3">
            <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Revisions</h3>
            <ol className="mt-2 flex flex-col gap-1 text-sm">
              {revisions.map((r) => (
                <li key={r.number} className="flex items-center gap-2">
                  {r.number === criterion.revisionNumber ? (
                    <span className="font-medium">Revision {r.number} (current)</span>
                  ) : (
                    <button type="button" className="text-indigo-700 hover:underline" onClick={() => setShownRev(r)}>
                      Revision {r.number}
                    </button>
                  )}
                  <span className="text-xs text-slate-500">
                    <LocalTime ms={r.createdAt} />
                    <AuthorNote email={r.authorEmail} />
                  </span>
                </li>
              ))}
            </ol>
          </section>
        ) : null}
      </form>
    </aside>
  );
}
