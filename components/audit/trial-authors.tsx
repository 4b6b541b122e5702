/** The trial view's who-line (issue 19): the case revision the trial ran and who saved it, and who launched the bench. */
export function TrialAuthors({ caseRevision, caseAuthor, launchedBy }: { caseRevision: number | null; caseAuthor: string | null; launchedBy: string | null }) {
  if (!caseAuthor && !launchedBy) return null;
  return (
    <p className="mt-0.5 text-xs text-slate-500" data-testid="trial-authors">
      {caseAuthor ? (
        <span>
          case revision {caseRevision ?? "?"} by {caseAuthor}
        </span>
      ) : null}
      {caseAuthor && launchedBy ? " · " : null}
      {launchedBy ? <span>bench launched by {launchedBy}</span> : null}
    </p>
  );
}
