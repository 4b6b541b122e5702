import type { GenerationRunRow } from "@/db/queries/proposals";
import { LocalTime } from "@/components/ui/local-time";

const pct = (x: number | null) => (x === null ? "n/a" : x.toFixed(2));

/** The last batch: model, what was dropped and why, diversity, tokens and time. */
export function RunSummary({ run }: { run: GenerationRunRow }) {
  const dup = run.dropped.filter((d) => d.reason === "duplicate").length;
  return (
    <section aria-labelledby="last-run" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h2 id="last-run" className="font-semibold">
        Last batch
      </h2>
      <p className="mt-1 text-slate-700">
        <LocalTime ms={run.createdAt} /> · {run.model} · asked for {run.requestedCriteria} criteria and {run.requestedScenarios} scenarios · {run.usage.calls}{" "}
        calls, {run.usage.inputTokens} + {run.usage.outputTokens} tokens, {(run.durationMs / 1000).toFixed(1)} s
      </p>
      <p className="mt-1 text-slate-700" data-testid="run-quality">
        Dropped {run.dropped.length} ({dup} near-duplicate{dup === 1 ? "" : "s"}, {run.dropped.length - dup} invalid) · diversity: criteria{" "}
        {pct(run.diversity.criteria)}, scenarios {pct(run.diversity.scenarios)}
      </p>
      {run.dropped.length ? (
        <details className="mt-2">
          <summary className="cursor-pointer text-slate-600">What was dropped</summary>
          <ul className="mt-1 list-disc pl-5 text-slate-700">
            {run.dropped.map((d, i) => (
              <li key={i}>
                {d.reason === "duplicate"
                  ? `Near-duplicate ${d.kind}: “${d.text}” repeats “${d.duplicateOf}” (${d.of === "existing" ? "already in the library" : "earlier in this batch"}, similarity ${d.similarity})`
                  : `Invalid, ${d.step} item ${d.item}: ${d.problem}`}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
