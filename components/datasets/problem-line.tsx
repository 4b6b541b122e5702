import type { ImportProblem } from "@/lib/import/types";
import { problemPlace } from "@/lib/datasets/labels";
import { Badge } from "@/components/ui/badge";

/** One problem: severity badge, where it is (row, line, column) and what it is. */
export function ProblemLine({ problem, showPlace = true }: { problem: ImportProblem; showPlace?: boolean }) {
  const place = showPlace ? problemPlace(problem) : problem.column !== undefined ? `column "${problem.column}"` : "";
  return (
    <span className="flex items-start gap-2 text-sm">
      <Badge tone={problem.severity === "error" ? "red" : "amber"}>{problem.severity}</Badge>
      <span className="min-w-0">
        {place ? <span className="font-medium text-slate-700">{place}: </span> : null}
        <span className="text-slate-700">{problem.message}</span>
      </span>
    </span>
  );
}
