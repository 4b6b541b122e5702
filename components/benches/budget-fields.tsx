"use client";

/**
 * The New bench form's spend cap and gate limits (issue #16 §4): three optional numbers, validated
 * on the server with the rest of the request.
 */
import { Field, inputClass } from "@/components/ui/field";

/** The three values as typed (empty = none). */
export interface BudgetValues {
  spendCapUsd: string;
  maxLatencyIncreasePct: string;
  maxCostIncreasePct: string;
}

/** Spend cap (USD) and the p95 latency / cost per case limits (percent over the baseline). */
export function BudgetFields({ values, onChange, errors }: { values: BudgetValues; onChange: (next: BudgetValues) => void; errors: Record<string, string> }) {
  const set = (k: keyof BudgetValues) => (e: React.ChangeEvent<HTMLInputElement>) => onChange({ ...values, [k]: e.target.value });
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
      <Field label="Spend cap (USD)" htmlFor="nb-spend-cap" error={errors.spendCapUsd} hint="empty = none; unrun trials are skipped as “budget”">
        <input id="nb-spend-cap" inputMode="decimal" value={values.spendCapUsd} onChange={set("spendCapUsd")} className={inputClass(errors.spendCapUsd)} />
      </Field>
      <Field label="Max p95 latency increase (%)" htmlFor="nb-max-latency" error={errors.maxLatencyIncreasePct} hint="vs baseline; empty = no limit">
        <input
          id="nb-max-latency"
          inputMode="decimal"
          value={values.maxLatencyIncreasePct}
          onChange={set("maxLatencyIncreasePct")}
          className={inputClass(errors.maxLatencyIncreasePct)}
        />
      </Field>
      <Field label="Max cost per case increase (%)" htmlFor="nb-max-cost" error={errors.maxCostIncreasePct} hint="vs baseline; empty = no limit">
        <input
          id="nb-max-cost"
          inputMode="decimal"
          value={values.maxCostIncreasePct}
          onChange={set("maxCostIncreasePct")}
          className={inputClass(errors.maxCostIncreasePct)}
        />
      </Field>
    </div>
  );
}
