import { templateSegments, templateVariables } from "@/lib/runtime/template";
import type { ToolDefinition } from "@/lib/library/case-content";

const pre = "rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-[13px] leading-relaxed whitespace-pre-wrap break-words text-slate-900";

/** A section of the Prompt page: a heading and its content. */
export function Section({ title, hint, children }: { title: string; hint?: React.ReactNode; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-2">
      <div>
        <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
        {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
      </div>
      {children}
    </section>
  );
}

/** The system prompt template with its `{{variables}}` highlighted, and the list of variables. */
export function TemplateView({ template }: { template: string }) {
  const vars = templateVariables(template);
  return (
    <div className="flex flex-col gap-2">
      {template === "" ? (
        <p className="text-sm text-slate-500">No system prompt.</p>
      ) : (
        <pre className={pre} data-testid="prompt-template">
          {templateSegments(template).map((s, i) =>
            s.variable ? (
              <mark key={i} className="rounded bg-amber-100 px-0.5 text-amber-900" title={`variable ${s.variable}: filled from each case`}>
                {s.text}
              </mark>
            ) : (
              <span key={i}>{s.text}</span>
            ),
          )}
        </pre>
      )}
      <p className="text-xs text-slate-600" data-testid="prompt-variables">
        {vars.length ? (
          <>
            Variables, filled from each case:{" "}
            {vars.map((v, i) => (
              <span key={v}>
                {i ? ", " : ""}
                <code className="rounded bg-amber-50 px-1 text-amber-900">{v}</code>
              </span>
            ))}
            . A case without one of them is excluded from benches (&quot;missing variable&quot;).
          </>
        ) : (
          "No variables: every case gets the same system prompt."
        )}
      </p>
    </div>
  );
}

const SETTING_LABELS: Record<string, string> = {
  temperature: "Temperature",
  maxOutputTokens: "Max output tokens",
  topP: "Top P",
  stopSequences: "Stop sequences",
  providerOptions: "Provider options",
};

/** Shows a setting's value: numbers as is, lists and objects as JSON. */
export function settingText(v: unknown): string {
  if (v === undefined) return "not set";
  return typeof v === "string" || typeof v === "number" ? String(v) : JSON.stringify(v);
}

/** Name of a model setting as the page shows it. */
export const settingLabel = (key: string) => SETTING_LABELS[key] ?? key;

/** Model settings as a definition list; settings not given are listed as the model configuration's default. */
export function SettingsView({ settings }: { settings: Record<string, unknown> }) {
  const keys = [...Object.keys(SETTING_LABELS), ...Object.keys(settings).filter((k) => !(k in SETTING_LABELS))];
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm" data-testid="prompt-settings">
      {keys.map((k) => (
        <div key={k} className="contents">
          <dt className="text-slate-600">{settingLabel(k)}</dt>
          <dd className={settings[k] === undefined ? "text-slate-400" : "font-mono text-slate-900"}>
            {settings[k] === undefined ? "model configuration's default" : settingText(settings[k])}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Tools: name, description, JSON-schema input and fixtures (folded). */
export function ToolsView({ tools }: { tools: ToolDefinition[] }) {
  if (!tools.length) return <p className="text-sm text-slate-500">No tools.</p>;
  return (
    <ul className="flex flex-col gap-2" data-testid="prompt-tools">
      {tools.map((t) => (
        <li key={t.name} className="rounded-md border border-slate-200 p-3">
          <p className="font-mono text-sm font-semibold text-slate-900">{t.name}</p>
          <p className="text-sm text-slate-700">{t.description || <span className="text-slate-400">no description</span>}</p>
          <details className="mt-1 text-sm">
            <summary className="cursor-pointer text-xs font-medium text-indigo-700">Input schema</summary>
            <pre className={`${pre} mt-1`}>{JSON.stringify(t.inputSchema, null, 2)}</pre>
          </details>
          <details className="mt-1 text-sm">
            <summary className="cursor-pointer text-xs font-medium text-indigo-700">
              Fixtures {t.fixtures ? `(${(t.fixtures.byArguments?.length ?? 0) + (t.fixtures.default !== undefined ? 1 : 0)})` : "(none)"}
            </summary>
            <pre className={`${pre} mt-1`}>
              {t.fixtures ? JSON.stringify(t.fixtures, null, 2) : "No fixtures: a call returns an error result, never a real side effect."}
            </pre>
          </details>
        </li>
      ))}
    </ul>
  );
}

/** One revision's content: template, settings, tools. */
export function RevisionDetail({ revision }: { revision: { systemPrompt: string; modelSettings: Record<string, unknown>; tools: ToolDefinition[] } }) {
  return (
    <div className="flex flex-col gap-5">
      <Section title="System prompt template">
        <TemplateView template={revision.systemPrompt} />
      </Section>
      <Section title="Model settings" hint="These win over the model configuration's defaults; a setting not given here takes the configuration's value.">
        <SettingsView settings={revision.modelSettings} />
      </Section>
      <Section title="Tools">
        <ToolsView tools={revision.tools} />
      </Section>
    </div>
  );
}
