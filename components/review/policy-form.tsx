"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { setCalibrationPolicyAction } from "@/app/systems/[systemId]/benches/[benchId]/review/actions";
import { Button } from "@/components/ui/button";
import type { CalibrationPolicy } from "@/lib/review/advisory";

/** The prompt's calibration policy (κ threshold, fewest reviewed trials); it applies to benches launched afterwards. */
export function PolicyForm({ systemId, benchId, policy }: { systemId: string; benchId: number; policy: CalibrationPolicy }) {
  const router = useRouter();
  const [kappa, setKappa] = useState(String(policy.kappaThreshold));
  const [min, setMin] = useState(String(policy.minReviewed));
  const [msg, setMsg] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <form
      aria-label="Calibration policy"
      className="flex flex-wrap items-end gap-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const r = await setCalibrationPolicyAction({ systemId, benchId, kappaThreshold: kappa, minReviewed: min });
          setMsg(r.ok ? "Saved: benches launched from now on use it." : Object.values(r.error.fieldErrors ?? {}).join(" ") || r.error.message);
          if (r.ok) router.refresh();
        });
      }}
    >
      <label className="flex flex-col text-xs text-slate-600">
        κ threshold
        <input
          value={kappa}
          onChange={(e) => setKappa(e.target.value)}
          inputMode="decimal"
          className="w-20 rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
      </label>
      <label className="flex flex-col text-xs text-slate-600">
        Fewest reviewed trials
        <input value={min} onChange={(e) => setMin(e.target.value)} inputMode="numeric" className="w-20 rounded-md border border-slate-300 px-2 py-1 text-sm" />
      </label>
      <Button type="submit" size="sm" disabled={pending}>
        Save for this prompt
      </Button>
      <span role="status" className="text-xs text-slate-600">
        {msg}
      </span>
    </form>
  );
}
