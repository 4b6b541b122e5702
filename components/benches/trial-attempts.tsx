import Link from "next/link";

/**
 * The attempt history of a trial (issue #16 §3): the errored trial a rerun replaced, or the
 * reruns of this errored trial. The errored record is kept; the rerun links to it.
 */
export function TrialAttempts({
  rerunOf,
  rerunAs,
}: {
  rerunOf: { id: number; error: string | null; href: string } | null;
  rerunAs: { id: number; status: string; href: string }[];
}) {
  if (!rerunOf && rerunAs.length === 0) return null;
  return (
    <div className="rounded-md border border-slate-200 bg-slate-50 p-2 text-xs text-slate-700" data-testid="trial-attempts">
      {rerunOf ? (
        <p>
          Rerun of errored trial{" "}
          <Link href={rerunOf.href} scroll={false} className="underline">
            #{rerunOf.id}
          </Link>
          {rerunOf.error ? `: ${rerunOf.error.slice(0, 300)}` : ""}
        </p>
      ) : null}
      {rerunAs.length ? (
        <p>
          This errored trial was rerun as{" "}
          {rerunAs.map((r, i) => (
            <span key={r.id}>
              {i ? ", " : ""}
              <Link href={r.href} scroll={false} className="underline">
                #{r.id}
              </Link>{" "}
              ({r.status})
            </span>
          ))}
          ; it stays here as the attempt history and no longer counts in the results.
        </p>
      ) : null}
    </div>
  );
}
