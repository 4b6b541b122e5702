import type { ImportProblem } from "@/lib/import/types";
import { countProblems } from "@/lib/datasets/labels";
import { ProblemLine } from "./problem-line";

/** A saved version's problems (errors first), the first `limit` shown and the rest in a disclosure. */
export function ProblemsList({ problems, limit = 15 }: { problems: ImportProblem[]; limit?: number }) {
  if (problems.length === 0) return <p className="px-4 py-3 text-sm text-slate-600">No problems were found in this version.</p>;
  const sorted = [...problems].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1));
  const { errors, warnings } = countProblems(problems);
  const item = (p: ImportProblem, i: number) => (
    <li key={i}>
      <ProblemLine problem={p} />
    </li>
  );
  return (
    <div className="flex flex-col gap-2 px-4 py-3">
      <p className="text-xs text-slate-500">
        {errors} error{errors === 1 ? "" : "s"}, {warnings} warning{warnings === 1 ? "" : "s"} when it was saved.
      </p>
      <ul className="flex flex-col gap-1.5">{sorted.slice(0, limit).map(item)}</ul>
      {sorted.length > limit ? (
        <details>
          <summary className="cursor-pointer text-xs font-medium text-indigo-700">Show {sorted.length - limit} more</summary>
          <ul className="mt-1.5 flex flex-col gap-1.5">{sorted.slice(limit).map((p, i) => item(p, i + limit))}</ul>
        </details>
      ) : null}
    </div>
  );
}
