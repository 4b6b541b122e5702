"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import type { BenchProgress } from "@/db/queries/benches";
import { cancelBenchAction } from "@/app/systems/[systemId]/benches/actions";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useToast } from "@/components/ui/toast";
import { progressClock } from "@/lib/bench/progress-clock";
import { clockTime, stalledText } from "@/lib/bench/stalled-claims";
import { progressCounts } from "@/lib/bench/progress-counts";
import { ResultsRefresh } from "@/lib/bench/results-refresh";
import { cancelRefusal, clockText } from "./progress-text";
import { publishSpend } from "./live-spend";
import type { BenchProgressPoll } from "@/server/bench/progress-poll";
import { BenchStatus } from "./status-badge";
import { NoWorkerNotice } from "./no-worker-notice";
import { useRoleAtLeast } from "@/components/auth/role-context";

/** While a bench runs, the page's results (candidates table, matrix) are re-read this often at most, in ms. */
const RESULTS_REFRESH_MS = 5_000;

/**
 * Live progress of a bench (polls the progress route every second while it runs): done / total,
 * what it spent (for the spend line, `publishSpend`),
 * errors, skipped, elapsed and estimated time left, and Cancel. While trials finish it refreshes
 * the page's results every few seconds, and once more when the bench ends.
 */
export function BenchProgressBar({ systemId, initial }: { systemId: string; initial: BenchProgress }) {
  const router = useRouter();
  const canEdit = useRoleAtLeast("editor");
  const toast = useToast();
  // The page's first render has no poll yet: the no-worker notice comes with the first poll (a second later).
  const [p, setP] = useState<BenchProgress & Partial<Pick<BenchProgressPoll, "noWorkerSince">>>(initial);
  const [now, setNow] = useState(() => Date.now());
  const [pending, startTransition] = useTransition();
  const ended = p.status !== "queued" && p.status !== "running";
  const endedAtLoad = useRef(ended);
  const initialFinished = useRef(initial.done + initial.error + initial.skipped);

  // The page's results re-read once the bench ends: until they arrive the bar says so, rather than
  // "finished" above a table of pending trials (issue #16).
  const [loadingResults, startResultsRefresh] = useTransition();

  useEffect(() => {
    if (ended) {
      if (!endedAtLoad.current) startResultsRefresh(() => router.refresh());
      return;
    }
    let stop = false;
    // Paced from what this render showed (not from the first poll: see ResultsRefresh).
    const refresh = new ResultsRefresh(initialFinished.current, Date.now(), RESULTS_REFRESH_MS);
    const tick = async () => {
      try {
        const r = await fetch(`/api/benches/${p.id}/progress`, { cache: "no-store" });
        if (r.ok && !stop) {
          const next = (await r.json()) as BenchProgressPoll;
          setP(next);
          // The spend line under the title follows the run too (issue #16: it said "spent $0.00" beside 12 done trials).
          publishSpend(next.id, next.spend);
          // New results: re-render the server parts (the candidates table and the matrix), not every second.
          if (refresh.due(next.done + next.error + next.skipped, Date.now())) router.refresh();
        }
      } catch {
        /* keep the last figures; try again */
      }
      if (!stop) setNow(Date.now());
    };
    const t = setInterval(tick, 1000);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, [ended, p.id, router]);

  const finished = p.done + p.error + p.skipped;
  // Running trials a worker that stopped responding still holds (PostgreSQL): they wait for its lease.
  const stalled = p.stalled?.trials ?? 0;
  const frac = p.total ? finished / p.total : 1;
  // A rerun is timed from its own start over its own trials (issue #16 §3); the time left at each candidate's own rate.
  const clock = progressClock(p, now);

  const cancel = () =>
    startTransition(async () => {
      const r = await cancelBenchAction({ benchId: p.id, systemId });
      if (r.ok) toast("Cancelling: running trials stop, unrun ones are skipped, finished ones stay");
      else {
        // Ended meanwhile: a notice, and the page shows the ended bench (issue #16).
        const how = cancelRefusal(r.error);
        toast(r.error.message, how.tone);
        if (how.refresh) router.refresh();
      }
    });

  return (
    <section aria-label="Progress" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <BenchStatus status={p.cancelRequested && !ended ? "cancelling" : p.status} />
        <span className="font-medium tabular-nums" data-testid="progress-count">
          {finished.toLocaleString("en-US")} / {p.total.toLocaleString("en-US")} trials
        </span>
        <span
          className="text-slate-600 tabular-nums"
          title="Claimed: taken by a worker, running or about to run. Workers take trials ahead of the concurrency so that none waits; at most the concurrency run at once."
        >
          {/* Trials held by a worker that stopped responding are said apart, below. */}
          {progressCounts({ ...p, running: p.running - stalled })}
        </span>
        {p.stalled ? (
          // Local time of the reader: differs between the server's render and the browser's by design.
          <span className="text-amber-700 tabular-nums" data-testid="progress-stalled" suppressHydrationWarning>
            {stalledText(p.stalled, now, clockTime)}
          </span>
        ) : null}
        {loadingResults ? (
          <span className="text-slate-500" data-testid="progress-loading-results" role="status">
            loading the results…
          </span>
        ) : null}
        {/* The clock differs between the server's render and the browser's first one by design. */}
        <span className="text-slate-500 tabular-nums" suppressHydrationWarning>
          {clockText(clock, ended)}
        </span>
        {!ended && canEdit ? (
          <span className="ml-auto">
            <ConfirmDialog
              trigger={
                <Button variant="danger" size="sm" disabled={pending || p.cancelRequested}>
                  {p.cancelRequested ? "Cancelling…" : "Cancel"}
                </Button>
              }
              title="Cancel this bench?"
              description="Running trials are aborted and unrun trials are marked skipped. Trials that already finished keep their results."
              confirmLabel="Cancel bench"
              cancelLabel="Keep running"
              onConfirm={cancel}
            />
          </span>
        ) : null}
      </div>
      {!ended && p.noWorkerSince != null ? <NoWorkerNotice since={p.noWorkerSince} now={now} /> : null}
      <div
        className="h-2 w-full overflow-hidden rounded bg-slate-100"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={p.total}
        aria-valuenow={finished}
        aria-label="Trials finished"
      >
        <div
          className={`h-full ${p.error - (p.errorsRerun ?? 0) ? "bg-amber-500" : "bg-indigo-600"} transition-[width]`}
          style={{ width: `${(frac * 100).toFixed(1)}%` }}
        />
      </div>
    </section>
  );
}
