import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { getBench } from "@/db/queries/benches";
import { getTrial } from "@/db/queries/bench-matrix";
import { getCase } from "@/db/queries/cases";
import { getCalibrationPolicy, trialHumanVerdicts } from "@/db/queries/human-verdicts";
import { reviewQueueRows } from "@/db/queries/review-queue";
import type { CheckRecord } from "@/lib/bench/types";
import { REVIEW_FILTERS, reviewQueue, type ReviewFilter } from "@/lib/review/sample";
import { judgeModelName, promptCalibrations } from "@/server/review/calibration";
import { ReviewTrial } from "@/components/review/review-trial";
import { CriterionVerdicts, type ReviewCriterion } from "@/components/review/criterion-verdicts";
import { CalibrationTable } from "@/components/review/calibration-table";
import { PolicyForm } from "@/components/review/policy-form";
import { CorrectExpected } from "@/components/review/correct-expected";
import { IfRole } from "@/components/auth/role-context";
import { Badge } from "@/components/ui/badge";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Review" };

type Raw = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const FILTER_LABEL: Record<ReviewFilter, string> = {
  all: "All",
  failures: "Failures",
  regressions: "Regressions",
  disagreements: "Disagreements with the judge",
  unreviewed: "Not yet reviewed",
  sample: "Calibration sample",
};
const whole = (v: string | undefined, d: number, max: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : d;
};

/**
 * Review mode (issue 18): walks a bench's trials one by one (filters, or a seeded calibration
 * sample), shows what the trial did, and takes a human verdict per criterion. URL: `filter`,
 * `trial` (the one on screen), `seed` and `size` (sample), `blind` (1/0; default on for the sample).
 */
