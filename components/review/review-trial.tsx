import { decodeContent } from "@/lib/library/content-codec";

const pre = "max-h-72 overflow-auto rounded-md bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap break-words";

function Block({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-label={title}>
      <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{title}</h3>
      <div className="mt-1">{children}</div>
    </section>
  );
}

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((p) => (typeof p === "object" && p && "text" in p ? String((p as { text: unknown }).text) : JSON.stringify(p))).join("\n");
  return JSON.stringify(content, null, 2);
}

/**
 * What a reviewer reads of one trial (issue 18): the case input, the conversation as sent, the tool
 * calls and results, the output and the expected result — no verdicts (the panel beside it has them).
 * @param trial a row of `getTrial` (db/queries/bench-matrix)
 */
export function ReviewTrial({ trial }: { trial: Record<string, unknown> }) {
  const content = decodeContent(String(trial.input ?? ""), String(trial.expected ?? ""), String(trial.details ?? "{}"));
  const record = trial.record
    ? (JSON.parse(String(trial.record)) as {
        renderedMessages?: { role: string; content: unknown }[];
        steps?: { toolCalls: { toolName: string; input: unknown }[]; toolResults: { output: unknown }[] }[];
        toolCalls?: unknown[];
      })
    : null;
  const calls = record?.steps?.flatMap((s) => s.toolCalls.map((c, i) => ({ ...c, output: s.toolResults[i]?.output ?? null }))) ?? [];
  return (
    <div className="flex flex-col gap-4" data-testid="review-trial">
      <Block title="Input">
        <pre className={pre}>{content.input || "—"}</pre>
      </Block>
      {record?.renderedMessages?.length ? (
        <Block title="Conversation">
          <ol className="flex flex-col gap-1.5">
            {record.renderedMessages.map((m, i) => (
              <li key={i} className={pre}>
                <span className="font-semibold text-slate-500">{m.role}</span>
                {"\n"}
                {text(m.content)}
              </li>
            ))}
          </ol>
        </Block>
      ) : content.history.length ? (
        <Block title="Conversation">
          <ol className="flex flex-col gap-1.5">
            {content.history.map((m, i) => (
              <li key={i} className={pre}>
                <span className="font-semibold text-slate-500">{m.role}</span>
                {"\n"}
                {text(m.content)}
              </li>
            ))}
          </ol>
        </Block>
      ) : null}
      {calls.length ? (
        <Block title="Tool calls">
          <ol className="flex flex-col gap-1.5">
            {calls.map((c, i) => (
              <li key={i} className={pre}>
                <span className="font-semibold">→ {c.toolName}</span>({JSON.stringify(c.input)}){"\n"}← {JSON.stringify(c.output)}
              </li>
            ))}
          </ol>
        </Block>
      ) : record?.toolCalls?.length ? (
        <Block title="Tool calls">
          <pre className={pre}>{JSON.stringify(record.toolCalls, null, 2)}</pre>
        </Block>
      ) : null}
      <Block title="Output">
        <pre className={pre} data-testid="review-output">
          {trial.output == null ? (trial.error ? String(trial.error) : "—") : String(trial.output) || "(empty)"}
        </pre>
      </Block>
      <Block title="Expected result (as the bench pinned it)">
        <pre className={pre}>{content.expected || "—"}</pre>
      </Block>
    </div>
  );
}
