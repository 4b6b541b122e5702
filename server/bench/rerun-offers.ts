/**
 * What the results page offers to rerun inside a finished bench (issue #16 §3): counts only, from
 * the evidence the page read. Apart from the planning in `reruns.ts` (which estimates calls with the
 * bench planner and the model runtime), so the page's server render does not load that code.
 */
import type { Db } from "@/db/client";
import type { BenchDetail } from "@/db/queries/benches";
import { benchCaseIdsByRevision, benchErroredTrials } from "@/db/queries/bench-reruns";
import { rerunRefusal, type SuspectedRegression } from "@/lib/bench/rerun/select";
import { DETERMINISTIC_REPLAY } from "@/lib/bench/stats/deterministic";
import { benchEvidence, type CandidateEvidence } from "./comparisons";

/**
 * The suspected regressions of a finished bench, each at its bench case, and how many of its
 * regressions are deterministic replays (confirmed already: a confirm round leaves them out).
 */
export async function suspectedOf(
  db: Db,
  bench: BenchDetail,
  known?: CandidateEvidence[] | null,
): Promise<{ suspected: (SuspectedRegression & { advisory?: true })[]; deterministic: number }> {
  if (bench.status !== "finished") return { suspected: [], deterministic: 0 };
  const evidence = known ?? (await benchEvidence(db, bench.id, bench)) ?? [];
  const cases = await benchCaseIdsByRevision(db, bench.id);
  const out: SuspectedRegression[] = [];
  let deterministic = 0;
  for (const e of evidence)
    for (const r of e.regressions) {
      if (r.regressionReason === DETERMINISTIC_REPLAY) deterministic++;
      const bc = cases.get(r.caseRevisionId);
      if (r.regressionStatus === "suspected" && bc)
        out.push({ candidateId: e.candidateId, benchCaseId: bc.benchCaseId, against: r.against, ...(r.advisory ? { advisory: true as const } : {}) });
    }
  return { suspected: out, deterministic };
}

/** A regression a confirm round resolved: it did not reproduce (`cleared`), or the reference failed a rerun itself (`flaky on baseline`). */
export interface ResolvedRegression {
  candidateLabel: string;
  caseKey: string;
  label: string;
  status: "cleared" | "flaky on baseline";
}

/** A rerun the results page offers: how many suspected regressions (confirm) or errored trials (errors) it targets. */
export interface RerunOffer {
  targets: number;
  /** Of `targets`, those that block (suspected regressions on advisory criteria do not: issue 18). */
  blockingTargets: number;
}

/**
 * What the results page offers on a finished bench: the confirm round (null when nothing is
 * suspected), the errored trials' rerun (null when none is left), each with its count only (the
 * plan comes with the dialog: {@link planRerunSummary}), and the regressions a confirm round
 * resolved, with their candidate's label; and how many regressions are deterministic replays
 * (confirmed without a rerun: the panel says why no Confirm is offered for them).
 * @param evidence the bench's evidence as the page read it (`benchEvidence`)
 */
export async function rerunOffers(
  db: Db,
  bench: BenchDetail,
  evidence: CandidateEvidence[] | null,
): Promise<{ confirm: RerunOffer | null; errors: RerunOffer | null; cleared: ResolvedRegression[]; deterministic: number }> {
  if (bench.status !== "finished") return { confirm: null, errors: null, cleared: [], deterministic: 0 };
  const label = (id: number) => bench.candidates.find((c) => c.id === id)?.label ?? `#${id}`;
  const cleared = (evidence ?? []).flatMap((e) =>
    e.regressions
      .filter((r) => r.regressionStatus === "cleared" || r.regressionStatus === "flaky on baseline")
      .map((r) => ({ candidateLabel: label(e.candidateId), caseKey: r.caseKey, label: r.label, status: r.regressionStatus as ResolvedRegression["status"] })),
  );
  // The same counts the plans refuse on (rerunRefusal), without planning.
  const { suspected: suspectedList, deterministic } = await suspectedOf(db, bench, evidence);
  const suspected = suspectedList.length;
  const { errored, rerunAlready } = await benchErroredTrials(db, bench.id);
  const left = errored.filter((t) => !rerunAlready.has(t.id)).length;
  return {
    confirm: rerunRefusal(bench, "confirm", suspected) ? null : { targets: suspected, blockingTargets: suspectedList.filter((r) => !r.advisory).length },
    errors: rerunRefusal(bench, "errors", left) ? null : { targets: left, blockingTargets: left },
    cleared,
    deterministic,
  };
}
