"use client";

/**
 * The review list of generated proposals (issue 17): each criterion with rule, what passes, what
 * fails, priority and how it can be checked; each scenario with input, expected behaviour,
 * variables, tags and why it was proposed. Accept / Customize / Dismiss per proposal, Accept all /
 * Dismiss all. Keyboard: ↑/↓ (or j/k) move between proposals, A accepts, C customizes, D dismisses.
 */
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import type { ProposalRow } from "@/db/queries/proposals";
import {
  acceptProposalAction,
  customizeProposalAction,
  decideAllProposalsAction,
  dismissProposalAction,
} from "@/app/systems/[systemId]/library/generate/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { Textarea } from "@/components/ui/textarea";

const titleOf = (p: ProposalRow) => (p.kind === "criterion" ? p.content.rule : p.content.input);

function CheckBadge({ p }: { p: Extract<ProposalRow, { kind: "criterion" }> }) {
  const c = p.content.check;
  if (c.kind === "static")
    return (
      <Badge tone="green" title={JSON.stringify(c.evaluator)}>
        static: {c.evaluator.kind}
      </Badge>
    );
  if (c.kind === "unobservable")
    return (
      <Badge tone="amber" title={c.reason}>
        cannot be observed
      </Badge>
    );
  return (
    <Badge tone="violet" title={c.note}>
      judge
    </Badge>
  );
}

function Customizer({
  p,
  onSave,
  onCancel,
  pending,
}: {
  p: ProposalRow;
  onSave: (edits: Record<string, string>) => void;
  onCancel: () => void;
  pending: boolean;
}) {
  const [v, setV] = useState<Record<string, string>>(
    p.kind === "criterion"
      ? { rule: p.content.rule, passes: p.content.passes, fails: p.content.fails, priority: p.content.priority }
      : { input: p.content.input, expected: p.content.expected },
  );
  const set = (k: string) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => setV({ ...v, [k]: e.target.value });
  const id = (k: string) => `customize-${p.id}-${k}`;
  return (
    <form
      className="mt-3 flex flex-col gap-2 rounded-md bg-slate-50 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(v);
      }}
      onKeyDown={(e) => e.stopPropagation()}
    >
      {p.kind === "criterion" ? (
        <>
          <Field label="Rule" htmlFor={id("rule")}>
            <input id={id("rule")} autoFocus className={inputClass()} value={v.rule} onChange={set("rule")} />
          </Field>
          <Field label="What passes" htmlFor={id("passes")}>
            <Textarea id={id("passes")} rows={2} className={inputClass()} value={v.passes} onChange={set("passes")} />
          </Field>
          <Field label="What fails" htmlFor={id("fails")}>
            <Textarea id={id("fails")} rows={2} className={inputClass()} value={v.fails} onChange={set("fails")} />
          </Field>
          <Field label="Priority" htmlFor={id("priority")}>
            <select id={id("priority")} className={inputClass()} value={v.priority} onChange={set("priority")}>
              <option value="primary">primary</option>
              <option value="secondary">secondary</option>
            </select>
          </Field>
        </>
      ) : (
        <>
          <Field label="Input" htmlFor={id("input")}>
            <Textarea id={id("input")} autoFocus rows={3} className={inputClass()} value={v.input} onChange={set("input")} />
          </Field>
          <Field label="Expected result" htmlFor={id("expected")}>
            <Textarea id={id("expected")} rows={3} className={inputClass()} value={v.expected} onChange={set("expected")} />
          </Field>
        </>
      )}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={pending}>
          Save as custom {p.kind === "criterion" ? "criterion" : "case"}
        </Button>
        <Button size="sm" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

