/**
 * What went wrong in a bench, by kind (issue: errors must be visible wherever verdicts are): trials
 * that ended in error, grouped by the error's kind (`timeout`, `server`, `auth`, `worker` …), and
 * checks whose verdict is `error`, grouped by the check's kind (`judge`, `custom` …), each with its
 * most common messages.
 */
import { and, count, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { isPostgres, jsonText, rawRows } from "../dialect";
import { trials } from "../schema";
import { NOT_RERUN } from "./rerun-sql";
import { trialsIndexedBy } from "./trials-from";

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
 * first. An errored trial that "Rerun errored trials" replaced is left out: its rerun counts in
 * its place (its own errors are listed), and the errored attempt stays in the trial view.
 * @param examples most messages kept per kind (default 3)
 */
export async function benchErrorBreakdown(db: Db, benchId: number, examples = 3): Promise<ErrorKindCount[]> {
  const trialRows = await db
    .select({ message: trials.error, n: count() })
    .from(trials)
    // An errored trial a rerun replaced is attempt history (the trial view links the two), not an error left (issue #16).
    .where(and(eq(trials.benchId, benchId), eq(trials.status, "error"), NOT_RERUN))
    .groupBy(trials.error);
  // Only trials that hold an errored check are opened (error_checks is kept per trial): read from the
  // index that holds error_checks, else every trial row of the bench is read (results page speed, issue #16).
  const checks = isPostgres(db) ? sql`jsonb_array_elements(${trials.checks}::jsonb) c(value)` : sql`json_each(${trials.checks}) c`;
  const c = (key: string) => jsonText(db, sql.raw("c.value"), key);
  const checkRows = (
    await rawRows<{ kind: string | null; message: string | null; n: number }>(
      db,
      sql`SELECT ${c("kind")} AS kind, ${c("message")} AS message, count(*) AS n
       FROM ${trialsIndexedBy(db, "trials_matrix")}, ${checks}
       WHERE ${trials.benchId} = ${benchId} AND ${trials.errorChecks} > 0 AND ${c("verdict")} = 'error'
       GROUP BY kind, message`,
    )
  ).map((r) => ({ ...r, n: Number(r.n) }));
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
