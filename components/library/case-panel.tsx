"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import type { CaseDetail } from "@/db/queries/cases";
import type { CaseFields } from "@/lib/library/forms";
import { LIMITS } from "@/lib/library/limits";
import { customizeCaseAction, removeCaseAction, saveCaseAction, setCaseStatusAction } from "@/app/systems/[systemId]/library/actions";
import { Badge, SOURCE_TONE } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, inputClass } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { useToast } from "@/components/ui/toast";
import { HistoryEditor, NameValueEditor } from "./case-fields";
import { RecordedView } from "./recorded-view";
import { EvaluatorsEditor } from "@/components/evaluators/evaluators-editor";
import { AuthorNote } from "@/components/audit/author-note";
import { useRoleAtLeast } from "@/components/auth/role-context";
import { Textarea } from "@/components/ui/textarea";

function fieldsOf(d: CaseDetail): CaseFields {
  const c = d.content;
  return { input: c.input, expected: c.expected, notes: c.notes, history: c.history, variables: c.variables, context: c.context, evaluators: c.evaluators };
}

function originText(d: CaseDetail): string | null {
  const o = d.origin;
  if (!o) return null;
  if (o.kind === "dataset") return `From dataset ${o.datasetName}${o.version ? ` v${o.version}` : ""}, row ${o.row}`;
  if (o.kind === "code") return `From ${o.file}${o.row ? `, row ${o.row}` : ""}`;
  if (o.kind === "bench") return `Retained automatically from bench #${o.benchId}: a regression candidate, not a human-validated case`;
  return "Generated";
}

/**
 * The Edit panel beside the Cases table: Input, Expected result, More details (notes, history,
 * variables, context) as structured fields; Save for future benches makes a new revision based on
 * the revision shown (a stale save is refused and the form keeps the user's text).
 */