export function ProposalReview({ systemId, promptId, proposals }: { systemId: string; promptId: number; proposals: ProposalRow[] }) {
  const router = useRouter();
  const toast = useToast();
  const [pending, startTransition] = useTransition();
  const [customizing, setCustomizing] = useState<number | null>(null);
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const items = useRef<(HTMLLIElement | null)[]>([]);

  // After a decision the list re-renders without the decided proposal: keep the focus in the list.
  useEffect(() => {
    if (focusIndex === null) return;
    const i = Math.min(focusIndex, proposals.length - 1);
    if (i >= 0) items.current[i]?.focus();
  }, [proposals, focusIndex]);

  const decide = (
    p: ProposalRow,
    index: number,
    run: () => Promise<{ ok: true; data: { status: string; caseKey?: string } } | { ok: false; error: { message: string } }>,
  ) =>
    startTransition(async () => {
      const r = await run();
      if (r.ok) {
        const what = p.kind === "criterion" ? "criterion" : `case${r.data.caseKey ? ` ${r.data.caseKey}` : ""}`;
        toast(
          r.data.status === "dismissed"
            ? `Dismissed “${titleOf(p)}”`
            : r.data.status === "accepted"
              ? `Accepted “${titleOf(p)}” as a generated ${what}`
              : `Saved “${titleOf(p)}” as a custom ${what}`,
        );
        setCustomizing(null);
        setFocusIndex(index);
        router.refresh();
      } else toast(r.error.message, "error");
    });
  const accept = (p: ProposalRow, i: number) => decide(p, i, () => acceptProposalAction(systemId, { proposalId: p.id }));
  const dismiss = (p: ProposalRow, i: number) => decide(p, i, () => dismissProposalAction(systemId, { proposalId: p.id }));
  const customize = (p: ProposalRow, i: number, edits: Record<string, string>) =>
    decide(p, i, () => customizeProposalAction(systemId, { proposalId: p.id, edits }));
  const all = (action: "accept" | "dismiss") =>
    startTransition(async () => {
      const r = await decideAllProposalsAction(systemId, { promptId, action });
      if (r.ok) {
        toast(
          `${action === "accept" ? "Accepted" : "Dismissed"} ${r.data.decided} proposals${r.data.refused.length ? `; ${r.data.refused.length} refused: ${r.data.refused.join("; ")}` : ""}`,
          r.data.refused.length ? "error" : undefined,
        );
        router.refresh();
      } else toast(r.error.message, "error");
    });

  const onKey = (p: ProposalRow, i: number) => (e: React.KeyboardEvent<HTMLLIElement>) => {
    if (e.target !== e.currentTarget || pending || e.altKey || e.ctrlKey || e.metaKey) return;
    const key = e.key.toLowerCase();
    if (key === "arrowdown" || key === "j") items.current[Math.min(i + 1, proposals.length - 1)]?.focus();
    else if (key === "arrowup" || key === "k") items.current[Math.max(i - 1, 0)]?.focus();
    else if (key === "a") accept(p, i);
    else if (key === "d") dismiss(p, i);
    else if (key === "c") setCustomizing(p.id);
    else return;
    e.preventDefault();
  };

  if (proposals.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">No proposals await review. Generate some above.</p>
    );
  }
  return (
    <section aria-labelledby="proposals-title" className="rounded-lg border border-slate-200 bg-white">
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-2.5">
        <h2 id="proposals-title" className="text-sm font-semibold">
          Proposals to review <span className="font-normal text-slate-500">({proposals.length})</span>
        </h2>
        <p className="text-xs text-slate-500">Inactive until accepted. Keys on a focused proposal: ↑/↓ move, A accept, C customize, D dismiss.</p>
        <span className="ml-auto flex gap-2">
          <Button size="sm" onClick={() => all("accept")} disabled={pending}>
            Accept all
          </Button>
          <Button size="sm" onClick={() => all("dismiss")} disabled={pending}>
            Dismiss all
          </Button>
        </span>
      </div>
      <ul aria-label="Proposals" className="divide-y divide-slate-100">
        {proposals.map((p, i) => (
          <li
            key={p.id}
            ref={(el) => {
              items.current[i] = el;
            }}
            tabIndex={0}
            onKeyDown={onKey(p, i)}
            data-testid="proposal"
            aria-label={`${p.kind === "criterion" ? "Criterion" : "Scenario"}: ${titleOf(p)}`}
            className="px-4 py-3 outline-none focus:bg-indigo-50 focus:ring-2 focus:ring-indigo-300 focus:ring-inset"
          >
            <div className="flex flex-wrap items-start gap-2">
              <Badge tone={p.kind === "criterion" ? "indigo" : "sky"}>{p.kind === "criterion" ? "criterion" : "scenario"}</Badge>
              <span className="min-w-0 flex-1 font-medium break-words text-slate-900">{titleOf(p)}</span>
              <span className="flex gap-1.5">
                <Button size="sm" variant="primary" onClick={() => accept(p, i)} disabled={pending} aria-label={`Accept: ${titleOf(p)}`}>
                  Accept
                </Button>
                <Button size="sm" onClick={() => setCustomizing(p.id)} disabled={pending} aria-label={`Customize: ${titleOf(p)}`}>
                  Customize
                </Button>
                <Button size="sm" variant="ghost" onClick={() => dismiss(p, i)} disabled={pending} aria-label={`Dismiss: ${titleOf(p)}`}>
                  Dismiss
                </Button>
              </span>
            </div>
            {p.kind === "criterion" ? (
              <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
                <dt className="text-slate-500">What passes</dt>
                <dd>{p.content.passes}</dd>
                <dt className="text-slate-500">What fails</dt>
                <dd>{p.content.fails}</dd>
                <dt className="text-slate-500">Priority · check</dt>
                <dd className="flex flex-wrap gap-1.5">
                  <Badge tone={p.content.priority === "primary" ? "indigo" : "slate"}>{p.content.priority}</Badge>
                  <CheckBadge p={p} />
                  {p.content.check.kind === "unobservable" ? <span className="text-xs text-amber-800">{p.content.check.reason}</span> : null}
                  {p.content.check.kind === "judge" && p.content.check.note ? <span className="text-xs text-slate-500">{p.content.check.note}</span> : null}
                </dd>
                {p.content.reason ? (
                  <>
                    <dt className="text-slate-500">Why</dt>
                    <dd className="text-slate-700">{p.content.reason}</dd>
                  </>
                ) : null}
              </dl>
            ) : (
              <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
                <dt className="text-slate-500">Expected</dt>
                <dd>{p.content.expected}</dd>
                {p.content.variables.length ? (
                  <>
                    <dt className="text-slate-500">Variables</dt>
                    <dd className="font-mono text-xs">{p.content.variables.map((v) => `${v.name}=${v.value}`).join(", ")}</dd>
                  </>
                ) : null}
                {p.content.tags.length ? (
                  <>
                    <dt className="text-slate-500">Tags</dt>
                    <dd className="flex flex-wrap gap-1">
                      {p.content.tags.map((t) => (
                        <Badge key={t}>{t}</Badge>
                      ))}
                    </dd>
                  </>
                ) : null}
                <dt className="text-slate-500">Why</dt>
                <dd className="text-slate-700">
                  Covers “{p.content.concept}” for persona “{p.content.persona}”{p.content.edgeCase ? " (edge case)" : ""}
                </dd>
              </dl>
            )}
            <p className="mt-1 text-xs text-slate-400">
              {p.model} · prompt revision #{p.promptRevisionId} · run {p.runId.slice(0, 8)}
            </p>
            {customizing === p.id ? (
              <Customizer p={p} pending={pending} onCancel={() => setCustomizing(null)} onSave={(edits) => customize(p, i, edits)} />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
