import Link from "next/link";
import type { HumanVerdictRow } from "@/db/queries/human-verdicts";
import type { CheckRecord } from "@/lib/bench/types";
import { LocalTime } from "@/components/ui/local-time";

const WORD = { pass: "pass", fail: "fail", cant_tell: "can't tell" } as const;

/**
 * Beside a trial on the results page: the human verdicts given on its criteria, which take
 * precedence over the judge's recorded verdicts in its score (a "can't tell" leaves the judge's).
 */
export function HumanVerdictsNote({ verdicts, checks, reviewHref }: { verdicts: HumanVerdictRow[]; checks: CheckRecord[]; reviewHref: string }) {
  // Only criteria are reviewed: a trial without one has nothing to say here.
  if (verdicts.length === 0 && !checks.some((c) => c.kind === "judge")) return null;
  if (verdicts.length === 0)
    return (
      <p className="text-xs text-slate-500">
        No human verdict on this trial.{" "}
        <Link href={reviewHref} className="text-indigo-700 hover:underline">
          Review it
        </Link>
      </p>
    );
  return (
    <section aria-label="Human verdicts" className="rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-950">
      <ul className="flex flex-col gap-1">
        {verdicts.map((v) => {
          const c = checks.find((x) => x.key === v.checkKey);
          return (
            <li key={v.id} data-testid="human-verdict">
              <b>human verdict: {WORD[v.verdict]}</b> on {c?.label ?? v.checkKey}
              {c ? ` (judge: ${c.verdict}${v.verdict === "cant_tell" ? ", which stands" : ""})` : ""} · {v.reviewer} · <LocalTime ms={v.createdAt} />
              {v.note ? <span className="block text-xs text-indigo-900">“{v.note}”</span> : null}
            </li>
          );
        })}
      </ul>
      <Link href={reviewHref} className="text-xs text-indigo-700 hover:underline">
        Review this trial
      </Link>
    </section>
  );
}
