/**
 * The flip table (issue #16 §5): per candidate against the baseline, the cases that regressed,
 * were fixed, or that the baseline is flaky on — each a coloured chip that opens the candidate's
 * trial, so the changes can be seen at a glance and read on hover (both sides' passing trials).
 * Server-rendered; nothing without a baseline or a paired case.
 */
import Link from "next/link";
import type { BenchDetail } from "@/db/queries/benches";
import { FLIP_CASES_SHOWN, flipCount, type CandidateFlips, type FlipCase, type StoredFlips } from "@/lib/bench/evidence/flips";

/** Chips shown per kind before "… and N more" (as many as the summary stores). */
const MAX_CHIPS = FLIP_CASES_SHOWN;

// A chip's shape is set once on its row (`*:` styles the direct children), its colour per kind:
// a 2,000-case bench has up to 120 chips per candidate, and the page carries each class twice (HTML and flight data).
const CHIP_ROW = "flex flex-wrap gap-1 *:inline-flex *:h-6 *:items-center *:rounded *:px-1.5 *:font-mono *:text-[11px] *:ring-1 *:ring-inset";
const KINDS = [
  { key: "regressed", title: "Regressed", chip: "*:bg-red-100 *:text-red-900 *:ring-red-300", dot: "bg-red-500" },
  { key: "fixed", title: "Fixed", chip: "*:bg-emerald-100 *:text-emerald-900 *:ring-emerald-300", dot: "bg-emerald-500" },
  { key: "flaky", title: "Flaky on baseline", chip: "*:bg-slate-100 *:text-slate-700 *:ring-slate-300 *:italic", dot: "bg-slate-400" },
  // Regressed on the planned trials, but a confirm round cleared them (issue #16): they do not block.
  { key: "cleared", title: "Flaky — cleared", chip: "*:bg-amber-50 *:text-amber-900 *:ring-amber-300 *:italic", dot: "bg-amber-300" },
] as const;

const side = (s: { passed: number; scored: number }) => `${s.passed}/${s.scored}`;

/** Per candidate, three rows of chips: regressed, fixed, flaky on the baseline. */
export function FlipTable({
  bench,
  flips,
  trialHref,
  regressionsHref,
}: {
  bench: BenchDetail;
  /** All flips, or as stored with the summary (counts and the first cases of each kind). */
  flips: (CandidateFlips | StoredFlips)[];
  trialHref: (trialId: number) => string;
  regressionsHref: string;
}) {
  const shown = flips.filter((f) => f.paired > 0);
  if (shown.length === 0) return null;
  const label = (id: number) => bench.candidates.find((c) => c.id === id)?.label ?? `#${id}`;
  const baseline = label(bench.summary?.baselineCandidateId ?? -1);
  const chip = (f: FlipCase) => {
    const title = `${f.caseKey}: baseline ${side(f.baseline)} → candidate ${side(f.candidate)} trials passed`;
    const text = f.caseKey.length > 22 ? `${f.caseKey.slice(0, 21)}…` : f.caseKey;
    return f.trialId ? (
      <Link key={f.caseRevisionId} href={trialHref(f.trialId)} title={title} data-testid="flip-chip" prefetch={false}>
        {text}
      </Link>
    ) : (
      <span key={f.caseRevisionId} title={title}>
        {text}
      </span>
    );
  };
  return (
    <section aria-label="Flip table" className="rounded-lg border border-slate-200 bg-white p-4">
      <h3 className="text-sm font-semibold text-slate-800">Flips vs baseline {baseline}</h3>
      <p className="text-xs text-slate-500">
        Cases whose verdict changed (a case passes when all its scored checks pass; with repeats, its share of passing trials). Flaky: the baseline&apos;s own
        trials of the case disagree, so a change there says little. Click a case to open the candidate&apos;s trial.
      </p>
      <div className="mt-3 flex flex-col gap-4">
        {shown.map((f) => (
          <div key={f.candidateId} data-testid="flip-candidate">
            <div className="flex flex-wrap items-baseline gap-x-3 text-sm">
              <span className="font-medium">{label(f.candidateId)}</span>
              <span className="text-xs text-slate-600 tabular-nums">
                <b className="text-red-700">{flipCount(f, "regressed")}</b> regressed · <b className="text-emerald-700">{flipCount(f, "fixed")}</b> fixed ·{" "}
                <b className="text-slate-700">{flipCount(f, "flaky")}</b> flaky on baseline
                {flipCount(f, "cleared") ? (
                  <>
                    {" "}
                    · <b className="text-amber-800">{flipCount(f, "cleared")}</b> flaky — cleared
                  </>
                ) : null}{" "}
                · of {f.paired} paired cases
              </span>
            </div>
            {/* A proportion bar: the share of paired cases in each kind. */}
            <div className="mt-1 flex h-2 w-full max-w-xl overflow-hidden rounded bg-slate-100" aria-hidden="true">
              {KINDS.map((k) => (
                <div key={k.key} className={k.dot} style={{ width: `${(flipCount(f, k.key) / f.paired) * 100}%` }} />
              ))}
            </div>
            {KINDS.map((k) =>
              flipCount(f, k.key) ? (
                <div key={k.key} className="mt-1.5 flex items-start gap-1" data-testid={`flip-${k.key}`}>
                  <span className="w-32 shrink-0 pt-1 text-xs text-slate-600">{k.title}</span>
                  <div className={`${CHIP_ROW} ${k.chip}`}>{(f[k.key] ?? []).slice(0, MAX_CHIPS).map(chip)}</div>
                  {flipCount(f, k.key) > MAX_CHIPS ? (
                    <Link href={regressionsHref} className="shrink-0 pt-1 text-xs text-slate-600 underline">
                      … and {flipCount(f, k.key) - MAX_CHIPS} more
                    </Link>
                  ) : null}
                </div>
              ) : null,
            )}
          </div>
        ))}
      </div>
    </section>
  );
}
