import Link from "next/link";
import type { BenchCandidate } from "@/db/queries/benches";
import type { MatrixFilter, MatrixRow, MatrixSort } from "@/db/queries/bench-matrix";
import { isResolved, regressionMark, type StatusedRegression } from "@/lib/bench/evidence/resolved";
import { BADGE_TONES, type BadgeTone } from "@/components/ui/badge";
import { Pager } from "@/components/library/pager";
import { rerunningText } from "@/lib/bench/rerun/cell";

const TONE: Record<string, BadgeTone> = { passed: "green", failed: "red", mixed: "amber", unscored: "slate", error: "amber", skipped: "slate", pending: "sky" };

// The matrix repeats the same shapes on every row (a page of 50 cases has ~200 pills), and the page carries each class twice
// (HTML and RSC payload): the shapes are set once on the table through arbitrary variants, each pill names only its tone.
const TABLE =
  "w-full text-left text-sm [&_td]:px-3 [&_td]:py-1.5 [&>tbody>tr]:border-b [&>tbody>tr]:border-slate-100 [&>tbody>tr:last-child]:border-0 " +
  "[&_td_a]:inline-flex [&_td_a]:items-center [&_td_a]:gap-1 [&_td_a]:hover:opacity-80 [&_td>span]:inline-flex [&_td>span]:items-center [&_td>span]:gap-1 " +
  "[&_.pill]:inline-flex [&_.pill]:items-center [&_.pill]:rounded-full [&_.pill]:px-2 [&_.pill]:py-0.5 [&_.pill]:text-xs [&_.pill]:font-medium [&_.pill]:whitespace-nowrap [&_.pill]:ring-1 [&_.pill]:ring-inset";

/** A badge (components/ui/badge) whose shape comes from the table: only its tone's classes. */
const Pill = ({ tone = "slate", children }: { tone?: BadgeTone; children: React.ReactNode }) => <span className={`pill ${BADGE_TONES[tone]}`}>{children}</span>;

