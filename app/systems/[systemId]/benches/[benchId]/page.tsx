import { cancelTooLateNote } from "@/lib/bench/end-status";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { getBench, getBenchProgress, getManifest } from "@/db/queries/benches";
import { liveCandidateStats } from "@/db/queries/bench-results";
import { getTrial, matrixPage, matrixRows, referenceTrials, repeatTrials, selectMatrix, type MatrixFilter, type MatrixSort } from "@/db/queries/bench-matrix";
import type { StatusedRegression } from "@/lib/bench/evidence/resolved";
import { BenchProgressBar } from "@/components/benches/bench-progress";
import { CandidatesTable, ChecksTable, ErrorsTable, LIST_LIMIT, RecommendationCard } from "@/components/benches/results-summary";
import { benchErrorBreakdown } from "@/db/queries/bench-errors";
import { benchEvidence } from "@/server/bench/comparisons";
import { MatrixView } from "@/components/benches/matrix-view";
import { EvidenceCharts } from "@/components/benches/evidence-charts";
import { ComparisonsTable } from "@/components/benches/comparisons-table";
import { comparisonRows } from "@/lib/bench/evidence/comparison-rows";
import { TrialView } from "@/components/benches/trial-view";
import { RerunPanel } from "@/components/benches/rerun-panel";
import { trialRerunLinks } from "@/db/queries/bench-reruns";
import { rerunOffers } from "@/server/bench/rerun-offers";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { AuthorNote } from "@/components/audit/author-note";
import { AdvisoryNote, CalibrationBadge } from "@/components/review/advisory-note";
import { HumanVerdictsNote } from "@/components/review/human-verdicts-note";
import { trialHumanVerdicts } from "@/db/queries/human-verdicts";
import { LiveBudgetLine } from "@/components/benches/live-budget-line";
import { TradeoffsTable } from "@/components/benches/tradeoffs-table";
import { FlipTable } from "@/components/benches/flip-table";
import { flipTable } from "@/lib/bench/evidence/flips";
import { benchSpend } from "@/db/queries/bench-budget";
import { spendFigures } from "@/server/bench/progress-poll";
import { progressLease } from "@/server/bench/progress-lease";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Bench" };

