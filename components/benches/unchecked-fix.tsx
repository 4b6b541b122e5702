"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { savePromptDefaultChecksAction } from "@/app/systems/[systemId]/library/actions";
import { Button } from "@/components/ui/button";

/**
 * The Plan's one-click fix for included cases with no check and no criterion (issue 15): make the
 * exact, case-sensitive comparison with the expected result the prompt's default check (every case
 * without a check of its own inherits it), then plan again. Other checks: the prompt's default
 * checks editor, or the Cases tab's bulk action.
 */
export function UncheckedFix({
  unchecked,
  systemId,
  promptId,
  promptName,
  onFixed,
}: {
  unchecked: { count: number; caseKeys: string[]; criteriaUnjudged?: boolean };
  systemId: string;
  promptId: number;
  promptName: string;
  onFixed: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const fix = () =>
    startTransition(async () => {
      setError(null);
      const r = await savePromptDefaultChecksAction({ systemId, promptId, checks: [{ kind: "exact" }] });
      if (r.ok) onFixed();
      else setError(r.error.message);
    });
  const more = unchecked.count > unchecked.caseKeys.length ? ", …" : "";
  return (
    <div
      role="alert"
      aria-label="Cases without a check"
      className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <p>
        {unchecked.count === 1 ? "1 included case has" : `${unchecked.count.toLocaleString("en-US")} included cases have`} no check and{" "}
        {unchecked.criteriaUnjudged ? <>no judge model is chosen for {promptName}&apos;s criteria</> : <>{promptName} has no criterion</>} (
        {unchecked.caseKeys.join(", ")}
        {more}): nothing would be scored{unchecked.criteriaUnjudged ? " (or choose a judge model for criteria)" : ""}.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button size="sm" variant="primary" onClick={fix} disabled={pending}>
          {pending ? "Adding…" : "Compare with the expected result (exact) for every case"}
        </Button>
        <Link
          href={`/systems/${systemId}/library/criteria?prompt=${encodeURIComponent(promptName)}#default-checks-title`}
          className="text-xs font-medium text-indigo-700 hover:underline"
        >
          Choose other default checks
        </Link>
      </div>
      {error ? <p className="text-xs text-red-800">{error}</p> : null}
    </div>
  );
}
