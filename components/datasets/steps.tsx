/** The three steps of an import, with the current one marked (Upload cases → Map and preview → Save). */
export function ImportSteps({ current }: { current: 1 | 2 }) {
  const steps = ["Upload cases", "Map and preview", "Save a version"];
  return (
    <ol aria-label="Import steps" className="flex flex-wrap items-center gap-2 text-xs">
      {steps.map((s, i) => {
        const n = i + 1;
        const state = n < current ? "done" : n === current ? "current" : "todo";
        return (
          <li key={s} aria-current={state === "current" ? "step" : undefined} className="flex items-center gap-2">
            <span
              className={`inline-flex h-5 w-5 items-center justify-center rounded-full text-[11px] font-semibold ${
                state === "done" ? "bg-emerald-600 text-white" : state === "current" ? "bg-indigo-600 text-white" : "bg-slate-200 text-slate-600"
              }`}
            >
              {state === "done" ? "✓" : n}
            </span>
            <span className={state === "current" ? "font-medium text-slate-900" : "text-slate-500"}>{s}</span>
            {n < steps.length ? (
              <span aria-hidden className="text-slate-300">
                ›
              </span>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
