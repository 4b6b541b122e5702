import type { CaseContent } from "@/lib/library/case-content";

/** The parts of a mapped row besides input and expected, as short chips (history, variables, recorded outputs, tags, notes, extra). */
export function DraftDetails({ content }: { content: CaseContent }) {
  const chips: { label: string; value: string }[] = [];
  if (content.history.length) chips.push({ label: "history", value: `${content.history.length} turn${content.history.length === 1 ? "" : "s"}` });
  for (const v of content.variables) chips.push({ label: `{{${v.name}}}`, value: v.value });
  for (const c of content.context) chips.push({ label: c.name, value: c.value });
  for (const [name, text] of Object.entries(content.recordedOutputs)) chips.push({ label: `output ${name}`, value: text });
  if (content.tags.length) chips.push({ label: "tags", value: content.tags.join(", ") });
  if (content.notes) chips.push({ label: "notes", value: content.notes });
  for (const [name, text] of Object.entries(content.extra)) chips.push({ label: name, value: text });
  if (chips.length === 0) return <span className="text-xs text-slate-400">—</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {chips.map((c, i) => (
        <li key={i} className="truncate text-xs" title={`${c.label}: ${c.value}`}>
          <span className="font-mono text-slate-500">{c.label}</span>{" "}
          <span className="text-slate-700">{c.value.length > 80 ? `${c.value.slice(0, 79)}…` : c.value || "(empty)"}</span>
        </li>
      ))}
    </ul>
  );
}
