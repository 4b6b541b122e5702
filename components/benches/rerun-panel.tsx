"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { planRerunAction, startRerunAction } from "@/app/systems/[systemId]/benches/[benchId]/rerun-actions";
import type { RerunOffer, RerunPlanSummary, ResolvedRegression } from "@/server/bench/reruns";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useToast } from "@/components/ui/toast";
import { useRoleAtLeast } from "@/components/auth/role-context";
import { refreshAfterRefusal, rerunAddedText, runLabel, suspectedSentence } from "./rerun-text";
import { deterministicNote } from "@/lib/bench/rerun/select";
import { raisedCapOnCancel, rerunSpendCapSentence } from "@/lib/bench/rerun/spend-cap";
import { rerunCostText } from "@/lib/bench/rerun/cost";

type RerunPlanView = RerunPlanSummary;

const n = (v: number) => v.toLocaleString("en-US");

/** What a rerun will run and cost, in one paragraph (the confirm dialog's text). */
function planText(p: RerunPlanView): string {
  const who = p.perCandidate.map((c) => `${c.label}: ${n(c.trials)}`).join(", ");
  // The summary names the first few case IDs only (`caseCount` counts them all).
  const shown = p.caseKeys.slice(0, 5);
  const cases = p.caseCount <= shown.length ? shown.join(", ") : `${shown.join(", ")} and ${n(p.caseCount - shown.length)} more`;
  // One cost, the CLI's too: each trial at what this bench measured for its candidate (on that case) (issue #16 §3).
  const cost = rerunCostText(p.estimate.costUsd, p.estimate.costFrom);
  return (
    `Adds ${n(p.trialCount)} trial${p.trialCount === 1 ? "" : "s"} to this bench (${who}) on ${n(p.caseCount)} case${p.caseCount === 1 ? "" : "s"} (${cases}), ` +
    `with the bench's pinned prompt revisions, models and rubric: ${p.modelCallsUpperBound ? "at most " : ""}${n(p.modelCalls)} model call${p.modelCalls === 1 ? "" : "s"}, ` +
    `${n(p.judgeCalls)} judge call${p.judgeCalls === 1 ? "" : "s"}, about ${n(p.estimate.inputTokens)} input and ${n(p.estimate.outputTokens)} output tokens (the plan's estimate), ${cost}. ` +
    "The bench reopens and its results are computed again when they are done." +
    // Issue #16: the regressions it leaves out, and why.
    (p.deterministic ? ` Not rerun: ${deterministicNote(p.deterministic)}` : "") +
    // Issue #16: the bench's cap counts what it spent already; say what is left and whether it stops the rerun.
    (p.spendCap ? ` ${rerunSpendCapSentence(p.spendCap)}` : "")
  );
}

/**
 * One rerun's button and its confirm dialog: the plan (trials, cases, calls, tokens, cost) is asked
 * for when the dialog opens, and the rerun can start once it is shown.
 */
function RerunDialog({
  systemId,
  benchId,
  kind,
  disabled,
  onRun,
}: {
  systemId: string;
  benchId: number;
  kind: "confirm" | "errors";
  disabled: boolean;
  onRun: (spendCapUsd?: string) => void;
}) {
  const router = useRouter();
  const toast = useToast();
  const [plan, setPlan] = useState<RerunPlanView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // When the spend cap would stop the rerun: the cap it runs with, prefilled with the one it needs (issue #16).
  const [cap, setCap] = useState("");
  const open = async (isOpen: boolean) => {
    if (!isOpen) return;
    setPlan(null);
    setProblem(null);
    const r = await planRerunAction({ systemId, benchId, kind });
    if (r.ok) {
      setPlan(r.data);
      setCap(r.data.spendCap?.stops ? String(r.data.spendCap.neededUsd) : "");
    } else {
      setProblem(r.error.message);
      // The page's state is stale (the dialog closes with the refresh when the bench runs now): the toast keeps the reason.
      if (refreshAfterRefusal(r.error)) {
        toast(r.error.message, "error");
        router.refresh();
      }
    }
  };
  const capStops = plan?.spendCap?.stops ?? false;
  const text = plan
    ? `${planText(plan)}${kind === "errors" ? " Each errored trial is kept as it was; its rerun links to it and counts in its place." : ""}`
    : (problem ?? "Planning the rerun…");
  return (
    <ConfirmDialog
      trigger={
        <Button size="sm" disabled={disabled}>
          {kind === "confirm" ? "Confirm suspected regressions" : "Rerun errored trials"}
        </Button>
      }
      title={kind === "confirm" ? "Confirm suspected regressions?" : "Rerun errored trials?"}
      description={
        <>
          <p data-testid="rerun-plan">{text}</p>
          {capStops ? (
            <label className="mt-2 flex items-center gap-2 text-sm">
              Spend cap for this rerun (USD)
              <input
                aria-label="Spend cap for this rerun (USD)"
                inputMode="decimal"
                value={cap}
                onChange={(e) => setCap(e.target.value)}
                className="w-28 rounded border border-slate-300 px-2 py-1"
              />
            </label>
          ) : null}
          {capStops && plan?.spendCap ? (
            <p className="mt-1 text-xs text-slate-600">If you cancel the rerun: {raisedCapOnCancel(plan.spendCap.capUsd)}.</p>
          ) : null}
        </>
      }
      confirmLabel={plan ? (capStops ? `Raise the cap and ${runLabel(plan.trialCount).toLowerCase()}` : runLabel(plan.trialCount)) : "Run"}
      confirmDisabled={!plan}
      onOpenChange={(o) => void open(o)}
      onConfirm={() => onRun(capStops ? cap : undefined)}
    />
  );
}

