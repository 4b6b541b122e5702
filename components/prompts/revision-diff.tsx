import type { PromptRevisionDiff } from "@/lib/prompts/diff";
import { Section, settingLabel, settingText } from "./revision-detail";

/** The diff of two revisions: the template with insertions and deletions marked, then settings and tools. */
export function RevisionDiffView({ diff, fromLabel, toLabel }: { diff: PromptRevisionDiff; fromLabel: string; toLabel: string }) {
  const templateChanged = diff.template.some((p) => p.kind !== "same");
  return (
    <div className="flex flex-col gap-5" data-testid="revision-diff">
      {diff.same ? (
        <p className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
          {fromLabel} and {toLabel} have the same template, model settings and tools.
        </p>
      ) : null}
      <Section
        title="System prompt template"
        hint={
          templateChanged ? (
            <>
              Word diff: <del className="bg-red-100 text-red-800">removed in {toLabel}</del> ·{" "}
              <ins className="bg-emerald-100 text-emerald-900 no-underline">added in {toLabel}</ins>
            </>
          ) : (
            "Unchanged."
          )
        }
      >
        <pre
          className="rounded-md border border-slate-200 bg-white p-3 font-mono text-[13px] leading-relaxed whitespace-pre-wrap break-words text-slate-900"
          data-testid="template-diff"
        >
          {diff.template.map((p, i) =>
            p.kind === "added" ? (
              <ins key={i} className="rounded-sm bg-emerald-100 text-emerald-900 no-underline" aria-label={`added: ${p.text}`}>
                {p.text}
              </ins>
            ) : p.kind === "removed" ? (
              <del key={i} className="rounded-sm bg-red-100 text-red-800" aria-label={`removed: ${p.text}`}>
                {p.text}
              </del>
            ) : (
              <span key={i}>{p.text}</span>
            ),
          )}
        </pre>
      </Section>
      <Section title="Model settings">
        {diff.settings.length ? (
          <table className="w-full max-w-xl text-sm" data-testid="settings-diff">
            <thead>
              <tr className="text-left text-xs text-slate-500">
                <th className="py-1 font-medium">Setting</th>
                <th className="py-1 font-medium">{fromLabel}</th>
                <th className="py-1 font-medium">{toLabel}</th>
              </tr>
            </thead>
            <tbody>
              {diff.settings.map((s) => (
                <tr key={s.key} className="border-t border-slate-100">
                  <td className="py-1 text-slate-700">{settingLabel(s.key)}</td>
                  <td className="py-1 font-mono text-red-800">{settingText(s.from)}</td>
                  <td className="py-1 font-mono text-emerald-800">{settingText(s.to)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="text-sm text-slate-500">Unchanged.</p>
        )}
      </Section>
      <Section title="Tools">
        {diff.tools.length ? (
          <ul className="flex flex-col gap-1 text-sm" data-testid="tools-diff">
            {diff.tools.map((t) => (
              <li key={t.name}>
                <code className="font-mono">{t.name}</code>{" "}
                {t.change === "added" ? (
                  <span className="text-emerald-800">added</span>
                ) : t.change === "removed" ? (
                  <span className="text-red-800">removed</span>
                ) : (
                  <span className="text-amber-800">changed: {t.fields.join(", ")}</span>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">Unchanged.</p>
        )}
      </Section>
    </div>
  );
}
