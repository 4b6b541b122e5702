/**
 * Per candidate and case revision, the mean cost and latency of a bench's finished trials: what the
 * trade-offs against the baseline are computed from (issue #16 §4; lib/bench/stats/tradeoffs.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { benchCases, trials } from "../schema";
import { IN_RESULTS } from "./rerun-sql";
import { compareTradeoffs, type CaseCost, type Tradeoffs } from "@/lib/bench/stats/tradeoffs";

/**
 * One grouped query over the `done` trials (errors and skipped ones have no answer to price or time) that
 * count in the results (a confirm round's trials do not: issue #16 §3).
 * @returns candidate id → case revision id → mean cost (USD, null when no trial had a price) and mean latency (ms)
 */
export async function benchCaseCosts(db: Db, benchId: number): Promise<Map<number, Map<number, CaseCost>>> {
  const rows = await db
    .select({
      c: trials.candidateId,
      r: benchCases.caseRevisionId,
      // avg is numeric (text) on PostgreSQL: as a number on both.
      cost: sql<number | null>`avg(${trials.costUsd})`.mapWith(Number),
      latency: sql<number | null>`avg(${trials.latencyMs})`.mapWith(Number),
    })
    .from(trials)
    .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
    .where(and(eq(trials.benchId, benchId), eq(trials.status, "done"), IN_RESULTS))
    .groupBy(trials.candidateId, benchCases.caseRevisionId);
  const out = new Map<number, Map<number, CaseCost>>();
  for (const x of rows) {
    let m = out.get(x.c);
    if (!m) out.set(x.c, (m = new Map()));
    m.set(x.r, { costUsd: x.cost, latencyMs: x.latency });
  }
  return out;
}

/**
 * The trade-offs of every candidate of a bench against its baseline candidate (the baseline itself
 * left out). Recorded candidates are read, not timed or priced: a pair with one has no trade-offs.
 * @param candidates the bench's candidates with their kind
 * @param costs the per-case costs when the caller read them already (the finalize: `benchCaseFigures`, whose cases
 *   without a `done` trial are left out as `benchCaseCosts` leaves them out), else read here
 * @returns candidate id → its trade-offs
 */
export async function benchTradeoffs(
  db: Db,
  benchId: number,
  baselineCandidateId: number,
  candidates: readonly { id: number; kind: string }[],
  costs?: ReadonlyMap<number, ReadonlyMap<number, CaseCost & { done?: number }>>,
): Promise<Map<number, Tradeoffs>> {
  const out = new Map<number, Tradeoffs>();
  const model = new Set(candidates.filter((c) => c.kind === "model").map((c) => c.id));
  if (!model.has(baselineCandidateId)) return out;
  const byCandidate: ReadonlyMap<number, ReadonlyMap<number, CaseCost & { done?: number }>> = costs ?? (await benchCaseCosts(db, benchId));
  const base: ReadonlyMap<number, CaseCost> = byCandidate.get(baselineCandidateId) ?? new Map();
  // A case with no done trial has null figures (skipped by compareTradeoffs); a candidate with none has no trade-offs.
  const ranAny = (cases: ReadonlyMap<number, { done?: number }>) => [...cases.values()].some((c) => c.done !== 0);
  for (const [id, own] of byCandidate) if (id !== baselineCandidateId && model.has(id) && ranAny(own)) out.set(id, compareTradeoffs(own, base));
  return out;
}
