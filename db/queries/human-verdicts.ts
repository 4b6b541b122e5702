/**
 * Human verdicts (issue 18): reviewers' pass / fail / can't-tell on the checks of a trial, stored
 * beside the judge's record (never in it), and the per-prompt calibration settings. Typed reads and
 * writes only; the overlay and the figures are in `lib/review`.
 */
import { eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import type { Tx } from "../write-transaction";
import { isPostgres, jsonText, rawRows } from "../dialect";
import { first } from "../rows";
import { benchCandidates, benchCases, benches, caseRevisions, humanVerdicts, promptCalibrationSettings, trials } from "../schema";
import type { HumanCheckVerdict, HumanVerdictValue } from "@/lib/review/overlay";
import { DEFAULT_CALIBRATION_POLICY, type CalibrationPolicy } from "@/lib/review/advisory";

/** A stored human verdict. `createdAt` in ms since the epoch. */
export interface HumanVerdictRow {
  id: number;
  trialId: number;
  checkKey: string;
  verdict: HumanVerdictValue;
  note: string;
  reviewer: string;
  createdAt: number;
}

/**
 * A SQL expression, for a query over `trials` (the table, not an alias), that is the trial's human
 * verdicts as JSON text (`[{ "checkKey", "verdict", "at", "id" }]`, in no set order:
 * {@link parseHumanOverlay} orders them), or null (PostgreSQL) or `[]` (SQLite) when it has none.
 * Scoring reads it beside `trials.checks`. (`trials.id` is written out: drizzle would write a column
 * selected from a single table without its table name, and `hv` has an `id` too.)
 */
export function humanOverlaySql(db: Db): SQL<string | null> {
  return isPostgres(db)
    ? sql<string | null>`(SELECT jsonb_agg(jsonb_build_object('checkKey', hv.check_key, 'verdict', hv.verdict, 'at', hv.created_at, 'id', hv.id))
  FROM human_verdicts hv WHERE hv.trial_id = trials.id)`
    : sql<string | null>`(SELECT json_group_array(json_object('checkKey', hv.check_key, 'verdict', hv.verdict, 'at', hv.created_at, 'id', hv.id))
  FROM human_verdicts hv WHERE hv.trial_id = trials.id)`;
}

/** The verdicts of {@link humanOverlaySql}'s text, oldest first (so the last one given wins). */
export function parseHumanOverlay(text: string | null | undefined): HumanCheckVerdict[] {
  if (!text) return [];
  const list = JSON.parse(text) as { checkKey: string; verdict: HumanVerdictValue; at: number; id: number }[];
  return list.sort((a, b) => a.at - b.at || a.id - b.id).map((v) => ({ checkKey: v.checkKey, verdict: v.verdict }));
}

/**
 * Stores a reviewer's verdict on one check of one trial: replaces that reviewer's earlier verdict on
 * the same check, leaves other reviewers' and the trial's checks alone. Call inside the transaction
 * that also rewrites the trial's counts.
 */
export async function upsertHumanVerdict(tx: Tx, v: Omit<HumanVerdictRow, "id">): Promise<void> {
  await tx
    .insert(humanVerdicts)
    .values(v)
    .onConflictDoUpdate({
      target: [humanVerdicts.trialId, humanVerdicts.checkKey, humanVerdicts.reviewer],
      set: { verdict: v.verdict, note: v.note, createdAt: v.createdAt },
    });
}

/** The human verdicts of one trial, oldest first. */
export async function trialHumanVerdicts(db: Db | Tx, trialId: number): Promise<HumanVerdictRow[]> {
  return db.select().from(humanVerdicts).where(eq(humanVerdicts.trialId, trialId)).orderBy(humanVerdicts.createdAt, humanVerdicts.id);
}

/** The human verdicts of a bench's trials, per trial id, oldest first. */
export async function benchHumanVerdicts(db: Db, benchId: number): Promise<Map<number, HumanVerdictRow[]>> {
  const rows = await db
    .select({ v: humanVerdicts })
    .from(humanVerdicts)
    .innerJoin(trials, eq(trials.id, humanVerdicts.trialId))
    .where(eq(trials.benchId, benchId))
    .orderBy(humanVerdicts.createdAt, humanVerdicts.id);
  const out = new Map<number, HumanVerdictRow[]>();
  for (const { v } of rows) out.set(v.trialId, [...(out.get(v.trialId) ?? []), v]);
  return out;
}

/** What a review needs of a trial to check and score a verdict: its bench, status and recorded checks (JSON text). */
export async function trialForVerdict(db: Db | Tx, trialId: number): Promise<{ id: number; benchId: number; status: string; checks: string | null } | null> {
  return (
    (await first(
      db.select({ id: trials.id, benchId: trials.benchId, status: trials.status, checks: trials.checks }).from(trials).where(eq(trials.id, trialId)),
    )) ?? null
  );
}

/**
 * Writes a trial's verdict counts (the columns the matrix, live figures and case tallies read) as
 * scored with human verdicts. `checks` — the judge's record — is not touched.
 */
export async function setTrialCounts(tx: Tx, trialId: number, n: { passed: number; failed: number; unscored: number; error: number }): Promise<void> {
  await tx
    .update(trials)
    .set({ passedChecks: n.passed, failedChecks: n.failed, unscoredChecks: n.unscored, errorChecks: n.error })
    .where(eq(trials.id, trialId));
}

/** One human verdict on a judged check, with what the judge recorded and what the review needs to show or export. */
export interface ReviewedCheckRow {
  benchId: number;
  trialId: number;
  caseKey: string;
  caseId: number;
  caseRevisionId: number;
  /** The revision's number within its case (1, 2, …), as the library shows it. */
  caseRevisionNumber: number;
  candidate: string;
  checkKey: string;
  criterionId: number | null;
  label: string;
  judgeVerdict: "passed" | "failed" | "unscored" | "error";
  judgeReason: string;
  /** `provider:modelId` of the bench's judge, null when it had none. */
  judgeModel: string | null;
  human: HumanVerdictValue;
  note: string;
  reviewer: string;
  reviewedAt: number;
  input: string;
  expected: string;
  output: string | null;
}

/**
 * Every human verdict on a judged check (a criterion) over the benches of prompt `promptId`, oldest
 * first, with the judge's recorded verdict and the judge model of its bench.
 * @param criterionId only this criterion's checks, when given
 */
export async function reviewedJudgedChecks(db: Db, promptId: number, criterionId?: number): Promise<ReviewedCheckRow[]> {
  // One row per verdict and its check in the trial's checks (a JSON array): a table function over it, per store.
  const k = sql.raw("k.value");
  const checksOf = isPostgres(db) ? sql`jsonb_array_elements(${trials.checks}::jsonb) k(value)` : sql`json_each(${trials.checks}) k`;
  const criterion = isPostgres(db) ? sql`(${jsonText(db, k, "criterionId")})::int` : jsonText(db, k, "criterionId");
  const judgeModel = sql`CASE WHEN ${benches.judge} IS NULL THEN NULL ELSE ${jsonText(db, benches.judge, "provider")} || ':' || ${jsonText(db, benches.judge, "modelId")} END`;
  return rawRows<ReviewedCheckRow>(
    db,
    sql`SELECT ${benches.id} AS "benchId", ${trials.id} AS "trialId", ${benchCases.caseKey} AS "caseKey", ${benchCases.caseId} AS "caseId",
              ${benchCases.caseRevisionId} AS "caseRevisionId", ${caseRevisions.number} AS "caseRevisionNumber", ${benchCandidates.label} AS "candidate",
              ${humanVerdicts.checkKey} AS "checkKey", ${criterion} AS "criterionId", ${jsonText(db, k, "label")} AS "label",
              ${jsonText(db, k, "verdict")} AS "judgeVerdict", coalesce(${jsonText(db, k, "message")}, '') AS "judgeReason",
              ${judgeModel} AS "judgeModel",
              ${humanVerdicts.verdict} AS "human", ${humanVerdicts.note} AS "note", ${humanVerdicts.reviewer} AS "reviewer", ${humanVerdicts.createdAt} AS "reviewedAt",
              ${caseRevisions.input} AS "input", ${caseRevisions.expected} AS "expected", ${trials.output} AS "output"
       FROM ${humanVerdicts} JOIN ${trials} ON ${trials.id} = ${humanVerdicts.trialId} JOIN ${benches} ON ${benches.id} = ${trials.benchId}
       JOIN ${benchCases} ON ${benchCases.id} = ${trials.benchCaseId} JOIN ${benchCandidates} ON ${benchCandidates.id} = ${trials.candidateId}
       JOIN ${caseRevisions} ON ${caseRevisions.id} = ${benchCases.caseRevisionId}, ${checksOf}
       WHERE ${benches.promptId} = ${promptId} AND ${jsonText(db, k, "key")} = ${humanVerdicts.checkKey} AND ${jsonText(db, k, "kind")} = 'judge'
         ${criterionId !== undefined ? sql`AND ${criterion} = ${criterionId}` : sql``}
       ORDER BY ${humanVerdicts.createdAt}, ${humanVerdicts.id}`,
  );
}

/** A prompt's calibration policy (the defaults when it set none). */
export async function getCalibrationPolicy(db: Db | Tx, promptId: number): Promise<CalibrationPolicy> {
  const r = await first(db.select().from(promptCalibrationSettings).where(eq(promptCalibrationSettings.promptId, promptId)));
  return r ? { kappaThreshold: r.kappaThreshold, minReviewed: r.minReviewed } : { ...DEFAULT_CALIBRATION_POLICY };
}

/** Sets a prompt's calibration policy (validated by the caller). */
export async function setCalibrationPolicy(db: Db, promptId: number, p: CalibrationPolicy, now: number): Promise<void> {
  await db
    .insert(promptCalibrationSettings)
    .values({ promptId, kappaThreshold: p.kappaThreshold, minReviewed: p.minReviewed, updatedAt: now })
    .onConflictDoUpdate({ target: promptCalibrationSettings.promptId, set: { kappaThreshold: p.kappaThreshold, minReviewed: p.minReviewed, updatedAt: now } });
}

/** Stores a bench's recomputed results (after a human verdict changed a trial's score). */
export async function updateBenchResults(db: Db, benchId: number, summary: unknown, recommendation: unknown): Promise<void> {
  await db
    .update(benches)
    .set({ summary: JSON.stringify(summary), recommendation: JSON.stringify(recommendation) })
    .where(eq(benches.id, benchId));
}
