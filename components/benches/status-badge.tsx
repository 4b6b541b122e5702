import { Badge, type BadgeTone } from "@/components/ui/badge";

const TONE: Record<string, BadgeTone> = { queued: "slate", running: "sky", finished: "green", cancelled: "amber", failed: "red" };

/** A bench's status as a badge. */
export function BenchStatus({ status }: { status: string }) {
  return <Badge tone={TONE[status] ?? "slate"}>{status}</Badge>;
}

/** "45.0% (90/200)" — a pass rate always with its denominator; "—" when nothing was scored. */
export function PassRate({ passed, scored }: { passed: number; scored: number }) {
  if (scored === 0) return <span className="text-slate-400">— (0 scored)</span>;
  return (
    <span>
      <span className="font-semibold tabular-nums">{((passed / scored) * 100).toFixed(1)}%</span>{" "}
      <span className="text-xs text-slate-500 tabular-nums">
        ({passed}/{scored})
      </span>
    </span>
  );
}