export function CasePanel({
  systemId,
  detail,
  hasSeveralPrompts,
  promptVariables = [],
  promptDefaultChecks = [],
  closeHref,
  revisionHrefs,
}: {
  promptVariables?: string[];
  /** The prompt's default checks, as labels: a case without checks of its own inherits them (issue 15). */
  promptDefaultChecks?: string[];
  systemId: string;
  detail: CaseDetail & { removable: boolean };
  hasSeveralPrompts: boolean;
  closeHref: string;
  revisionHrefs: Record<number, string>;
}) {
  const router = useRouter();
  // Viewers read; only admins delete (issue 19). The server checks again.
  const canEdit = useRoleAtLeast("editor");
  const canDelete = useRoleAtLeast("admin");
  const toast = useToast();
  const [pending, startTransition] = useTransition();
  const initial = fieldsOf(detail);
  const [fields, setFields] = useState<CaseFields>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<{ tone: "error" | "conflict"; text: string } | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const bannerRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Opening a case (click or Enter on a row) moves focus into the panel, so keyboard users land here.
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
  }, [detail.id]);
  // A refusal appears at the top of a tall panel: bring it into view where the user clicked Save.
  useEffect(() => {
    if (banner) bannerRef.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [banner]);
  const dirty = JSON.stringify(fields) !== JSON.stringify(initial);
  const detailsCount = fields.history.length + fields.variables.length + fields.context.length + (fields.notes ? 1 : 0);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const set = <K extends keyof CaseFields>(k: K, v: CaseFields[K]) => setFields((f) => ({ ...f, [k]: v }));

  const save = () =>
    startTransition(async () => {
      setBanner(null);
      const r = await saveCaseAction(systemId, { ...fields, caseId: detail.id, baseRevision: detail.revisionNumber });
      if (r.ok) {
        setErrors({});
        toast(`Saved ${detail.caseKey} as revision ${r.data.revisionNumber}`);
        router.refresh();
      } else {
        setErrors(r.error.fieldErrors ?? {});
        setBanner({ tone: r.error.code === "conflict" ? "conflict" : "error", text: r.error.message });
      }
    });

  const setStatus = (status: "active" | "paused") =>
    startTransition(async () => {
      const r = await setCaseStatusAction(systemId, { caseId: detail.id, status });
      if (r.ok) {
        toast(status === "paused" ? `Paused ${detail.caseKey}: it stays in the library but out of future benches` : `Resumed ${detail.caseKey}`);
        router.refresh();
      } else setBanner({ tone: "error", text: r.error.message });
    });

  const customize = () =>
    startTransition(async () => {
      const r = await customizeCaseAction(systemId, { caseId: detail.id });
      if (r.ok) {
        toast(`Created ${r.data.caseKey}, an editable copy of ${detail.caseKey}, and paused the generated one`);
        const url = new URL(window.location.href);
        url.searchParams.set("case", String(r.data.id));
        router.push(url.pathname + url.search);
      } else setBanner({ tone: "error", text: r.error.message });
    });

  const remove = () =>
    startTransition(async () => {
      const r = await removeCaseAction(systemId, { caseId: detail.id });
      if (r.ok) {
        toast(
          `Removed ${detail.caseKey}${r.data.alsoRemoved.length ? ` and its retained cop${r.data.alsoRemoved.length === 1 ? "y" : "ies"} ${r.data.alsoRemoved.join(", ")}` : ""}`,
        );
        router.push(closeHref);
      } else setBanner({ tone: "error", text: r.error.message });
    });

  const origin = originText(detail);
  const missingVariables = promptVariables.filter((v) => !fields.variables.some((r) => r.name.trim() === v));

  return (
    <aside
      aria-label={`Edit case ${detail.caseKey}`}
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      onKeyDown={(e) => {
        if ((e.ctrlKey || e.metaKey) && e.key === "Enter" && dirty && !pending) {
          e.preventDefault();
          save();
        } else if (e.key === "Escape" && !e.defaultPrevented && !dirty && !(e.target as HTMLElement).closest("[role=alertdialog]")) {
          router.push(closeHref);
        }
      }}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 ref={headingRef} tabIndex={-1} className="font-mono text-sm font-semibold break-all text-slate-900 focus:outline-none">
            {detail.caseKey}
          </h2>
          <div className="mt-1.5 flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
            {hasSeveralPrompts ? <Badge tone="slate">prompt: {detail.promptName}</Badge> : null}
            <Badge tone={SOURCE_TONE[detail.source]}>{detail.source}</Badge>
            {detail.userCorrected ? <Badge tone="amber">corrected by you</Badge> : null}
            <Badge tone={detail.status === "active" ? "green" : "slate"}>{detail.status}</Badge>
          </div>
          {origin ? <p className="mt-1.5 text-xs text-slate-500">{origin}</p> : null}
        </div>
        <Link href={closeHref} className="rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800" aria-label="Close panel">
          ✕
        </Link>
      </div>

      {detail.source === "retained" && !detail.userCorrected ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900">
          Saving replaces this retained case&apos;s future-use copy with your correction. Earlier scores do not change, and later automatic retention will not
          overwrite it.
        </p>
      ) : null}

      {detail.source === "generated" ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md bg-violet-50 px-3 py-2 text-xs text-violet-900">
          <span className="min-w-0 flex-1">Generated cases are read-only. Customize makes an editable custom copy and pauses this one.</span>
          <Button size="sm" onClick={customize} disabled={pending}>
            Customize
          </Button>
        </div>
      ) : null}

      {banner ? (
        <div
          ref={bannerRef}
          role="alert"
          className={`scroll-mt-4 rounded-md border px-3 py-2 text-sm ${banner.tone === "conflict" ? "border-amber-300 bg-amber-50 text-amber-900" : "border-red-300 bg-red-50 text-red-800"}`}
        >
          {banner.text}
          {banner.tone === "conflict" ? (
            <div className="mt-2">
              <Button size="sm" onClick={() => router.refresh()}>
                Discard my edits and load the latest revision
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}

      <Field
        label="Input"
        htmlFor="case-input"
        error={errors.input}
        hint={`What the model receives. Up to ${LIMITS.input.toLocaleString("en-US")} characters.`}
      >
        <Textarea
          id="case-input"
          rows={5}
          value={fields.input}
          onChange={(e) => set("input", e.target.value)}
          className={inputClass(errors.input)}
          aria-invalid={Boolean(errors.input)}
        />
      </Field>
      <Field label="Expected result" htmlFor="case-expected" error={errors.expected} hint={`Up to ${LIMITS.expected.toLocaleString("en-US")} characters.`}>
        <Textarea
          id="case-expected"
          rows={3}
          value={fields.expected}
          onChange={(e) => set("expected", e.target.value)}
          className={inputClass(errors.expected)}
          aria-invalid={Boolean(errors.expected)}
        />
      </Field>

      {missingVariables.length ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="missing-variables">
          The prompt fills {missingVariables.map((v) => `{{${v}}}`).join(", ")} but this case has no value for {missingVariables.length > 1 ? "them" : "it"}:
          benches of model candidates leave it out until it does.{" "}
          <button
            type="button"
            className="font-medium underline"
            onClick={() => {
              setFields((f) => ({ ...f, variables: [...f.variables, ...missingVariables.map((name) => ({ name, value: "" }))] }));
              setDetailsOpen(true);
            }}
          >
            Add {missingVariables.length > 1 ? "them" : "it"} to Variables
          </button>
        </div>
      ) : null}

      {(fields.evaluators ?? []).length === 0 ? (
        <p data-testid="inherited-checks" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-xs text-slate-700">
          {promptDefaultChecks.length > 0 ? (
            <>No checks of its own: this case inherits the prompt&apos;s checks ({promptDefaultChecks.join("; ")}).</>
          ) : (
            <>No checks of its own, and the prompt has no default checks: only the prompt&apos;s criteria judge this case.</>
          )}
        </p>
      ) : null}
      <EvaluatorsEditor
        systemId={systemId}
        specs={fields.evaluators ?? []}
        onChange={(v) => set("evaluators", v)}
        errors={errors}
        caseInput={fields.input}
        caseExpected={fields.expected}
        caseData={detail.content.data}
      />

      <details
        className="group rounded-md border border-slate-200"
        open={detailsOpen || Object.keys(errors).some((k) => /^(notes|history|variables|context)/.test(k))}
        onToggle={(e) => setDetailsOpen((e.currentTarget as HTMLDetailsElement).open)}
      >
        <summary className="cursor-pointer list-none px-3 py-2 text-sm font-medium text-slate-800 select-none">
          <span className="mr-1 inline-block transition-transform group-open:rotate-90">▸</span> More details
          {detailsCount ? <span className="ml-2 text-xs font-normal text-slate-500">({detailsCount} filled)</span> : null}
        </summary>
        <div className="flex flex-col gap-5 border-t border-slate-200 p-3">
          <Field
            label="Notes"
            htmlFor="case-notes"
            error={errors.notes}
            hint={`For people, not sent to the model. Up to ${LIMITS.notes.toLocaleString("en-US")} characters.`}
          >
            <Textarea id="case-notes" rows={3} value={fields.notes} onChange={(e) => set("notes", e.target.value)} className={inputClass(errors.notes)} />
          </Field>
          <HistoryEditor turns={fields.history} onChange={(v) => set("history", v)} errors={errors} />
          <NameValueEditor
            legend="Variables"
            field="variables"
            rows={fields.variables}
            onChange={(v) => set("variables", v)}
            errors={errors}
            emptyText="No variables. They fill {{name}} placeholders of the prompt."
          />
          <NameValueEditor
            legend="Context"
            field="context"
            rows={fields.context}
            onChange={(v) => set("context", v)}
            errors={errors}
            emptyText="No context rows."
          />
        </div>
      </details>

      <RecordedView content={detail.content} />

      <div hidden={!canEdit} className="flex flex-wrap items-center gap-2 border-t border-slate-200 pt-4">
        <Button variant="primary" onClick={save} disabled={!dirty || pending || detail.source === "generated"} title="Ctrl+Enter">
          {pending ? "Saving…" : "Save for future benches"}
        </Button>
        {dirty ? (
          <Button variant="ghost" onClick={() => (setFields(initial), setErrors({}), setBanner(null))} disabled={pending}>
            Undo changes
          </Button>
        ) : null}
        <span className="ml-auto flex gap-2">
          {detail.status === "active" ? (
            <Button onClick={() => setStatus("paused")} disabled={pending}>
              Pause
            </Button>
          ) : (
            <Button onClick={() => setStatus("active")} disabled={pending}>
              Resume
            </Button>
          )}
          {detail.removable && canDelete ? (
            <ConfirmDialog
              trigger={
                <Button variant="danger" disabled={pending}>
                  Remove
                </Button>
              }
              title={`Remove case ${detail.caseKey}?`}
              description={
                <>
                  <p>The case leaves the library and will not run in future benches.</p>
                  <p className="mt-2">
                    Scores of earlier benches stay as they are, but the saved details of evaluations that used this case are erased: its input, expected result
                    and history, the check messages that quote them, and recorded answers. Trials still waiting to run are skipped. Its automatic regression
                    copies (retained cases you have not edited) are removed with it. This cannot be undone; to keep it out of benches without erasing anything,
                    use Pause.
                  </p>
                </>
              }
              confirmLabel="Remove case"
              onConfirm={remove}
            />
          ) : null}
        </span>
      </div>

      <section aria-label="Revisions" className="border-t border-slate-200 pt-3">
        <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Revisions</h3>
        <ol className="mt-2 flex flex-col gap-1 text-sm">
          {detail.revisions.map((r) => (
            <li key={r.number} className="flex items-center gap-2">
              {r.number === detail.revisionNumber ? (
                <span className="font-medium text-slate-900">Revision {r.number} (current)</span>
              ) : (
                <Link href={revisionHrefs[r.number]} className="text-indigo-700 hover:underline">
                  Revision {r.number}
                </Link>
              )}
              <span className="text-xs text-slate-500">
                <LocalTime ms={r.createdAt} />
                <AuthorNote email={r.authorEmail} />
              </span>
            </li>
          ))}
        </ol>
      </section>
    </aside>
  );
}