/**
 * Reruns inside a finished bench (issue #16 §3): "Confirm suspected regressions" and "Rerun errored
 * trials", each with its plan in a confirm dialog; and the suspected regressions a confirm round
 * resolved ("flaky — cleared", or flaky on the baseline: they no longer block); and why the
 * regressions that are deterministic replays are not offered a rerun.
 */
export function RerunPanel({
  systemId,
  benchId,
  confirm,
  errors,
  cleared,
  deterministic = 0,
}: {
  systemId: string;
  benchId: number;
  /** The confirm round's offer (how many suspected regressions), or null when nothing is suspected. */
  confirm: RerunOffer | null;
  /** The errored trials' rerun offer (how many), or null when none is left to rerun. */
  errors: RerunOffer | null;
  cleared: ResolvedRegression[];
  /** Regressions confirmed as deterministic replays (recorded answers on both sides, a code check): no rerun is offered for them. */
  deterministic?: number;
}) {
  const router = useRouter();
  const toast = useToast();
  const [pending, startTransition] = useTransition();
  // Viewers see the counts and what was cleared; starting a rerun is an editor's (the server checks too).
  const canRun = useRoleAtLeast("editor");
  if (!confirm && !errors && cleared.length === 0 && deterministic === 0) return null;
  const run = (kind: "confirm" | "errors", spendCapUsd?: string) =>
    startTransition(async () => {
      const r = await startRerunAction({ systemId, benchId, kind, ...(spendCapUsd !== undefined ? { spendCapUsd } : {}) });
      if (!r.ok) {
        toast(r.error.message, "error");
        // Another tab's rerun got there first: show the bench as it is now (running, no Confirm), not as it was.
        if (refreshAfterRefusal(r.error)) router.refresh();
        return;
      }
      toast(rerunAddedText(r.data.trials));
      router.refresh();
    });
  return (
    <section aria-label="Reruns" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      {confirm ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-slate-700" data-testid="suspected-count">
            {suspectedSentence(confirm.targets, confirm.blockingTargets)}
          </p>
          {canRun ? <RerunDialog systemId={systemId} benchId={benchId} kind="confirm" disabled={pending} onRun={(c) => run("confirm", c)} /> : null}
        </div>
      ) : null}
      {deterministic ? (
        <p className="text-slate-700" data-testid="deterministic-count">
          {deterministicNote(deterministic)}{" "}
          <span className="text-xs text-slate-500">
            Recorded answers against a recorded reference, scored by code, replay the same every time: they are confirmed and block.
          </span>
        </p>
      ) : null}
      {errors ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-slate-700">
            {errors.targets === 1 ? "1 trial" : `${n(errors.targets)} trials`} ended in an error (rate limit, timeout, provider outage …): not counted as
            failures.
          </p>
          {canRun ? <RerunDialog systemId={systemId} benchId={benchId} kind="errors" disabled={pending} onRun={(c) => run("errors", c)} /> : null}
        </div>
      ) : null}
      {cleared.length ? (
        <div>
          <p className="text-slate-700">Suspected regressions a rerun resolved (they no longer block):</p>
          <ul className="mt-1 text-xs text-slate-700">
            {cleared.map((c, i) => (
              <li key={i} data-testid="cleared-regression">
                <code>{c.caseKey}</code> · {c.label} · {c.candidateLabel}{" "}
                {c.status === "cleared" ? (
                  <Badge tone="green" title="The rerun trials of the candidate all passed: the failure did not reproduce">
                    flaky — cleared
                  </Badge>
                ) : (
                  <Badge title="The reference failed a rerun trial of this check itself: not a regression of the candidate">flaky on baseline — cleared</Badge>
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
