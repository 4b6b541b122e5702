import type { BenchDetail } from "@/db/queries/benches";
import type { ErrorKindCount } from "@/db/queries/bench-errors";
import { statsOf, type CandidateStats } from "@/lib/bench/aggregate";
import { isPartialRecommendation, soleBaseline, type Recommendation } from "@/lib/bench/recommend";
import { Badge } from "@/components/ui/badge";
import type { CandidateEvidence } from "@/server/bench/comparisons";
import { blockerReasons, blockerStatuses } from "@/lib/bench/evidence/blockers";
import { evidenceHeadline } from "@/lib/bench/evidence/headline";
import { formatRateInterval, withMinusSigns } from "@/lib/bench/evidence/format";
import { passAtText } from "@/lib/bench/evidence/pass-at-text";
import type { RegressionReason, RegressionStatus } from "@/lib/bench/stats/regression-status";
import { wilsonInterval } from "@/lib/bench/stats/wilson";
import { PassRate } from "./status-badge";

const fmtMs = (v: number | null) => (v === null ? "—" : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v} ms`);
const fmtTokens = (t: { input: number; output: number }) => `${t.input.toLocaleString("en-US")} / ${t.output.toLocaleString("en-US")}`;
const fmtUsd = (v: number | null) => (v === null ? "—" : `$${v.toFixed(4)}`);
const dash = <span className="text-xs text-slate-500">—</span>;

/** Blocking regressions and fixes listed per candidate before "show all": a bench of thousands of cases broke hundreds (issue #16, speed). */
export const LIST_LIMIT = 20;

/** Where a list of regressions or fixes was measured: for the baseline, in the last bench, or either. */
function where(list: readonly { against: "baseline" | "last bench" }[], baseline: string, last: string): string {
  const b = list.some((x) => x.against === "baseline");
  const l = list.some((x) => x.against === "last bench");
  return b && l ? `${baseline} or ${last}` : l ? last : baseline;
}

/** "95 % CI 9.5–90.5": the Wilson interval of `passed` of `scored`, or "" when nothing was scored. */
function wilsonText(passed: number, scored: number): string {
  const ci = scored ? wilsonInterval(passed, scored).ci95 : null;
  return ci ? `95 % CI ${(ci[0] * 100).toFixed(1)}–${(ci[1] * 100).toFixed(1)}` : "";
}

/** A pass rate as a small percentage beside a label with its Wilson interval (no denominator), or nothing when nothing was scored. */
function ShortRate({ rate }: { rate: { passed: number; scored: number } | null }) {
  if (!rate?.scored) return null;
  return (
    <span className="text-xs text-slate-600 tabular-nums" title="Pass rate over scored checks, with its Wilson 95 % interval">
      {((rate.passed / rate.scored) * 100).toFixed(1)}% ({wilsonText(rate.passed, rate.scored)})
    </span>
  );
}

const STATUS_TONE: Record<RegressionStatus, "red" | "amber" | "slate" | "green"> = {
  confirmed: "red",
  suspected: "amber",
  "flaky on baseline": "slate",
  cleared: "green",
  none: "slate",
};
const STATUS_TITLE: Record<RegressionStatus, string> = {
  confirmed: "Passed on every reference trial; the candidate's failures are unlikely by chance (one-sided Fisher exact p ≤ 0.05)",
  suspected: "Passed on every reference trial, but chance can explain the failure (too few trials): it blocks until a rerun confirms or clears it",
  "flaky on baseline": "The reference's own trials of this check disagree",
  cleared: "A rerun did not reproduce the failure",
  none: "",
};

/** What a reason means, on hover. */
const REASON_TITLE: Record<RegressionReason, string> = {
  "deterministic replay":
    "Recorded answers on both sides, scored by code: every rerun replays the same answers, so the failure is certain and a rerun cannot change it (no p value: repeats of a copy are no evidence)",
};

/** A regression's status as a badge (confirmed / suspected / …), with its reason ("confirmed · deterministic replay") and what it means on hover. */
function RegressionStatusBadge({ status, reason = null }: { status: RegressionStatus; reason?: RegressionReason | null }) {
  return (
    <Badge tone={STATUS_TONE[status]} title={reason ? REASON_TITLE[reason] : STATUS_TITLE[status]}>
      {reason ? `${status} · ${reason}` : status}
    </Badge>
  );
}

/** What keeps a candidate from being recommended, for its badge: "2 regressions; cost per case +50 % exceeds the +30 % limit". */
function blockedBy(c: { blockers: readonly unknown[]; limitBlockers?: readonly string[] }): string {
  const n = c.blockers.length;
  return [n ? `${n} regression${n > 1 ? "s" : ""}` : "", ...(c.limitBlockers ?? [])].filter(Boolean).join("; ");
}

/**
 * The recommendation: the evidence sentence (when the statistics were computed), the headline, then
 * each candidate's verdict with its blocking regressions and their status.
 * @param evidence the bench's statistics from `benchEvidence` (null for a bench without a summary)
 */
export function RecommendationCard({
  rec,
  bench,
  evidence = null,
  listLimit = LIST_LIMIT,
  showAllHref = null,
}: {
  rec: Recommendation;
  bench: BenchDetail;
  evidence?: CandidateEvidence[] | null;
  /** How many blocking regressions and fixes each list shows (null: all of them). */
  listLimit?: number | null;
  /** The page with every one listed (`listLimit` null), linked below a cut list. */
  showAllHref?: string | null;
}) {
  const cut = <T,>(list: readonly T[]) => (listLimit === null ? list : list.slice(0, listLimit));
  const more = (n: number, what: string) =>
    listLimit !== null && n > listLimit ? (
      <li className="mt-1">
        … {n - listLimit} more.{" "}
        {showAllHref ? (
          <a href={showAllHref} className="underline">
            Show all {n} {what}
          </a>
        ) : (
          "Export the results for all."
        )}
      </li>
    ) : null;
  const sole = soleBaseline(rec.candidates);
  const evOf = (id: number) => evidence?.find((e) => e.candidateId === id);
  const statuses = new Map(rec.candidates.map((c) => [c.candidateId, blockerStatuses(c.blockers, evOf(c.candidateId)?.regressions ?? [])]));
  const reasons = new Map(rec.candidates.map((c) => [c.candidateId, blockerReasons(c.blockers, evOf(c.candidateId)?.regressions ?? [])]));
  const sentence = evidence
    ? evidenceHeadline(
        rec.candidates.map((c) => ({
          label: c.label,
          isBaseline: c.isBaseline,
          comparisons: evOf(c.candidateId)?.comparisons ?? [],
          blockers: statuses.get(c.candidateId)!,
          blockerReasons: reasons.get(c.candidateId)!,
        })),
      )
    : null;
  const anySuspected = [...statuses.values()].some((l) => l.includes("suspected"));
  const anyReplay = [...reasons.values()].some((l) => l.includes("deterministic replay"));
  // A candidate that passed nothing is never presented as recommended (benches finished before
  // that rule may still have stored such a pick).
  const passedAny = (id: number) => (statsOf(bench.summary, id)?.passRate.passed ?? 0) > 0;
  // Name what a change was measured against: the baseline candidate, or the last bench and its candidate.
  const baselineLabel = rec.candidates.find((c) => c.isBaseline)?.label;
  const against = (a: "baseline" | "last bench") =>
    a === "baseline"
      ? `baseline${baselineLabel ? ` (${baselineLabel})` : ""}`
      : rec.lastBench
        ? `last bench #${rec.lastBench.benchId} (${rec.lastBench.candidateLabel})`
        : "last bench";
  // A partial bench recommends nothing (issue #16), also one stored before that rule.
  const partial = isPartialRecommendation(rec);
  const ok = rec.recommendedCandidateId !== null && passedAny(rec.recommendedCandidateId) && bench.status === "finished" && !partial;
  const tone = sole ? "border-slate-300 bg-slate-50" : ok ? "border-emerald-300 bg-emerald-50" : "border-amber-300 bg-amber-50";
  return (
    <section aria-label="Recommendation" className={`rounded-lg border p-4 ${tone}`}>
      <h2 className="text-sm font-semibold tracking-wide text-slate-600 uppercase">Recommendation</h2>
      {sentence ? (
        <p className="mt-1 text-base font-semibold text-slate-900" data-testid="evidence-headline">
          {sentence}
        </p>
      ) : null}
      <p className={sentence ? "mt-1 text-sm text-slate-800" : "mt-1 text-base font-medium text-slate-900"} data-testid="recommendation">
        {rec.headline}
      </p>
      <p className="mt-3 text-xs text-slate-500">
        Candidates ranked by pass rate; a higher one that breaks a previously passing check is not recommended.
        {/* "One trial per case" only where it is so (issue #16: it showed on 3-repeat benches). */}
        {anySuspected
          ? ` A suspected regression blocks until a rerun confirms or clears it${
              bench.settings.repeats === 1 ? " (with one trial per case chance cannot be ruled out: run more repeats)" : ""
            }.`
          : ""}
        {anyReplay
          ? " A deterministic replay (a recorded answer against a recorded reference, scored by code) is confirmed without a rerun: a rerun replays the same answers."
          : ""}
      </p>
      <ul className="mt-1.5 flex flex-col gap-2">
        {rec.candidates.map((c) => (
          <li key={c.candidateId} className="text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <span className="w-6 text-xs text-slate-500">#{c.rank}</span>
              <span className="font-medium">{c.label}</span>
              <ShortRate rate={statsOf(bench.summary, c.candidateId)?.passRate ?? null} />
              {c.isBaseline ? <Badge>baseline</Badge> : null}
              {c.recommended && !sole && !partial && passedAny(c.candidateId) ? (
                <Badge tone="green">recommended</Badge>
              ) : c.blockers.length || c.limitBlockers?.length ? (
                <Badge tone="red">{`not recommended: ${blockedBy(c)}`}</Badge>
              ) : null}
              {c.tradeoffs.length ? <span className="text-xs text-slate-600">{withMinusSigns(c.tradeoffs.join(" · "))}</span> : null}
            </div>
            {c.blockers.length ? (
              <details className="mt-1 ml-8" open={listLimit === null}>
                <summary className="cursor-pointer text-xs text-slate-700">
                  Blocking regressions: {c.blockers.length === 1 ? "a check that passed" : `${c.blockers.length} checks that passed`}{" "}
                  {where(c.blockers, "for the baseline", "in the last bench")} and {c.blockers.length === 1 ? "fails" : "fail"} now
                </summary>
                <ul className={`mt-1 overflow-auto text-xs text-slate-700 ${listLimit === null ? "" : "max-h-60"}`}>
                  {cut(c.blockers).map((b, i) => (
                    <li key={i}>
                      <code>{b.caseKey}</code> · {b.label}
                      {b.priority ? ` (${b.priority})` : ""} · {b.outcome === "mixed" ? "fails in some repeats" : "fails"} · vs {against(b.against)}{" "}
                      <RegressionStatusBadge status={statuses.get(c.candidateId)![i]} reason={reasons.get(c.candidateId)![i]} />
                    </li>
                  ))}
                  {more(c.blockers.length, "blocking regressions")}
                </ul>
              </details>
            ) : null}
            {c.fixes?.length ? (
              <details className="mt-1 ml-8" open={listLimit === null}>
                <summary className="cursor-pointer text-xs text-emerald-800">
                  Fixes: {c.fixes.length === 1 ? "a check that failed" : `${c.fixes.length} checks that failed`}{" "}
                  {where(c.fixes, "for the baseline", "in the last bench")} and {c.fixes.length === 1 ? "passes" : "pass"} now
                </summary>
                <ul className={`mt-1 overflow-auto text-xs text-slate-700 ${listLimit === null ? "" : "max-h-60"}`}>
                  {cut(c.fixes).map((f, i) => (
                    <li key={i}>
                      <code>{f.caseKey}</code> · {f.label}
                      {f.priority ? ` (${f.priority})` : ""} · passes · vs {against(f.against)}
                    </li>
                  ))}
                  {more(c.fixes.length, "fixes")}
                </ul>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
      {bench.summary?.retained ? (
        <p className="mt-3 text-xs text-slate-600">
          {bench.summary.retained > 1
            ? `${bench.summary.retained} failing cases were retained as regression candidates`
            : "1 failing case was retained as a regression candidate"}{" "}
          for the next bench (source “retained”: automatic, not human-validated).
        </p>
      ) : null}
    </section>
  );
}

/** Per candidate: pass rate over scored checks with its denominator, unscored and error counts apart, tokens, cost, latency. */
export function CandidatesTable({ bench, stats, evidence = null }: { bench: BenchDetail; stats: CandidateStats[]; evidence?: CandidateEvidence[] | null }) {
  const baselineId =
    bench.summary?.baselineCandidateId ??
    (bench.baseline.kind === "candidate" ? bench.candidates.find((c) => c.position === (bench.baseline as { position: number }).position)?.id : null);
  return (
    <section aria-label="Candidates" className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
          <tr>
            <th className="px-3 py-2 font-medium">Candidate</th>
            <th className="px-3 py-2 font-medium">Pass rate (scored checks)</th>
            <th
              className="px-3 py-2 font-medium"
              title="A trial fully passes when a check of it passed and none failed or errored; trials with errors are counted apart"
            >
              {bench.settings.repeats > 1 ? "Trials fully passed" : "Cases fully passed"}
            </th>
            {evidence ? (
              <th
                className="px-3 py-2 font-medium"
                title="Passing trials of scored trials; a trial passes when all its scored checks pass. Wilson score interval."
              >
                Case pass rate · 95 % CI
              </th>
            ) : null}
            <th className="px-3 py-2 font-medium">Unscored</th>
            <th className="px-3 py-2 font-medium">Check errors</th>
            <th className="px-3 py-2 font-medium">Trials done / error / skipped</th>
            <th className="px-3 py-2 font-medium">Tokens in / out</th>
            <th className="px-3 py-2 font-medium">Cost</th>
            <th className="px-3 py-2 font-medium">Latency p50 / p95</th>
          </tr>
        </thead>
        <tbody>
          {bench.candidates.map((c) => {
            const s = stats.find((x) => x.candidateId === c.id);
            if (!s) return null;
            const recorded = c.kind === "recorded";
            return (
              <tr key={c.id} className="border-b border-slate-100 last:border-0" data-testid="candidate-row">
                <td className="px-3 py-2">
                  <span className="font-medium">{c.label}</span> {c.id === baselineId ? <Badge>baseline</Badge> : null}
                  <span className="block text-xs text-slate-500">
                    {c.kind === "recorded" ? "recorded outputs" : `${c.modelConfig?.provider} · ${c.modelConfig?.modelId}`}
                  </span>
                </td>
                <td className="px-3 py-2" data-testid="check-pass-rate">
                  <PassRate passed={s.passRate.passed} scored={s.passRate.scored} />
                  {s.passRate.scored ? (
                    <span className="block text-xs text-slate-500 tabular-nums">{wilsonText(s.passRate.passed, s.passRate.scored)}</span>
                  ) : null}
                </td>
                <td className="px-3 py-2">
                  <PassRate passed={s.trialPassRate.passed} scored={s.trialPassRate.scored} />
                  {s.trialsWithErrors ? (
                    <span
                      className="block text-xs text-amber-800"
                      title="Trials that errored, or one of whose checks errored (a judge that failed): without a failed check they count neither as passed nor as failed"
                    >
                      {s.trialsWithErrors} {bench.settings.repeats > 1 ? "trial" : "case"}
                      {s.trialsWithErrors > 1 ? "s" : ""} with errors
                    </span>
                  ) : null}
                </td>
                {evidence ? <CasePassRateCell rates={evidence.find((e) => e.candidateId === c.id)?.rates ?? null} repeats={bench.settings.repeats} /> : null}
                <td className="px-3 py-2 tabular-nums">{s.checks.unscored}</td>
                <td className="px-3 py-2 tabular-nums">{s.checks.error}</td>
                <td className="px-3 py-2 tabular-nums">
                  {s.trials.done} / {s.trials.error} / {s.trials.skipped}
                  {s.trials.pending ? <span className="text-slate-500"> ({s.trials.pending} pending)</span> : null}
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {/* Recorded outputs were read, not generated; with no finished trial nothing was measured. */}
                  {recorded ? <span className="text-xs text-slate-500">— (recorded)</span> : s.trials.done === 0 ? "—" : fmtTokens(s.tokens)}
                  {s.judge ? (
                    <span className="block text-xs text-slate-500" title={`${s.judge.checks} judged checks`}>
                      judge: {fmtTokens(s.judge.tokens)}
                    </span>
                  ) : null}
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {recorded ? dash : fmtUsd(s.costUsd)}
                  {s.judge ? (
                    <span className="block text-xs text-slate-500">judge: {s.judge.costUsd === null ? "no prices set" : fmtUsd(s.judge.costUsd)}</span>
                  ) : null}
                </td>
                <td className="px-3 py-2 tabular-nums">{recorded ? dash : `${fmtMs(s.latencyMs.p50)} / ${fmtMs(s.latencyMs.p95)}`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {evidence ? (
        <p className="border-t border-slate-100 px-3 py-2 text-xs text-slate-600">
          Pass rate means a case passes when all its scored checks pass; unscored and errored trials are left out. The 95 % interval is
          {evidence.some((e) => e.rates.passAt !== null)
            ? " over cases (with repeats a case's trials are not independent, so it is Wilson's on the effective number of cases, from the spread between cases; pass@k and pass^k are per case)"
            : " Wilson's score interval over cases"}
          .
        </p>
      ) : null}
    </section>
  );
}

/** A candidate's case pass rate with its Wilson interval, and pass@K / pass^K at the bench's repeats K. */
function CasePassRateCell({ rates, repeats }: { rates: CandidateEvidence["rates"] | null; repeats: number }) {
  if (!rates) return <td className="px-3 py-2">{dash}</td>;
  const r = rates.trialPassRate;
  const k = Math.min(repeats, 10);
  const atK = passAtText(rates, repeats);
  return (
    <td className="px-3 py-2 tabular-nums" data-testid="case-pass-rate">
      {formatRateInterval(r)}
      {r.scored ? (
        <span className="ml-1 text-xs text-slate-500">
          ({r.passed}/{r.scored} trials)
        </span>
      ) : null}
      {atK ? (
        <span
          className="block text-xs text-slate-500"
          title={`pass@${k}: a case passes in at least one of ${k} trials; pass^${k}: in all ${k}. A case with fewer scored trials (an errored trial) is left out of both.`}
        >
          {atK}
        </span>
      ) : null}
    </td>
  );
}

/** Pass rate of every check (criteria first), per candidate, with denominators. */
export function ChecksTable({ bench, stats }: { bench: BenchDetail; stats: CandidateStats[] }) {
  const keys = new Map<string, { label: string; kind: string; priority?: string }>();
  for (const s of stats) for (const [k, v] of Object.entries(s.byCheck)) if (!keys.has(k)) keys.set(k, v);
  const ordered = [...keys.entries()].sort(([a], [b]) => (a[0] === b[0] ? a.localeCompare(b, undefined, { numeric: true }) : a[0] === "c" ? -1 : 1));
  if (ordered.length === 0) return null;
  return (
    <section aria-label="Checks" className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <h2 className="border-b border-slate-200 px-4 py-2.5 text-sm font-semibold">Pass rate per criterion and evaluator</h2>
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
          <tr>
            <th className="px-3 py-2 font-medium">Check</th>
            {bench.candidates.map((c) => (
              <th key={c.id} className="px-3 py-2 font-medium">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ordered.map(([k, v]) => (
            <tr key={k} className="border-b border-slate-100 last:border-0">
              <td className="px-3 py-2">
                <span className="text-slate-800">{v.label}</span>{" "}
                <span className="text-xs text-slate-500">{v.kind === "judge" ? `criterion${v.priority ? `, ${v.priority}` : ""}` : v.kind}</span>
              </td>
              {bench.candidates.map((c) => {
                const b = stats.find((s) => s.candidateId === c.id)?.byCheck[k];
                return (
                  <td key={c.id} className="px-3 py-2 text-xs">
                    {b ? (
                      <>
                        <PassRate passed={b.passed} scored={b.passed + b.failed} />
                        {b.unscored || b.error ? (
                          <span className="block text-slate-500">
                            {b.unscored} unscored · {b.error} error
                          </span>
                        ) : null}
                      </>
                    ) : (
                      "—"
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * Errors of the bench by kind: trials that ended in error (model call, timeout, worker) and checks
 * whose verdict is `error` (a judge or sandbox that failed), each with its most common messages.
 * Errors are never failures; this says where they came from.
 */
export function ErrorsTable({ errors }: { errors: ErrorKindCount[] }) {
  if (errors.length === 0) return null;
  return (
    <section aria-label="Errors" className="rounded-lg border border-amber-300 bg-amber-50/60">
      <h2 className="border-b border-amber-200 px-4 py-2.5 text-sm font-semibold">Errors by kind</h2>
      <p className="px-4 pt-2 text-xs text-slate-600">
        Infrastructure failures, not model failures: those trials and checks count neither as passed nor as failed.
      </p>
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-slate-600">
          <tr>
            <th className="px-4 py-2 font-medium">Where</th>
            <th className="px-3 py-2 font-medium">Kind</th>
            <th className="px-3 py-2 font-medium">Count</th>
            <th className="px-3 py-2 font-medium">Most common messages</th>
          </tr>
        </thead>
        <tbody>
          {errors.map((e) => (
            <tr key={`${e.source}:${e.kind}`} className="border-t border-amber-200 align-top" data-testid="error-kind">
              <td className="px-4 py-2 text-xs">{e.source === "trial" ? "trial" : "check"}</td>
              <td className="px-3 py-2 font-mono text-xs">{e.kind}</td>
              <td className="px-3 py-2 tabular-nums">
                {e.count} {e.source === "trial" ? "trial" : "check"}
                {e.count > 1 ? "s" : ""}
              </td>
              <td className="px-3 py-2 text-xs text-slate-700">
                <ul className="flex flex-col gap-0.5">
                  {e.examples.map((x, i) => (
                    <li key={i} className="break-words">
                      {x.count} × {x.message.length > 300 ? `${x.message.slice(0, 300)}…` : x.message}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