export default async function ReviewPage({ params, searchParams }: { params: Promise<{ systemId: string; benchId: string }>; searchParams: Promise<Raw> }) {
  const { systemId, benchId } = await params;
  const sp = await searchParams;
  const id = Number(benchId);
  const db = getDb();
  const bench = Number.isInteger(id) && id > 0 ? await getBench(db, id) : null;
  if (!bench || bench.systemId !== systemId) notFound();
  const filter = (REVIEW_FILTERS as readonly string[]).includes(one(sp.filter) ?? "") ? (one(sp.filter) as ReviewFilter) : "unreviewed";
  const seed = whole(one(sp.seed), 1, 2 ** 31);
  const size = whole(one(sp.size), 20, 1000);
  const blind = one(sp.blind) === "1" || (one(sp.blind) !== "0" && filter === "sample");
  const asked = Number(one(sp.trial)) || undefined;

  const regressed = new Set(Object.entries(bench.summary?.regressions ?? {}).flatMap(([cand, list]) => list.map((r) => `${cand}|${r.caseRevisionId}`)));
  const rows = (await reviewQueueRows(db, id)).filter((r) => r.judged > 0);
  const reviewable = rows.map((r) => ({ ...r, regressed: regressed.has(`${r.candidateId}|${r.caseRevisionId}`) }));
  const queue = reviewQueue(reviewable, filter, { seed, size, keep: asked });
  /** The first trial a filter walks: its link names it, so following it needs no redirect. */
  const firstOf = (f: ReviewFilter) => reviewQueue(reviewable, f, { seed, size })[0];
  const index = asked !== undefined && queue.includes(asked) ? queue.indexOf(asked) : 0;
  const trialId = queue[index];

  const base = `/systems/${systemId}/benches/${id}/review`;
  const href = (changes: Record<string, string | number | undefined>) => {
    const cur: Record<string, string | number | undefined> = {
      filter,
      seed: filter === "sample" ? seed : undefined,
      size: filter === "sample" ? size : undefined,
      blind: one(sp.blind),
      trial: trialId,
      ...changes,
    };
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(cur)) if (v !== undefined && v !== "") p.set(k, String(v));
    return `${base}?${p}`;
  };
  // The URL names the trial on screen, so that a verdict taking it out of the filter (Not yet
  // reviewed) keeps it in place on the refresh: without it the next trial slid under the reviewer,
  // and j then skipped one.
  if (trialId !== undefined && asked !== trialId) redirect(href({ trial: trialId }));

  const trial = trialId !== undefined ? await getTrial(db, trialId) : null;
  let criteria: ReviewCriterion[] = [];
  let current: React.ComponentProps<typeof CorrectExpected>["current"] = null;
  if (trial) {
    const human = await trialHumanVerdicts(db, trialId);
    const checks = trial.checks ? (JSON.parse(String(trial.checks)) as CheckRecord[]) : [];
    criteria = checks
      .filter((c) => c.kind === "judge")
      .map((c) => {
        const h = human.filter((x) => x.checkKey === c.key).at(-1);
        return {
          key: c.key,
          label: c.label,
          ...(c.priority ? { priority: c.priority } : {}),
          judgeVerdict: c.verdict,
          judgeReason: c.message,
          human: h ? { verdict: h.verdict, note: h.note, reviewer: h.reviewer } : null,
        };
      });
    const c = await getCase(db, Number(trial.caseId));
    if (c && c.removedAt == null)
      current = {
        revisionNumber: c.revisionNumber,
        expected: c.content.expected,
        editable: c.source !== "generated",
        ...(c.source === "generated" ? { why: "A generated case is read-only: customize it in the library to correct it." } : {}),
      };
  }
  const calibrations = await promptCalibrations(db, bench.promptId);
  const policy = await getCalibrationPolicy(db, bench.promptId);
  const judgeModel = judgeModelName(bench.judge);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start gap-3">
        <div>
          <nav className="text-xs text-slate-500">
            <Link href={`/systems/${systemId}/benches`} className="hover:text-slate-800">
              Benches
            </Link>{" "}
            /{" "}
            <Link href={`/systems/${systemId}/benches/${id}`} className="hover:text-slate-800">
              #{id}
            </Link>{" "}
            / Review
          </nav>
          <h2 className="text-lg font-semibold">
            Review · #{bench.id} {bench.title}
          </h2>
          <p className="text-xs text-slate-600">
            prompt <b>{bench.promptName}</b> · judge {bench.judge ? `${bench.judge.name} (${judgeModel})` : "none"} · reviewer: local
          </p>
        </div>
        <div className="ml-auto flex gap-2 text-sm">
          <a
            href={`/api/benches/${id}/reviewed?format=csv`}
            className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 hover:bg-slate-50"
          >
            Export reviewed (CSV)
          </a>
          <a
            href={`/api/benches/${id}/reviewed?format=jsonl`}
            className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 hover:bg-slate-50"
          >
            Export reviewed (JSONL)
          </a>
        </div>
      </div>
      <nav aria-label="Review filters" className="flex flex-wrap items-center gap-1.5 text-sm">
        {REVIEW_FILTERS.map((f) => (
          <Link
            key={f}
            href={href({ filter: f, trial: firstOf(f), blind: undefined, seed: f === "sample" ? seed : undefined, size: f === "sample" ? size : undefined })}
            aria-current={f === filter ? "page" : undefined}
            className={`rounded-md px-2.5 py-1 ${f === filter ? "bg-indigo-600 text-white" : "border border-slate-300 bg-white hover:bg-slate-50"}`}
          >
            {FILTER_LABEL[f]}
          </Link>
        ))}
        <Link href={href({ blind: blind ? "0" : "1" })} className="ml-2 text-xs text-indigo-700 underline">
          {blind ? "Show the judge's verdicts" : "Blind review (hide the judge's verdicts)"}
        </Link>
        {filter === "sample" ? (
          <form className="ml-2 flex items-center gap-1 text-xs" action={base}>
            <input type="hidden" name="filter" value="sample" />
            <label>
              seed <input name="seed" defaultValue={seed} className="w-20 rounded border border-slate-300 px-1" />
            </label>
            <label>
              size <input name="size" defaultValue={size} className="w-14 rounded border border-slate-300 px-1" />
            </label>
            <button className="rounded border border-slate-300 px-2">Draw</button>
          </form>
        ) : null}
      </nav>
      {trial && trialId !== undefined ? (
        <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(360px,40%)]">
          <section aria-label="Trial under review" className="rounded-lg border border-slate-200 bg-white p-4">
            <h3 className="mb-3 flex flex-wrap items-center gap-2 text-sm font-semibold">
              <span data-testid="review-position">
                {index + 1} of {queue.length}
              </span>
              · Trial #{trialId} · <code>{String(trial.caseKey)}</code> · {String(trial.candidateLabel)} · repeat {String(trial.repeat)}
              {regressed.has(`${trial.candidate_id}|${trial.caseRevisionId}`) ? <Badge tone="red">regressed</Badge> : null}
            </h3>
            <ReviewTrial trial={trial} />
          </section>
          <aside className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
            <div className="flex items-center gap-2 text-sm">
              {index > 0 ? (
                <Link href={href({ trial: queue[index - 1] })} className="text-indigo-700 hover:underline">
                  ← previous (k)
                </Link>
              ) : null}
              {index < queue.length - 1 ? (
                <Link href={href({ trial: queue[index + 1] })} className="ml-auto text-indigo-700 hover:underline">
                  next (j) →
                </Link>
              ) : null}
            </div>
            <CriterionVerdicts
              key={trialId}
              systemId={systemId}
              benchId={id}
              trialId={trialId}
              criteria={criteria}
              blind={blind}
              prevHref={index > 0 ? href({ trial: queue[index - 1] }) : null}
              nextHref={index < queue.length - 1 ? href({ trial: queue[index + 1] }) : null}
            />
            {/* Editors correct expected results and set the policy; a viewer reads (the actions check the role too). */}
            <IfRole role="editor">
              <CorrectExpected key={`x${trialId}`} systemId={systemId} benchId={id} trialId={trialId} caseKey={String(trial.caseKey)} current={current} />
            </IfRole>
          </aside>
        </div>
      ) : (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600" data-testid="review-empty">
          {rows.length === 0
            ? "No trial of this bench has a judged criterion to review (a bench needs criteria and a judge model)."
            : `No trial matches “${FILTER_LABEL[filter]}”.`}
        </p>
      )}
      {blind ? (
        // Agreement and the false-pass/fail counts move with each verdict and would tell the reviewer what the judge said.
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600" data-testid="calibration-hidden">
          Calibration figures are hidden during blind review: they change with each verdict and would show whether the judge agreed. They come back with the
          judge&apos;s verdicts.
        </p>
      ) : (
        <CalibrationTable calibrations={calibrations} policy={policy} judgeModel={judgeModel} promptName={bench.promptName} />
      )}
      <IfRole role="editor">
        <PolicyForm systemId={systemId} benchId={id} policy={policy} />
      </IfRole>
    </div>
  );
}
