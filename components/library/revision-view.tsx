import Link from "next/link";
import { TurnToolActivity } from "./turn-tool-activity";
import type { CaseContent } from "@/lib/library/case-content";
import { RecordedView } from "./recorded-view";
import { LocalTime } from "@/components/ui/local-time";
import { AuthorNote } from "@/components/audit/author-note";
import { describeEvaluator } from "@/lib/evaluators/describe";

function Block({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</h3>
      <div className="mt-1 text-sm text-slate-800">{children}</div>
    </div>
  );
}

const pre = "rounded-md bg-slate-50 p-2 whitespace-pre-wrap break-words";

/** An earlier case revision, read-only (earlier revisions are never changed). */
export function RevisionView({
  caseKey,
  revision,
  currentNumber,
  currentHref,
  closeHref,
}: {
  caseKey: string;
  revision: { number: number; createdAt: number; authorEmail?: string | null; erased: boolean; content: CaseContent };
  currentNumber: number;
  currentHref: string;
  closeHref: string;
}) {
  const c = revision.content;
  return (
    <aside aria-label={`Revision ${revision.number} of ${caseKey}`} className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-white p-5 shadow-sm">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 className="font-mono text-sm font-semibold text-slate-900">{caseKey}</h2>
          <p className="mt-1 text-sm text-slate-700">
            Revision {revision.number} of {currentNumber} · read-only · saved <LocalTime ms={revision.createdAt} />
            <AuthorNote email={revision.authorEmail} />
          </p>
        </div>
        <Link href={closeHref} className="rounded p-1 text-slate-500 hover:bg-slate-100" aria-label="Close panel">
          ✕
        </Link>
      </div>
      <Link href={currentHref} className="w-fit text-sm font-medium text-indigo-700 hover:underline">
        ← Back to the current revision ({currentNumber}) to edit
      </Link>
      {revision.erased ? <p className="text-sm text-amber-800">This revision&apos;s details were erased when the case was removed.</p> : null}
      <Block label="Input">
        <p className={pre}>{c.input}</p>
      </Block>
      <Block label="Expected result">
        <p className={pre}>{c.expected}</p>
      </Block>
      <Block label="Notes">{c.notes ? <p className={pre}>{c.notes}</p> : <span className="text-slate-500">none</span>}</Block>
      <Block label="Conversation history">
        {c.history.length ? (
          <ol className="flex flex-col gap-1.5">
            {c.history.map((t, i) => (
              <li key={i} className={pre}>
                <span className="font-mono text-xs text-slate-500">{t.role}</span> {t.content}
                <TurnToolActivity turn={t} index={i} />
              </li>
            ))}
          </ol>
        ) : (
          <span className="text-slate-500">none</span>
        )}
      </Block>
      <Block label="Evaluators">
        {c.evaluators.length ? (
          <ol className="flex list-decimal flex-col gap-1 pl-5">
            {c.evaluators.map((e, i) => (
              <li key={i}>{describeEvaluator(e)}</li>
            ))}
          </ol>
        ) : (
          <span className="text-slate-500">none</span>
        )}
      </Block>
      {(["variables", "context"] as const).map((k) => (
        <Block key={k} label={k === "variables" ? "Variables" : "Context"}>
          {c[k].length ? (
            <table className="w-full text-sm">
              <tbody>
                {c[k].map((r, i) => (
                  <tr key={i} className="border-b border-slate-100 last:border-0">
                    <td className="w-40 py-1 pr-2 align-top font-mono text-xs">{r.name}</td>
                    <td className="py-1 whitespace-pre-wrap">{r.value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <span className="text-slate-500">none</span>
          )}
        </Block>
      ))}
      {revision.erased ? null : <RecordedView content={c} />}
    </aside>
  );
}
