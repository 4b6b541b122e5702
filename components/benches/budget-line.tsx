/**
 * The bench page's spend cap and gate limits (issue #16 §4): what was set at launch, what the
 * bench spent, and how many trials the cap kept from starting. Renders nothing without either.
 */
import type { BenchSettings } from "@/db/queries/benches";
import type { SpendFigures } from "@/server/bench/progress-poll";
import { candidateEstimates, inFlightEstimate, usd, type SpendCap } from "@/lib/bench/budget";
import { raisedCapOnCancel } from "@/lib/bench/rerun/spend-cap";

/**
 * What a running trial counts for under the cap, as the claim counts it (its candidate's planned
 * cost per trial, or its dearest finished trial when higher): per candidate ("small $0.02, large
 * $0.20") when they differ, one figure when they do not (or no candidate is given).
 */
function runningCountsFor(cap: SpendCap, spend: SpendFigures, candidates: { id: number; label: string }[]): string {
  const spentOf = new Map(spend.candidates.map((c) => [c.id, c]));
  const rows = candidates.flatMap((c) => {
    const s = spentOf.get(c.id);
    return s ? [{ label: c.label, spend: { ...s, running: 0 } }] : [];
  });
  const est = candidateEstimates(
    cap,
    spend,
    rows.map((r) => r.spend),
  );
  if (est.length === 0 || est.every((e) => e === est[0])) return usd(est[0] ?? inFlightEstimate(cap.trialEstimateUsd, spend));
  return rows.map((r, i) => `${r.label} ${usd(est[i])}`).join(", ");
}

/**
 * One line under the bench's title.
 * @param candidates the bench's candidates (ids and labels) to say what each one's running trials count for
 */
export function BudgetLine({
  settings,
  spend,
  candidates = [],
}: {
  settings: BenchSettings;
  spend: SpendFigures;
  candidates?: { id: number; position: number; label: string }[];
}) {
  const cap = settings.spendCap;
  const gate = settings.gate;
  const limits = [
    gate?.maxLatencyIncreasePct != null ? `p95 latency at most +${gate.maxLatencyIncreasePct} %` : null,
    gate?.maxCostIncreasePct != null ? `cost per case at most +${gate.maxCostIncreasePct} %` : null,
  ].filter((x): x is string => x !== null);
  if (!cap && limits.length === 0) return null;
  return (
    <p className="text-xs text-slate-600" data-testid="bench-budget">
      {cap ? (
        <>
          Spend cap <b>{usd(cap.usd)}</b>
          {/* Raised for the rerun running now (issue #16): say what a Cancel does to it. */}
          {cap.raisedForRerun ? (
            ` (raised from ${usd(cap.raisedForRerun.fromUsd)} for the rerun: ${raisedCapOnCancel(cap.raisedForRerun.fromUsd)})`
          ) : cap.raisedFromUsd !== undefined ? (
            // A raise that stayed: the launch's budget skips were made under the cap before it.
            <>
              {` (raised from ${usd(cap.raisedFromUsd)} for a rerun`}
              {spend.budgetSkippedTotal
                ? `; the ${spend.budgetSkippedTotal.toLocaleString("en-US")} budget skips were made under ${usd(cap.raisedFromUsd)}`
                : ""}
              )
            </>
          ) : null}{" "}
          · spent {usd(spend.spentUsd)}
          {spend.budgetSkippedTotal ? (
            <>
              {" "}
              · <b>{spend.budgetSkippedTotal.toLocaleString("en-US")}</b> trial{spend.budgetSkippedTotal === 1 ? "" : "s"} skipped: budget
            </>
          ) : null}{" "}
          <span className="text-slate-400">
            (a trial starts only while spent + running trials stay within it; a running trial counts for its candidate’s planned cost per trial, or its dearest
            finished trial when higher: {runningCountsFor(cap, spend, candidates)})
          </span>
        </>
      ) : null}
      {cap && limits.length ? " · " : null}
      {limits.length ? <>Gate limits vs baseline: {limits.join(", ")}</> : null}
    </p>
  );
}
