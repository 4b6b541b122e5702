/**
 * The launch run's times of a bench a rerun reopened (issue #16 §3): its launch trials' first start
 * and last end. They are read once, as the first rerun reopens the bench (its launch trials have all
 * ended then and no longer change), and kept in its settings: the progress poll, asked every second
 * while the rerun runs, reads them from the bench's row instead of every trial of the bench.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { trials } from "../schema";

/** A run's first trial start and last trial end (ms since the epoch; null when none started or ended). */
export interface RunTimes {
  startedAt: number | null;
  finishedAt: number | null;
}

/** An aggregate's value as a number (PostgreSQL returns a bigint column's min/max as text), or null. */
const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

/**
 * Bench `benchId`'s launch run times, from its launch trials (those no rerun added): reads every
 * trial row of the bench, so call it once per bench (as a rerun reopens it), not per poll.
 */
export async function launchRunFromTrials(db: Db, benchId: number): Promise<RunTimes> {
  const r = await first(
    db
      .select({ startedAt: sql<number | string | null>`min(${trials.startedAt})`, finishedAt: sql<number | string | null>`max(${trials.finishedAt})` })
      .from(trials)
      .where(and(eq(trials.benchId, benchId), isNull(trials.rerun))),
  );
  return { startedAt: num(r?.startedAt ?? null), finishedAt: num(r?.finishedAt ?? null) };
}
