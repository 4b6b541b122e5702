import type { RubricCriterion } from "@/lib/bench/score";
import { Badge } from "@/components/ui/badge";

/** The calibration state a criterion was pinned with, as a badge (nothing for benches launched before calibration). */
export function CalibrationBadge({ calibration }: { calibration: RubricCriterion["calibration"] }) {
  if (!calibration) return null;
  return calibration.state === "calibrated" ? (
    <Badge tone="green" title={calibration.reason}>
      gates
    </Badge>
  ) : (
    <Badge tone="amber" title={calibration.reason}>
      advisory
    </Badge>
  );
}

/**
 * On the results page: which criteria were advisory at launch (their judge not calibrated against
 * human verdicts) and why — their regressions are shown but do not block the recommendation.
 */
export function AdvisoryNote({ rubric }: { rubric: RubricCriterion[] }) {
  const advisory = rubric.filter((c) => c.calibration?.state === "advisory");
  if (advisory.length === 0) return null;
  return (
    <section aria-label="Advisory criteria" role="note" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-900">
      <p className="font-medium">
        {advisory.length === 1 ? "1 criterion is" : `${advisory.length} criteria are`} advisory: shown, but {advisory.length === 1 ? "it does" : "they do"} not
        block a recommendation.
      </p>
      <ul className="mt-1 list-disc pl-5 text-xs">
        {advisory.map((c) => (
          <li key={c.criterionId} data-testid="advisory-criterion">
            {c.rule} — {c.calibration!.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}
