/**
 * Per candidate and case revision, the mean cost and latency of a bench's finished trials: what the
 * trade-offs against the baseline are computed from (issue #16 §4; lib/bench/stats/tradeoffs.ts).
 */
import type { Db } from "../client";
import { IN_RESULTS } from "./rerun-sql";
import { compareTradeoffs, type CaseCost, type Tradeoffs } from "@/lib/bench/stats/tradeoffs";

/**
 * One grouped query over the `done` trials (errors and skipped ones have no answer to price or time) that
 * count in the results (a confirm round's trials do not: issue #16 §3).
 * @returns candidate id → case revision id → mean cost (USD, null when no trial had a price) and mean latency (ms)
 */
export function benchCaseCosts(db: Db, benchId: number): Map<number, Map<number, CaseCost>> {
  const rows = db.$client
    .prepare(
      `SELECT t.candidate_id AS c, bc.case_revision_id AS r, avg(t.cost_usd) AS cost, avg(t.latency_ms) AS latency
       FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id
       WHERE t.bench_id = ? AND t.status = 'done' AND ${IN_RESULTS}
       GROUP BY t.candidate_id, bc.case_revision_id`,
    )
    .all(benchId) as { c: number; r: number; cost: number | null; latency: number | null }[];
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
export function benchTradeoffs(
  db: Db,
  benchId: number,
  baselineCandidateId: number,
  candidates: readonly { id: number; kind: string }[],
  costs?: ReadonlyMap<number, ReadonlyMap<number, CaseCost & { done?: number }>>,
): Map<number, Tradeoffs> {
  const out = new Map<number, Tradeoffs>();
  const model = new Set(candidates.filter((c) => c.kind === "model").map((c) => c.id));
  if (!model.has(baselineCandidateId)) return out;
  const byCandidate: ReadonlyMap<number, ReadonlyMap<number, CaseCost & { done?: number }>> = costs ?? benchCaseCosts(db, benchId);
  const base: ReadonlyMap<number, CaseCost> = byCandidate.get(baselineCandidateId) ?? new Map();
  // A case with no done trial has null figures (skipped by compareTradeoffs); a candidate with none has no trade-offs.
  const ranAny = (cases: ReadonlyMap<number, { done?: number }>) => [...cases.values()].some((c) => c.done !== 0);
  for (const [id, own] of byCandidate) if (id !== baselineCandidateId && model.has(id) && ranAny(own)) out.set(id, compareTradeoffs(own, base));
  return out;
}
