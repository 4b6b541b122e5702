/**
 * What went wrong in a bench, by kind (issue: errors must be visible wherever verdicts are): trials
 * that ended in error, grouped by the error's kind (`timeout`, `server`, `auth`, `worker` …), and
 * checks whose verdict is `error`, grouped by the check's kind (`judge`, `custom` …), each with its
 * most common messages.
 */
import type { Db } from "../client";

/** One kind of error in a bench. */
export interface ErrorKindCount {
  /** A whole trial (the model call or the worker) or one check of a trial. */
  source: "trial" | "check";
  /** Trial error kind (the word before the message: `timeout`, `server`, `auth` …) or check kind (`judge`, `custom` …). */
  kind: string;
  /** Trials (source `trial`) or checks (source `check`) of this kind that errored. */
  count: number;
  /** The most common messages of this kind, most frequent first (at most `examples`). */
  examples: { message: string; count: number }[];
}

/** The kind of a stored trial error: its leading word (`timeout (HTTP 408): …` → `timeout`), else `other`. */
export function trialErrorKind(message: string | null): string {
  return /^([a-z_]+)\b/.exec(message ?? "")?.[1] ?? "other";
}

/**
 * Errors of a bench by kind: trial errors first, then check errors, each group most frequent
 * first.
 * @param examples most messages kept per kind (default 3)
 */
export function benchErrorBreakdown(db: Db, benchId: number, examples = 3): ErrorKindCount[] {
  const trialRows = db.$client
    .prepare("SELECT error AS message, count(*) AS n FROM trials WHERE bench_id = ? AND status = 'error' GROUP BY error")
    .all(benchId) as { message: string | null; n: number }[];
  // Only trials that hold an errored check are opened (error_checks is kept per trial): read from the
  // index that holds error_checks, else every trial row of the bench is read (results page speed, issue #16).
  const checkRows = db.$client
    .prepare(
      `SELECT json_extract(c.value, '$.kind') AS kind, json_extract(c.value, '$.message') AS message, count(*) AS n
       FROM trials t INDEXED BY trials_matrix, json_each(t.checks) c
       WHERE t.bench_id = ? AND t.error_checks > 0 AND json_extract(c.value, '$.verdict') = 'error'
       GROUP BY kind, message`,
    )
    .all(benchId) as { kind: string | null; message: string | null; n: number }[];
  const group = (source: ErrorKindCount["source"], rows: { kind: string; message: string; n: number }[]): ErrorKindCount[] => {
    const by = new Map<string, ErrorKindCount>();
    for (const r of rows) {
      const g = by.get(r.kind) ?? { source, kind: r.kind, count: 0, examples: [] };
      g.count += r.n;
      g.examples.push({ message: r.message, count: r.n });
      by.set(r.kind, g);
    }
    const out = [...by.values()].sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
    for (const g of out) g.examples = g.examples.sort((a, b) => b.count - a.count || a.message.localeCompare(b.message)).slice(0, examples);
    return out;
  };
  return [
    ...group(
      "trial",
      trialRows.map((r) => ({ kind: trialErrorKind(r.message), message: r.message ?? "(no message)", n: r.n })),
    ),
    ...group(
      "check",
      checkRows.map((r) => ({ kind: r.kind ?? "unknown", message: r.message ?? "(no message)", n: r.n })),
    ),
  ];
}