/** Cases × candidates with each cell's verdict (and passed/scored trials with repeats); filter, sort, page. */
export function MatrixView({
  rows,
  candidates,
  total,
  page,
  pageCount,
  pageSize,
  filter,
  sort,
  href,
  regressionKeys,
  regressedCells,
  selectedTrial,
}: {
  rows: MatrixRow[];
  candidates: BenchCandidate[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
  filter: MatrixFilter;
  sort: MatrixSort;
  href: (changes: Record<string, string | number | undefined>) => string;
  regressionKeys: Set<string>;
  /** `candidateId|caseRevisionId` → the regressions of that cell (which candidate regressed, and against what), with their status when known. */
  regressedCells: Map<string, StatusedRegression[]>;
  selectedTrial?: number;
}) {
  const filters: [MatrixFilter, string][] = [
    ["all", "All cases"],
    ["failures", "Failures only"],
    ["errors", "Errors only"],
    ["regressions", "Regressions only"],
    ["changed", "Changed verdicts"],
  ];
  const sorts: [MatrixSort, string][] = [
    ["position", "manifest order"],
    ["case", "case ID"],
    ["failures", "most failed checks"],
  ];
  return (
    <section aria-label="Results matrix" className="rounded-lg border border-slate-200 bg-white">
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-2.5">
        <h2 className="mr-2 text-sm font-semibold">Cases × candidates</h2>
        <div role="group" aria-label="Filter" className="flex flex-wrap gap-1">
          {filters.map(([k, label]) => (
            <Link
              key={k}
              scroll={false}
              href={href({ filter: k === "all" ? undefined : k, page: undefined })}
              aria-current={filter === k ? "true" : undefined}
              className={`rounded-full px-2.5 py-0.5 text-xs ring-1 ring-inset ${filter === k ? "bg-indigo-600 text-white ring-indigo-600" : "text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
            >
              {label}
            </Link>
          ))}
        </div>
        <span className="ml-auto flex items-center gap-1 text-xs text-slate-600">
          Sort:
          {sorts.map(([k, label]) => (
            <Link
              key={k}
              scroll={false}
              href={href({ sort: k === "position" ? undefined : k, page: undefined })}
              aria-current={sort === k ? "true" : undefined}
              className={`rounded px-1.5 py-0.5 ${sort === k ? "bg-slate-200 font-medium text-slate-900" : "hover:bg-slate-100"}`}
            >
              {label}
            </Link>
          ))}
        </span>
      </div>
      {rows.length === 0 ? (
        <p className="p-6 text-sm text-slate-600">No case matches this filter.</p>
      ) : (
        <div className="relative overflow-x-auto">
          {/* Every cell is a link, so Tab would walk all of them: a link for keyboard users to pass the matrix. */}
          <a
            href="#matrix-end"
            className="sr-only rounded bg-white px-2 py-1 text-sm text-indigo-700 focus:not-sr-only focus:absolute focus:z-10 focus:ring-2 focus:ring-indigo-500"
          >
            Skip the matrix
          </a>
          <table className={TABLE}>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
              <tr>
                <th className="px-3 py-2 font-medium">#</th>
                <th className="px-3 py-2 font-medium">Case</th>
                {candidates.map((c) => (
                  <th key={c.id} className="px-3 py-2 font-medium">
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.benchCaseId} data-testid="matrix-row">
                  <td className="text-xs text-slate-500 tabular-nums">{r.position}</td>
                  <td>
                    <code className="text-xs">{r.caseKey}</code>
                    {regressionKeys.has(String(r.caseRevisionId)) ? (
                      <span className="ml-1.5">
                        {/* Muted when a confirm round resolved every regression of the case (issue #16 §3). */}
                        {regressionMark(candidates.flatMap((c) => regressedCells.get(`${c.id}|${r.caseRevisionId}`) ?? [])) === "cleared" ? (
                          <Pill>regression cleared</Pill>
                        ) : (
                          <Pill tone="red">regression</Pill>
                        )}
                      </span>
                    ) : null}
                  </td>
                  {candidates.map((c) => {
                    const cell = r.cells[c.id];
                    if (!cell)
                      return (
                        <td key={c.id} className="text-xs text-slate-400">
                          —
                        </td>
                      );
                    const repeats = cell.trials > 1 && cell.scoredTrials ? ` ${cell.passedTrials}/${cell.scoredTrials}` : "";
                    // Errors beside a verdict (a judge that failed on some repeats): never hidden in "passed" or "failed".
                    const errors =
                      cell.errorTrials && cell.verdict !== "error"
                        ? `${cell.errorTrials} error${cell.errorTrials > 1 ? "s" : ""}`
                        : cell.verdict === "error" && cell.trials > 1
                          ? ` ${cell.errorTrials}/${cell.trials}`
                          : "";
                    // Trials the spend cap kept from starting say so (issue #16 §4).
                    // A rerun inside the bench (Confirm, Rerun errored trials) running this cell: how many of its trials are left, beside
                    // the finished trials' result, which stands until the rerun ends (not "pending 3/3"; issue #16).
                    const rerunning = cell.rerunning ? rerunningText(cell.rerunning) : null;
                    const onlyRerunning = rerunning !== null && cell.verdict === "pending";
                    const text =
                      cell.verdict === "error"
                        ? `error${errors}`
                        : cell.verdict === "skipped" && cell.budgetSkipped
                          ? "skipped: budget"
                          : `${cell.verdict}${repeats}`;
                    const rerunPill = rerunning ? (
                      <span
                        className={`pill ${BADGE_TONES.sky}`}
                        title={`A rerun inside this bench is running ${cell.rerunning!.trials} trial${cell.rerunning!.trials > 1 ? "s" : ""} of this case${onlyRerunning ? "" : ": the result shown is that of its finished trials"}; it is computed again when the rerun ends.`}
                      >
                        {rerunning}
                      </span>
                    ) : null;
                    const extra = cell.verdict !== "error" && errors ? <Pill tone="amber">{errors}</Pill> : null;
                    const regressed = regressedCells.get(`${c.id}|${r.caseRevisionId}`) ?? [];
                    // A regression a confirm round cleared no longer blocks: muted, "flaky — cleared" (issue #16 §3).
                    const marked = regressionMark(regressed);
                    const shown = marked === "cleared" ? regressed : regressed.filter((g) => !isResolved(g));
                    // A recorded answer against a recorded reference on a code check is confirmed as a deterministic replay (issue #16): said so.
                    const replays = marked === "regressed" ? shown.filter((g) => g.regressionReason === "deterministic replay").length : 0;
                    const regressedTitle = shown
                      .map(
                        (g) =>
                          `${g.label} passed ${g.against === "baseline" ? "for the baseline" : "in the last bench"} and ${marked === "cleared" ? "failed, but a rerun did not reproduce it" : "fails now"}${g.regressionReason === "deterministic replay" && marked === "regressed" ? " (confirmed: deterministic replay — recorded answers replay the same, so a rerun cannot change it)" : ""}`,
                      )
                      .join("\n");
                    const markText = marked === "cleared" ? "flaky — cleared" : "regressed";
                    const mark = marked ? (
                      <span title={regressedTitle}>
                        {marked === "cleared" ? <Pill>{markText}</Pill> : <Pill tone="red">{markText}</Pill>}
                        {replays ? <Pill>deterministic replay</Pill> : null}
                      </span>
                    ) : null;
                    const replayNote =
                      replays === 0 ? "" : replays === shown.length ? ", deterministic replay" : `, ${replays} deterministic replay${replays > 1 ? "s" : ""}`;
                    // An errored trial a rerun replaced is out of the counts (issue #16 §3): the cell says it was there.
                    const rerunText = cell.errorsRerun ? `${cell.errorsRerun} errored trial${cell.errorsRerun > 1 ? "s" : ""} rerun` : "";
                    const label = `Open trial of ${r.caseKey} by ${c.label}: ${onlyRerunning ? rerunning : `${cell.verdict}${repeats ? `, ${cell.passedTrials} of ${cell.scoredTrials} trials passed` : ""}${extra ? `, ${errors}` : ""}${rerunText ? `, ${rerunText}` : ""}${rerunning ? `, ${rerunning}` : ""}`}${marked ? `, ${markText} (${shown.length} check${shown.length > 1 ? "s" : ""}${replayNote})` : ""}`;
                    const verdictPill = onlyRerunning ? null : <Pill tone={TONE[cell.verdict]}>{text}</Pill>;
                    const rerunMark = rerunText ? (
                      <span title={`${rerunText}: the rerun stands in for ${cell.errorsRerun! > 1 ? "them" : "it"}; open the trial for the attempt history`}>
                        <Pill>error rerun</Pill>
                      </span>
                    ) : null;
                    return (
                      <td key={c.id} className={cell.firstTrialId === selectedTrial ? "bg-indigo-50" : undefined} data-testid="matrix-cell">
                        {cell.firstTrialId ? (
                          <Link scroll={false} href={href({ trial: cell.firstTrialId })} aria-label={label} data-cell={`${c.id}|${r.benchCaseId}`}>
                            {verdictPill}
                            {rerunPill}
                            {extra}
                            {rerunMark}
                            {mark}
                          </Link>
                        ) : (
                          <span>
                            {verdictPill}
                            {rerunPill}
                            {extra}
                            {mark}
                          </span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
          <span id="matrix-end" tabIndex={-1} />
        </div>
      )}
      <Pager page={page} pageCount={pageCount} total={total} pageSize={pageSize} hrefFor={(n) => href({ page: n })} keepScroll />
    </section>
  );
}
