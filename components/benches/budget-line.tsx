/**
 * The bench page's spend cap and gate limits (issue #16 §4): what was set at launch, what the
 * bench spent, and how many trials the cap kept from starting. Renders nothing without either.
 */
import type { BenchSettings } from "@/db/queries/benches";
import type { BenchSpend } from "@/db/queries/bench-budget";
import { usd } from "@/lib/bench/budget";
import { raisedCapOnCancel } from "@/lib/bench/rerun/spend-cap";

/** One line under the bench's title. */
export function BudgetLine({ settings, spend }: { settings: BenchSettings; spend: BenchSpend }) {
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
          {cap.raisedForRerun ? ` (raised from ${usd(cap.raisedForRerun.fromUsd)} for the rerun: ${raisedCapOnCancel(cap.raisedForRerun.fromUsd)})` : null} ·
          spent {usd(spend.spentUsd)}
          {spend.budgetSkippedTotal ? (
            <>
              {" "}
              · <b>{spend.budgetSkippedTotal.toLocaleString("en-US")}</b> trial{spend.budgetSkippedTotal === 1 ? "" : "s"} skipped: budget
            </>
          ) : null}{" "}
          <span className="text-slate-400">(a trial starts only while spent + running trials at {usd(cap.trialEstimateUsd)} each stay within it)</span>
        </>
      ) : null}
      {cap && limits.length ? " · " : null}
      {limits.length ? <>Gate limits vs baseline: {limits.join(", ")}</> : null}
    </p>
  );
}
