import type { CaseContent } from "@/lib/library/case-content";

/**
 * Read-only part of the case panel: the answers recorded for this case (one per recorded candidate,
 * from an imported output column or the demo data; what a recorded candidate is scored on) and the
 * imported columns that had no role. They come from the dataset, so they are shown, not edited.
 */
export function RecordedView({ content }: { content: Pick<CaseContent, "recordedOutputs" | "recordedToolCalls" | "extra"> }) {
  const outputs = Object.entries(content.recordedOutputs ?? {});
  const toolCalls = content.recordedToolCalls ?? {};
  const names = [...new Set([...outputs.map(([n]) => n), ...Object.keys(toolCalls)])].sort();
  const extra = Object.entries(content.extra ?? {});
  if (names.length === 0 && extra.length === 0) return null;
  const summary = [
    names.length ? `${names.length} recorded output${names.length > 1 ? "s" : ""}` : "",
    extra.length ? `${extra.length} other column${extra.length > 1 ? "s" : ""}` : "",
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <details className="group rounded-md border border-slate-200" data-testid="recorded-view">
      <summary className="cursor-pointer list-none px-3 py-2 text-sm font-medium text-slate-800 select-none">
        <span className="mr-1 inline-block transition-transform group-open:rotate-90">▸</span> Recorded outputs
        <span className="ml-2 text-xs font-normal text-slate-500">({summary}, from the dataset)</span>
      </summary>
      <dl className="flex flex-col gap-3 border-t border-slate-200 p-3 text-sm">
        {names.map((name) => (
          <div key={`o:${name}`}>
            <dt className="text-xs font-medium text-slate-600">
              Output of <code className="break-all">{name}</code>
            </dt>
            <dd className="mt-1">
              {name in (content.recordedOutputs ?? {}) ? (
                <pre className="max-h-48 overflow-auto rounded bg-slate-50 p-2 text-xs [overflow-wrap:anywhere] whitespace-pre-wrap text-slate-800">
                  {content.recordedOutputs[name] || "(empty)"}
                </pre>
              ) : null}
              {toolCalls[name]?.length ? (
                <ul className="mt-1 flex flex-col gap-0.5 text-xs text-slate-700">
                  {toolCalls[name].map((c, i) => (
                    <li key={i}>
                      → <code>{c.toolName}</code> <code className="text-slate-500">{JSON.stringify(c.input)}</code>
                    </li>
                  ))}
                </ul>
              ) : null}
            </dd>
          </div>
        ))}
        {extra.length ? (
          <div>
            <dt className="text-xs font-medium text-slate-600">Other columns</dt>
            <dd className="mt-1">
              <dl className="grid grid-cols-[minmax(0,40%)_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
                {extra.map(([k, v]) => (
                  <div key={k} className="contents">
                    <dt>
                      <code className="break-all text-slate-600">{k}</code>
                    </dt>
                    <dd className="break-words whitespace-pre-wrap text-slate-800">{v || "(empty)"}</dd>
                  </div>
                ))}
              </dl>
            </dd>
          </div>
        ) : null}
      </dl>
    </details>
  );
}
