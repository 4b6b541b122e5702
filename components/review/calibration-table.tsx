import type { CriterionCalibration } from "@/server/review/calibration";
import type { RateInterval } from "@/lib/bench/stats/wilson";
import { calibrationState, type CalibrationPolicy } from "@/lib/review/advisory";
import { Badge } from "@/components/ui/badge";

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const rate = (r: RateInterval) => (r.rate === null ? "—" : `${pct(r.rate)} (${r.passed}/${r.scored}; 95% ${pct(r.ci95![0])}–${pct(r.ci95![1])})`);

/**
 * Per criterion and judge model, over the prompt's benches: reviewed trials, agreement, Cohen's κ
 * and the judge's false-pass and false-fail rates with 95 % intervals (Wilson; κ: Fleiss–Cohen–Everitt
 * 1969 standard error), and whether it would gate a bench launched now.
 * @param judgeModel the judge of the bench on screen (`provider:modelId`), marked in the table
 * @param promptName the prompt whose benches were measured
 */
export function CalibrationTable({
  calibrations,
  policy,
  judgeModel,
  promptName,
}: {
  calibrations: CriterionCalibration[];
  policy: CalibrationPolicy;
  judgeModel: string | null;
  promptName: string;
}) {
  return (
    <section aria-label="Calibration" className="rounded-lg border border-slate-200 bg-white">
      <p className="border-b border-slate-200 px-4 py-2.5 text-sm text-slate-600">
        Judge calibration across the benches of prompt <b>{promptName}</b>, per criterion and judge model. A criterion gates a recommendation once its judge has
        at least {policy.minReviewed} reviewed trials and κ ≥ {policy.kappaThreshold}; until then it is advisory. Intervals are 95%: Wilson for rates, κ ± 1.96
        SE (Fleiss, Cohen &amp; Everitt 1969).
      </p>
      {calibrations.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-500">No criterion has a reviewed trial yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs text-slate-600">
              <tr>
                <th className="px-3 py-2 font-medium">Criterion</th>
                <th className="px-3 py-2 font-medium">Judge model</th>
                <th className="px-3 py-2 font-medium">Reviewed</th>
                <th className="px-3 py-2 font-medium">Agreement</th>
                <th className="px-3 py-2 font-medium">Cohen&apos;s κ</th>
                <th className="px-3 py-2 font-medium">False pass</th>
                <th className="px-3 py-2 font-medium">False fail</th>
                <th className="px-3 py-2 font-medium">Gates?</th>
              </tr>
            </thead>
            <tbody>
              {calibrations.map((c) => {
                const s = calibrationState(c, policy, c.judgeModel);
                return (
                  <tr key={`${c.criterionId}|${c.judgeModel}`} className="border-t border-slate-100" data-testid="calibration-row">
                    <td className="px-3 py-1.5">
                      {c.label} <span className="text-xs text-slate-400">#{c.criterionId}</span>
                    </td>
                    <td className="px-3 py-1.5 font-mono text-xs">
                      {c.judgeModel}
                      {c.judgeModel === judgeModel ? " (this bench)" : ""}
                      <div className="font-sans text-slate-400">benches {c.benchIds.map((b) => `#${b}`).join(", ")}</div>
                    </td>
                    <td className="px-3 py-1.5" data-testid="calibration-reviewed">
                      {c.reviewed}
                    </td>
                    <td className="px-3 py-1.5" data-testid="calibration-agreement">
                      {rate(c.agreement)}
                    </td>
                    <td className="px-3 py-1.5">
                      {c.kappa ? `${c.kappa.value.toFixed(2)} (${c.kappa.ci95[0].toFixed(2)} to ${c.kappa.ci95[1].toFixed(2)})` : "undefined"}
                    </td>
                    <td className="px-3 py-1.5">{rate(c.falsePassRate)}</td>
                    <td className="px-3 py-1.5">{rate(c.falseFailRate)}</td>
                    <td className="px-3 py-1.5" title={s.reason}>
                      {s.state === "calibrated" ? <Badge tone="green">gates</Badge> : <Badge tone="amber">advisory</Badge>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
