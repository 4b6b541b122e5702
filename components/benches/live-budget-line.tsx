"use client";

import type { BenchSettings } from "@/db/queries/benches";
import type { SpendFigures } from "@/server/bench/progress-poll";
import { BudgetLine } from "./budget-line";
import { useLiveSpend } from "./live-spend";

/** The spend line of a bench that may be running: it follows the progress poll's figures (issue #16). */
export function LiveBudgetLine({
  benchId,
  settings,
  spend,
  candidates,
}: {
  benchId: number;
  settings: BenchSettings;
  spend: SpendFigures;
  candidates: { id: number; position: number; label: string }[];
}) {
  return <BudgetLine settings={settings} spend={useLiveSpend(benchId, spend)} candidates={candidates} />;
}
