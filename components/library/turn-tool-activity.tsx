import type { Turn } from "@/lib/library/case-content";
import { turnToolActivity } from "@/lib/library/turn-calls";

/**
 * The tool calls an imported turn makes (name and arguments), or the call a tool-result turn
 * answers, read from the turn's original JSON. Nothing when the turn has neither.
 */
export function TurnToolActivity({ turn, index }: { turn: Turn; index: number }) {
  const { calls, result } = turnToolActivity(turn);
  if (calls.length === 0 && !result) return null;
  return (
    <div aria-label={`Tool activity of turn ${index + 1}`} data-testid="turn-tool-activity" className="mt-1.5 flex flex-col gap-1.5">
      {result ? (
        <p className="text-xs text-slate-600">
          Result of tool call {result.id ? <code className="rounded bg-white px-1">{result.id}</code> : null}
          {result.name ? <> ({result.name})</> : null}
        </p>
      ) : null}
      {calls.map((c, k) => (
        <div key={k} className="rounded border border-slate-200 bg-white px-2 py-1.5">
          <p className="text-xs text-slate-700">
            Calls <code className="font-semibold text-slate-900">{c.name}</code>
            {c.id ? <span className="text-slate-500"> · {c.id}</span> : null}
          </p>
          <pre className="mt-1 max-h-48 overflow-auto font-mono text-xs break-words whitespace-pre-wrap text-slate-800">{c.arguments}</pre>
        </div>
      ))}
    </div>
  );
}