const MATRIX_PAGE = 50;
type Raw = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function BenchPage({ params, searchParams }: { params: Promise<{ systemId: string; benchId: string }>; searchParams: Promise<Raw> }) {
  const { systemId, benchId } = await params;
  const sp = await searchParams;
  const id = Number(benchId);
  const db = getDb();
  const bench = Number.isInteger(id) && id > 0 ? await getBench(db, id) : null;
  if (!bench || bench.systemId !== systemId) notFound();
  const progress = (await getBenchProgress(db, id, progressLease()))!;
  const view = one(sp.view) === "manifest" ? "manifest" : one(sp.view) === "rubric" ? "rubric" : "results";
  const filter = (["failures", "errors", "regressions", "changed"].includes(one(sp.filter) ?? "") ? one(sp.filter) : "all") as MatrixFilter;
  const sort = (["case", "failures"].includes(one(sp.sort) ?? "") ? one(sp.sort) : "position") as MatrixSort;
  const trialId = Number(one(sp.trial)) || undefined;
  const base = `/systems/${systemId}/benches/${id}`;
  const href = (changes: Record<string, string | number | undefined>) => {
    const p = new URLSearchParams();
    const cur: Record<string, string | number | undefined> = {
      view: view === "results" ? undefined : view,
      filter: filter === "all" ? undefined : filter,
      sort: sort === "position" ? undefined : sort,
      page: one(sp.page),
      trial: trialId,
      ...changes,
    };
    for (const [k, v] of Object.entries(cur)) if (v !== undefined && v !== "") p.set(k, String(v));
    const s = p.toString();
    return s ? `${base}?${s}` : base;
  };

  const ended = bench.status !== "queued" && bench.status !== "running";
  // Finished benches read their stored summary; a running one is aggregated live.
  const stats =
    bench.summary && ended
      ? bench.summary.candidates.map((c) => c.stats)
      : await liveCandidateStats(
          db,
          id,
          bench.candidates.map((c) => c.id),
        );
  const regressionKeys = new Set(Object.values(bench.summary?.regressions ?? {}).flatMap((l) => l.map((r) => String(r.caseRevisionId))));
  // Per matrix cell, its regressions (with their status once the evidence is read: a cleared one shows muted).
  const regressedCells = new Map<string, StatusedRegression[]>();
  const markRegressions = (byCandidate: Iterable<[string | number, readonly StatusedRegression[]]>) => {
    regressedCells.clear();
    for (const [cand, list] of byCandidate)
      for (const r of list) {
        const k = `${cand}|${r.caseRevisionId}`;
        const l = regressedCells.get(k);
        if (l) l.push(r);
        else regressedCells.set(k, [r]);
      }
  };
  markRegressions(Object.entries(bench.summary?.regressions ?? {}));

  let main: React.ReactNode;
  // Criteria and cases generated at launch (issue 17): which run made them, shown with the manifest and the rubric.
  const g = bench.settings.generated;
  const generatedNote = g
    ? ` Generated at launch by ${g.model} (run ${g.runId.slice(0, 8)}): ${g.criterionIds.length} criteri${g.criterionIds.length === 1 ? "on" : "a"} and ${g.caseIds.length} case${g.caseIds.length === 1 ? "" : "s"}.`
    : "";
  if (view === "manifest") {
    const manifest = await getManifest(db, id);
    main = (
      <section aria-label="Manifest" className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <p className="border-b border-slate-200 px-4 py-2.5 text-sm text-slate-600">
          Every supplied case as pinned at launch: {manifest.filter((m) => m.included).length} included, {manifest.filter((m) => !m.included).length} excluded.
          {generatedNote}
        </p>
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-xs text-slate-600">
            <tr>
              <th className="px-3 py-2 font-medium">#</th>
              <th className="px-3 py-2 font-medium">Case ID</th>
              <th className="px-3 py-2 font-medium">Source · group</th>
              <th className="px-3 py-2 font-medium">Included</th>
              <th className="px-3 py-2 font-medium">Reason / note</th>
            </tr>
          </thead>
          <tbody>
            {manifest.map((m) => (
              <tr key={m.id} className="border-t border-slate-100" data-testid="manifest-row">
                <td className="px-3 py-1 text-xs text-slate-500">{m.position}</td>
                <td className="px-3 py-1 font-mono text-xs">{m.caseKey}</td>
                <td className="px-3 py-1 text-xs">
                  {m.source} · {m.group}
                </td>
                <td className="px-3 py-1">{m.included ? <Badge tone="green">included</Badge> : <Badge>excluded</Badge>}</td>
                <td className="px-3 py-1 text-xs text-slate-700">{m.reason ?? m.note ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    );
  } else if (view === "rubric") {
    main = (
      <section aria-label="Pinned rubric" className="rounded-lg border border-slate-200 bg-white p-4">
        <p className="text-sm text-slate-600">
          The rubric as it was when the bench launched ({bench.rubric.length} criteria, hash <code className="text-xs">{bench.rubricHash.slice(0, 16)}</code>).
          Judge: {bench.judge ? `${bench.judge.name} (${bench.judge.provider} ${bench.judge.modelId})` : "none — criteria unscored"}.{generatedNote}
        </p>
        <ul className="mt-3 flex flex-col gap-2">
          {bench.rubric.map((c) => (
            <li key={c.revisionId} className="rounded-md border border-slate-200 p-3 text-sm">
              <div className="font-medium">
                {c.rule} <Badge tone={c.priority === "primary" ? "indigo" : "slate"}>{c.priority}</Badge>{" "}
                {c.origin === "generated" ? <Badge>generated</Badge> : null} <CalibrationBadge calibration={c.calibration} />
              </div>
              {c.calibration ? <p className="text-xs text-slate-500">At launch: {c.calibration.reason}.</p> : null}
              <p className="mt-1 text-slate-700">Passes: {c.passes}</p>
              <p className="text-slate-700">Fails: {c.fails}</p>
              <p className="mt-1 text-xs text-slate-400">
                criterion #{c.criterionId}, revision #{c.revisionId}
              </p>
            </li>
          ))}
          {bench.rubric.length === 0 ? <li className="text-sm text-slate-500">No criteria were active.</li> : null}
        </ul>
      </section>
    );
  } else {
    // The flip table as stored at finalize; every matrix row is read only to filter or sort them, or for a bench stored before.
    const showFlips = ended && bench.summary?.baselineCandidateId != null;
    const stored = bench.summary?.flips;
    const all = filter === "all" && sort === "position" && (!showFlips || stored) ? null : await matrixRows(db, id);
    const pageNo = Number(one(sp.page)) || 1;
    const m = all
      ? selectMatrix(all, { filter, sort, page: pageNo, pageSize: MATRIX_PAGE, regressionCases: regressionKeys })
      : await matrixPage(db, id, pageNo, MATRIX_PAGE);
    const trial = trialId ? await getTrial(db, trialId) : null;
    const siblings = trial
      ? (await repeatTrials(db, id, Number(trial.candidate_id), Number(trial.bench_case_id))).map((s) => ({ ...s, href: href({ trial: s.id }) }))
      : [];
    // The paired statistics, as stored with the summary when the bench was finalized (computed here only for a bench stored before).
    const evidence = ended ? await benchEvidence(db, id, bench) : null;
    if (evidence) markRegressions(evidence.map((e) => [e.candidateId, e.regressions]));
    // Reruns inside the bench (issue #16 §3): how many suspected regressions and errored trials each would rerun (its plan comes with its dialog).
    const reruns = await rerunOffers(db, bench, evidence);
    const links = trial ? await trialRerunLinks(db, Number(trial.id)) : null;
    main = (
      <div className="flex flex-col gap-4">
        {bench.recommendation && ended ? (
          <RecommendationCard
            rec={bench.recommendation}
            bench={bench}
            evidence={evidence}
            listLimit={one(sp.list) === "all" ? null : LIST_LIMIT}
            showAllHref={href({ list: "all" })}
          />
        ) : null}
        <RerunPanel
          systemId={systemId}
          benchId={id}
          confirm={reruns.confirm}
          errors={reruns.errors}
          cleared={reruns.cleared}
          deterministic={reruns.deterministic}
        />
        <AdvisoryNote rubric={bench.rubric} />
        <EvidenceCharts bench={bench} evidence={evidence} />
        {evidence ? (
          <ComparisonsTable
            rows={comparisonRows(
              bench.candidates.map((c) => ({ label: c.label, comparisons: evidence.find((e) => e.candidateId === c.id)?.comparisons ?? [] })),
              bench.summary?.referenceBenchId ?? null,
            )}
          />
        ) : null}
        <TradeoffsTable bench={bench} evidence={evidence} rec={ended ? bench.recommendation : null} />
        {showFlips ? (
          <FlipTable
            bench={bench}
            flips={
              stored ??
              flipTable(
                all ?? (await matrixRows(db, id)),
                bench.summary!.baselineCandidateId!,
                bench.candidates.map((c) => c.id),
              )
            }
            trialHref={(t) => href({ trial: t })}
            regressionsHref={href({ filter: "changed", page: undefined })}
          />
        ) : null}
        <CandidatesTable bench={bench} stats={stats} evidence={evidence} />
        <ChecksTable bench={bench} stats={stats} />
        <ErrorsTable errors={await benchErrorBreakdown(db, id)} />
        <div className={`grid items-start gap-4 ${trial ? "xl:grid-cols-[minmax(0,1fr)_minmax(420px,40%)]" : ""}`}>
          <MatrixView
            rows={m.rows}
            candidates={bench.candidates}
            total={m.total}
            page={m.page}
            pageCount={m.pageCount}
            pageSize={MATRIX_PAGE}
            filter={filter}
            sort={sort}
            href={href}
            regressionKeys={regressionKeys}
            regressedCells={regressedCells}
            selectedTrial={trialId}
          />
          {trial && Number(trial.bench_id) === id ? (
            <div className="flex flex-col gap-2">
              <HumanVerdictsNote
                verdicts={await trialHumanVerdicts(db, Number(trial.id))}
                checks={trial.checks ? JSON.parse(String(trial.checks)) : []}
                reviewHref={`${base}/review?filter=all&trial=${trial.id}`}
              />
              <TrialView
                trial={trial}
                closeHref={href({ trial: undefined })}
                siblings={siblings}
                references={(await referenceTrials(db, bench, Number(trial.id))).map((r) => ({
                  ...r,
                  href: r.benchId === id ? href({ trial: r.trialId }) : `/systems/${systemId}/benches/${r.benchId}?trial=${r.trialId}`,
                }))}
                regressed={regressedCells.get(`${trial.candidate_id}|${trial.caseRevisionId}`) ?? []}
                lastBench={bench.recommendation?.lastBench ?? null}
                attempts={{
                  rerunOf: links?.rerunOf ? { ...links.rerunOf, href: href({ trial: links.rerunOf.id }) } : null,
                  rerunAs: (links?.rerunAs ?? []).map((r) => ({ ...r, href: href({ trial: r.id }) })),
                }}
              />
            </div>
          ) : null}
        </div>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0">
          <nav className="text-xs text-slate-500">
            <Link href={`/systems/${systemId}/benches`} className="hover:text-slate-800">
              Benches
            </Link>{" "}
            / #{bench.id}
          </nav>
          <h2 className="text-lg font-semibold">
            #{bench.id} {bench.title}
          </h2>
          <p className="text-xs text-slate-600">
            prompt <b>{bench.promptName}</b> · launched <LocalTime ms={bench.createdAt} />
            <AuthorNote email={bench.launchedByEmail} />
            {bench.cancelledByEmail ? (
              <>
                {" "}
                · {bench.status === "finished" ? "rerun cancelled" : "cancelled"} by {bench.cancelledByEmail}
              </>
            ) : null}
            {/* A cancel that reached the bench after its last result cancelled nothing (issue #16): said, not left to a toast. */}
            {bench.summary?.cancelTooLate ? (
              <>
                {" "}
                · <span data-testid="cancel-too-late">{cancelTooLateNote(bench.summary.cancelTooLate.byEmail)}</span>
              </>
            ) : null}{" "}
            · {bench.settings.repeats} trial
            {bench.settings.repeats > 1 ? "s" : ""} per case · concurrency {bench.settings.concurrency} · timeout {bench.settings.timeoutMs / 1000}s
            {bench.settings.budget ? ` · budget ${bench.settings.budget} cases` : ""}
            {bench.settings.includeRetained === false ? " · retained regression cases left out" : ""} · baseline{" "}
            {bench.baseline.kind === "candidate"
              ? bench.candidates.find((c) => c.position === (bench.baseline as { position: number }).position)?.label
              : "none"}
            {bench.summary ? (
              bench.summary.referenceBenchId ? (
                <>
                  {" "}
                  · compared with the last bench (
                  <Link href={`/systems/${systemId}/benches/${bench.summary.referenceBenchId}`} className="underline">
                    #{bench.summary.referenceBenchId}
                  </Link>
                  {bench.recommendation?.lastBench ? `, ${bench.recommendation.lastBench.candidateLabel}` : ""})
                </>
              ) : (
                " · no earlier bench to compare with"
              )
            ) : null}
          </p>
          {/* Follows the progress poll while the bench runs (issue #16). */}
          <LiveBudgetLine
            benchId={id}
            settings={bench.settings}
            spend={spendFigures(await benchSpend(db, id))}
            candidates={bench.candidates.map(({ id: cid, position, label }) => ({ id: cid, position, label }))}
          />
        </div>
        <div className="ml-auto flex gap-2 text-sm">
          <Link href={`${base}/review`} className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 hover:bg-slate-50">
            Review
          </Link>
          <a
            href={`/api/benches/${id}/export?format=csv`}
            className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 hover:bg-slate-50"
          >
            Export CSV
          </a>
          <a
            href={`/api/benches/${id}/export?format=json`}
            className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 hover:bg-slate-50"
          >
            Export JSON
          </a>
        </div>
      </div>
      {/* Keyed by the trial count: a rerun reopens the bench with more trials, and the bar starts following it again. */}
      <BenchProgressBar key={progress.total} systemId={systemId} initial={progress} />
      <nav role="tablist" aria-label="Bench views" className="inline-flex w-fit rounded-lg bg-slate-200/70 p-1">
        {(["results", "manifest", "rubric"] as const).map((v) => (
          <Link
            key={v}
            role="tab"
            aria-selected={view === v}
            href={v === "results" ? base : `${base}?view=${v}`}
            className={`rounded-md px-4 py-1.5 text-sm font-medium ${view === v ? "bg-white shadow-xs" : "text-slate-600 hover:text-slate-900"}`}
          >
            {v === "results" ? "Results" : v === "manifest" ? "Manifest" : "Rubric"}
          </Link>
        ))}
      </nav>
      {main}
    </div>
  );
}
