/**
 * Benches: launch (one transaction storing the pinned rubric, candidates, manifest and queued
 * trials), reads for the bench pages and history, cancellation.
 */
import { and, asc, count, desc, eq, inArray, isNotNull, like, lt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { countWhere, isPostgres, rawRows } from "../dialect";
import { first, isRowId } from "../rows";
import { insertRows, type JsonScalar } from "../bulk-insert";
import { transaction, type TxDb } from "../transaction";
import { benchCandidates, benchCases, benches, prompts, trials } from "../schema";
import type { BenchPlan, CandidateSpec, CaseSelection } from "@/lib/bench/types";
import type { RubricCriterion } from "@/lib/bench/score";
import { isPartialRecommendation, type Fix, type Recommendation, type Regression } from "@/lib/bench/recommend";
import { statsOf, type CandidateStats } from "@/lib/bench/aggregate";
import type { ModelConfig } from "@/lib/runtime/model-config";
import { LibraryError } from "@/lib/library/errors";
import type { Author } from "@/lib/audit/author";
import { recordActivityTx } from "./activity";
import { NOT_CUT_BY_BUDGET } from "./bench-budget";
import { NOT_RERUN, RERUN_STANDS_IN } from "./rerun-sql";
import type { SpendCap } from "@/lib/bench/budget";
import type { GateLimits } from "@/lib/bench/stats/gate-limits";
import type { Tradeoffs } from "@/lib/bench/stats/tradeoffs";
import type { StoredEvidence } from "./bench-evidence";
import type { StoredFlips } from "@/lib/bench/evidence/flips";
import { DEFAULT_LEASE_MS, stalledClaims } from "./stalled-claims";
import type { StalledClaims } from "@/lib/bench/stalled-claims";
import type { CandidateProgress } from "@/lib/bench/progress-clock";
import { trialsColumn, trialsIndexedBy } from "./trials-from";
import { launchRunFromTrials, type RunTimes } from "./launch-run";

/** Settings a bench runs with (times in ms). */
export interface BenchSettings {
  selection: CaseSelection;
  /** Retained regression cases joined the selection (absent in benches launched before it was a choice: they did). */
  includeRetained?: boolean;
  budget: number | null;
  repeats: number;
  concurrency: number;
  timeoutMs: number;
  maxSteps: number;
  /** The prompt's default checks at launch (evaluator specs), inherited by cases without their own (issue 15). */
  defaultChecks?: unknown[];
  /** The spend cap (issue #16 §4): absent = none. See lib/bench/budget.ts. */
  spendCap?: SpendCap;
  /** Gate limits over the baseline in percent (issue #16 §4): absent = none. See lib/bench/stats/gate-limits.ts. */
  gate?: GateLimits;
  /**
   * The launch run's times (its launch trials' first start and last end, ms), kept as the first
   * rerun reopened the bench (db/queries/launch-run.ts); absent before any rerun, and on benches
   * reopened before they were kept (read from the trials then).
   */
  launchRun?: RunTimes;
  /**
   * Criteria and scenarios generated at launch (issue 17): the generation run (its proposals were
   * accepted as generated items of the library), the generator model, what was asked for, and the
   * criterion and case ids it made — the manifest and pinned rubric hold them as they were.
   */
  generated?: {
    runId: string;
    model: string;
    requested: { criteria: number; scenarios: number };
    criterionIds: number[];
    caseIds: number[];
    dropped: number;
    refused: string[];
  };
}

/** Where regressions are measured against. */
export type BaselineSetting = { kind: "candidate"; position: number } | { kind: "last-bench" } | { kind: "none" };

/** A candidate row as the bench pages and worker read it. */
export interface BenchCandidate {
  id: number;
  position: number;
  kind: "model" | "recorded";
  label: string;
  modelConfigId: number | null;
  modelConfig: ModelConfig | null;
  promptRevisionId: number | null;
  recordedName: string | null;
}

/** Results stored when a bench finishes. */
export interface BenchSummary {
  candidates: { candidateId: number; stats: CandidateStats }[];
  baselineCandidateId: number | null;
  referenceBenchId: number | null;
  referenceCandidateId: number | null;
  regressions: Record<string, Regression[]>;
  /** Per candidate id, the checks it fixed against the baseline or the last bench (absent in summaries stored before fixes were listed). */
  fixes?: Record<string, Fix[]>;
  /** Per candidate id (not the baseline), its cost and latency against the baseline (issue #16 §4; absent in summaries stored before). */
  tradeoffs?: Record<string, Tradeoffs>;
  /** Per candidate id, its paired statistics, computed when the summary is (issue #16, speed; absent in summaries stored before: computed on read). */
  evidence?: Record<string, StoredEvidence>;
  /** Per candidate except the baseline, in bench order, its flip table against the baseline (issue #16, speed; absent without a baseline and in summaries stored before: computed on read). */
  flips?: StoredFlips[];
  retained: number;
  /** A cancel stored after the run's last trial had its result (issue #16): it cancelled nothing and the run ended with all its results; who asked. */
  cancelTooLate?: { byEmail: string | null };
}

/** A bench with its snapshots decoded. */
export interface BenchDetail {
  id: number;
  systemId: string;
  promptId: number;
  promptName: string;
  title: string;
  status: "queued" | "running" | "finished" | "cancelled" | "failed";
  settings: BenchSettings;
  rubric: RubricCriterion[];
  rubricHash: string;
  baseline: BaselineSetting;
  judge: ModelConfig | null;
  trialCount: number;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  cancelRequestedAt: number | null;
  /** Who launched / asked to cancel it (issue 19); null when not recorded. */
  launchedByEmail: string | null;
  cancelledByEmail: string | null;
  summary: BenchSummary | null;
  recommendation: Recommendation | null;
  candidates: BenchCandidate[];
}

/** Everything a launch writes. */
export interface LaunchInput {
  systemId: string;
  promptId: number;
  title: string;
  launchKey: string;
  settings: BenchSettings;
  rubric: RubricCriterion[];
  rubricHash: string;
  baseline: BaselineSetting;
  judge: ModelConfig | null;
  candidates: { spec: CandidateSpec; modelConfigId: number | null; promptRevisionId: number | null }[];
  plan: BenchPlan;
  /** caseId → whether each recorded candidate (by name) has an output for it. */
  hasRecording: (caseId: number, recordedName: string) => boolean;
  /** Who launches it (issue 19): stored on the bench and in the activity. */
  author?: Author | null;
}

/** The id of the bench launched with `launchKey`, or null. */
export async function benchIdByLaunchKey(db: Db, launchKey: string): Promise<number | null> {
  return (await first(db.select({ id: benches.id }).from(benches).where(eq(benches.launchKey, launchKey))))?.id ?? null;
}

/** What a launch does besides its rows (PostgreSQL: its trials' jobs, see server/bench/trial-jobs.ts). */
export interface LaunchHooks {
  /** The bench's id, reserved beforehand with `reserveBenchId` (its job queues are made before the transaction). */
  id?: number;
  /** Runs inside the launch transaction after the trials are stored (only `tx` queries and the queue's own writes). */
  onQueued?: (tx: TxDb, benchId: number) => Promise<void>;
}

/**
 * Stores a bench and its queued trials in ONE transaction and returns its id. A second launch with
 * the same `launchKey` (a double click) returns the first bench's id and writes nothing.
 * Recorded trials without a recorded output are stored `skipped` with the reason.
 * @param hooks a reserved id and the enqueueing of the trials' jobs in the same transaction (PostgreSQL)
 * @throws LibraryError `validation` when the plan includes no case; what `hooks.onQueued` throws (nothing is stored)
 */
export async function launchBench(db: Db, b: LaunchInput, hooks: LaunchHooks = {}): Promise<{ id: number; created: boolean }> {
  return transaction(db, async (tx) => {
    const existing = await first(tx.select({ id: benches.id }).from(benches).where(eq(benches.launchKey, b.launchKey)));
    if (existing) return { id: existing.id, created: false };
    if (b.plan.includedCount === 0) throw new LibraryError("validation", "Nothing to run: the plan includes no case. " + (b.plan.warnings[0] ?? ""));
    const now = Date.now();
    const [{ id }] = await tx
      .insert(benches)
      .values({
        ...(hooks.id !== undefined ? { id: hooks.id } : {}),
        systemId: b.systemId,
        promptId: b.promptId,
        title: b.title,
        status: "queued",
        launchKey: b.launchKey,
        settings: JSON.stringify(b.settings),
        rubric: JSON.stringify(b.rubric),
        rubricHash: b.rubricHash,
        baseline: JSON.stringify(b.baseline),
        judge: b.judge ? JSON.stringify(b.judge) : null,
        trialCount: b.plan.trialCount,
        createdAt: now,
        ...(b.author ? { launchedById: b.author.userId, launchedByEmail: b.author.email } : {}),
      })
      .returning({ id: benches.id });
    await recordActivityTx(
      tx,
      b.author,
      { action: "bench.launch", subjectType: "bench", subjectId: id, systemId: b.systemId, detail: b.title.slice(0, 120) },
      now,
    );
    const candRows = await tx
      .insert(benchCandidates)
      .values(
        b.candidates.map((c, position) => ({
          benchId: id,
          position,
          kind: c.spec.kind,
          label: c.spec.label,
          modelConfigId: c.modelConfigId,
          modelConfig: c.spec.kind === "model" ? JSON.stringify(c.spec.model) : null,
          promptRevisionId: c.promptRevisionId,
          recordedName: c.spec.kind === "recorded" ? c.spec.recordedName : null,
        })),
      )
      .returning({ id: benchCandidates.id, position: benchCandidates.position });
    // RETURNING lists rows in no promised order: match them by their position.
    const candIds = candRows.sort((x, y) => x.position - y.position).map((c) => c.id);
    // One statement per few thousand rows (db/bulk-insert.ts): a 10,000-case launch stays well under a second.
    const stored = await insertRows<{ id: number; position: number }>(
      tx,
      benchCases,
      [
        benchCases.benchId,
        benchCases.position,
        benchCases.caseId,
        benchCases.caseRevisionId,
        benchCases.caseKey,
        benchCases.source,
        benchCases.group,
        benchCases.included,
        benchCases.reason,
        benchCases.note,
      ],
      b.plan.manifest.map((m) => [id, m.position, m.caseId, m.caseRevisionId, m.caseKey, m.source, m.group, m.included, m.reason, m.note]),
      [benchCases.id, benchCases.position],
    );
    const benchCaseIdAt = new Map(stored.map((r) => [r.position, r.id]));
    const recorded = b.candidates.map((c) => (c.spec.kind === "recorded" ? c.spec.recordedName : null));
    const skippedReason = b.candidates.map((c) => `no recorded output for candidate “${c.spec.label}” in this case`);
    const rows: JsonScalar[][] = [];
    for (const m of b.plan.manifest) {
      if (!m.included) continue;
      const benchCaseId = benchCaseIdAt.get(m.position)!;
      const skip = recorded.map((name) => name !== null && !b.hasRecording(m.caseId, name));
      // Queued case → repeat → candidate, and claimed in id order: the candidates of a case run side by
      // side, so a bench a spend cap stops early still has paired trials (issue 16 §4).
      for (let repeat = 1; repeat <= b.settings.repeats; repeat++)
        for (let ci = 0; ci < candIds.length; ci++)
          rows.push(
            skip[ci] ? [id, candIds[ci], benchCaseId, repeat, "skipped", skippedReason[ci], now] : [id, candIds[ci], benchCaseId, repeat, "queued", null, null],
          );
    }
    await insertRows(tx, trials, [trials.benchId, trials.candidateId, trials.benchCaseId, trials.repeat, trials.status, trials.error, trials.finishedAt], rows);
    await hooks.onQueued?.(tx, id);
    return { id, created: true };
  });
}

function decodeCandidate(r: typeof benchCandidates.$inferSelect): BenchCandidate {
  return {
    id: r.id,
    position: r.position,
    kind: r.kind,
    label: r.label,
    modelConfigId: r.modelConfigId,
    modelConfig: r.modelConfig ? (JSON.parse(r.modelConfig) as ModelConfig) : null,
    promptRevisionId: r.promptRevisionId,
    recordedName: r.recordedName,
  };
}

/** A bench with its candidates, or null (also for an id no row can have: NaN, 0, beyond 32 bits). */
export async function getBench(db: Db, id: number): Promise<BenchDetail | null> {
  if (!isRowId(id)) return null;
  const [r, candRows] = await Promise.all([
    first(db.select({ b: benches, promptName: prompts.name }).from(benches).innerJoin(prompts, eq(prompts.id, benches.promptId)).where(eq(benches.id, id))),
    db.select().from(benchCandidates).where(eq(benchCandidates.benchId, id)).orderBy(benchCandidates.position),
  ]);
  if (!r) return null;
  const b = r.b;
  const candidates = candRows.map(decodeCandidate);
  return {
    id: b.id,
    systemId: b.systemId,
    promptId: b.promptId,
    promptName: r.promptName,
    title: b.title,
    status: b.status,
    settings: JSON.parse(b.settings) as BenchSettings,
    rubric: JSON.parse(b.rubric) as RubricCriterion[],
    rubricHash: b.rubricHash,
    baseline: JSON.parse(b.baseline) as BaselineSetting,
    judge: b.judge ? (JSON.parse(b.judge) as ModelConfig) : null,
    trialCount: b.trialCount,
    createdAt: b.createdAt,
    startedAt: b.startedAt,
    finishedAt: b.finishedAt,
    cancelRequestedAt: b.cancelRequestedAt,
    launchedByEmail: b.launchedByEmail,
    cancelledByEmail: b.cancelledByEmail,
    summary: b.summary ? (JSON.parse(b.summary) as BenchSummary) : null,
    recommendation: b.recommendation ? (JSON.parse(b.recommendation) as Recommendation) : null,
    candidates,
  };
}

/** Progress of a bench: trials per status, and timing (ms). */
export interface BenchProgress {
  id: number;
  status: BenchDetail["status"];
  total: number;
  queued: number;
  running: number;
  done: number;
  error: number;
  /** Of `error`, the errored trials a later trial reruns (issue #16 §3): kept as history, no longer errors of the bench. */
  errorsRerun: number;
  skipped: number;
  /**
   * Of `skipped`, the trials of a rerun that was cancelled (before they ran, or after: not counted):
   * said apart from the budget's skips (issue #16). Absent from progress read before this field existed.
   */
  skippedRerunCancelled?: number;
  createdAt: number;
  /** When the current run started: the worker's first claim after launch, or the reopening by the last rerun (issue #16 §3). */
  startedAt: number | null;
  finishedAt: number | null;
  /** Trials that ended before the current run started: on a bench a rerun reopened, all its earlier trials; else 0. */
  finishedBefore: number;
  /**
   * On a bench a rerun reopened: its own run's times, from its launch trials (not reruns): the first
   * trial's start and the last one's end (ms; null when none started or ended). Absent before any
   * rerun, when `startedAt`/`finishedAt` are the launch run's.
   */
  launchRun?: { startedAt: number | null; finishedAt: number | null };
  /**
   * While the bench is queued or running (else empty), per candidate with trials (by id): all of its
   * trials, those ended, and those ended since `startedAt` (the progress clock's rates).
   */
  candidates: ({ candidateId: number } & CandidateProgress)[];
  cancelRequested: boolean;
  /** Of the running trials, those held by a worker that stopped responding (PostgreSQL; null when none). */
  stalled: StalledClaims | null;
}

/**
 * The most common reasons trials of a bench ended as `error` (the provider's message, or the
 * worker's), most frequent first; an errored trial a rerun replaced is left out (it stays in the trial view).
 * @param limit most reasons returned
 */
export async function trialErrorReasons(db: Db, benchId: number, limit = 5): Promise<{ message: string; trials: number }[]> {
  const n = count();
  const rows = await db
    .select({ message: trials.error, trials: n })
    .from(trials)
    // An errored trial a rerun replaced is attempt history, not an error left: the same rule as the page's Errors by kind (issue #16).
    .where(and(eq(trials.benchId, benchId), eq(trials.status, "error"), NOT_RERUN))
    .groupBy(trials.error)
    .orderBy(desc(n), asc(trials.error))
    .limit(limit);
  // The worker writes a reason with every error; "" stands in should one lack it.
  return rows.map((r) => ({ message: r.message ?? "", trials: r.trials }));
}

/** Trial counts per status of a bench (one indexed GROUP BY), or null (also for an id no row can have). */
export async function getBenchProgress(db: Db, id: number, o: { now?: number; leaseMs?: number } = {}): Promise<BenchProgress | null> {
  if (!isRowId(id)) return null;
  const b = await first(
    db
      .select({
        status: benches.status,
        createdAt: benches.createdAt,
        startedAt: benches.startedAt,
        finishedAt: benches.finishedAt,
        cancel: benches.cancelRequestedAt,
        total: benches.trialCount,
        rerunBase: benches.rerunBase,
        settings: benches.settings,
      })
      .from(benches)
      .where(eq(benches.id, id)),
  );
  if (!b) return null;
  const n: Record<string, number> = {};
  const perCandidate = new Map<number, { candidateId: number } & CandidateProgress>();
  if (b.status === "queued" || b.status === "running") {
    // Per candidate too, while the clock runs: the time left is estimated at each candidate's own rate
    // (recorded answers end at once, live calls take seconds). From the covering index on SQLite; its
    // grouping sorts (~4 ms of CPU per poll on 20,000 trials), so an ended bench reads the counts alone.
    const startedAt = b.startedAt;
    const rows = await db
      .select({
        candidateId: trialsColumn(trials.candidateId),
        status: trialsColumn(trials.status),
        n: count(),
        inRun: startedAt === null ? sql<number>`0` : countWhere(sql`${trials.finishedAt} >= ${startedAt}`),
      })
      .from(trialsIndexedBy(db, "trials_matrix"))
      .where(eq(trials.benchId, id))
      .groupBy(trials.candidateId, trials.status);
    for (const r of rows) {
      n[r.status] = (n[r.status] ?? 0) + r.n;
      let c = perCandidate.get(r.candidateId);
      if (!c) perCandidate.set(r.candidateId, (c = { candidateId: r.candidateId, total: 0, ended: 0, endedInRun: 0 }));
      c.total += r.n;
      if (r.status !== "queued" && r.status !== "running") {
        c.ended += r.n;
        c.endedInRun += Number(r.inRun);
      }
    }
  } else {
    const rows = await db.select({ status: trials.status, n: count() }).from(trials).where(eq(trials.benchId, id)).groupBy(trials.status);
    for (const r of rows) n[r.status] = r.n;
  }
  // Only a bench a rerun reopened can have errored trials that were rerun.
  const errorsRerun =
    b.rerunBase > 0 && n.error
      ? ((
          await first(
            db
              .select({ n: count() })
              .from(trials)
              .where(and(eq(trials.benchId, id), eq(trials.status, "error"), RERUN_STANDS_IN)),
          )
        )?.n ?? 0)
      : 0;
  // Only a bench a rerun reopened has trials of a cancelled rerun: skipped with a reason that starts
  // "cancelled" (before it ran, or its result not counted: bench-finalize).
  const skippedRerunCancelled =
    b.rerunBase > 0 && n.skipped
      ? ((
          await first(
            db
              .select({ n: count() })
              .from(trials)
              .where(and(eq(trials.benchId, id), eq(trials.status, "skipped"), isNotNull(trials.rerun), like(trials.error, "cancelled%"))),
          )
        )?.n ?? 0)
      : 0;
  // A rerun moved the bench's startedAt/finishedAt to its own: the launch run's times are its trials', kept
  // with the bench as the rerun reopened it (read from every trial only on a bench reopened before that).
  const launchRun = b.rerunBase > 0 ? ((JSON.parse(b.settings) as BenchSettings).launchRun ?? (await launchRunFromTrials(db, id))) : undefined;
  return {
    id,
    status: b.status,
    total: b.total,
    queued: n.queued ?? 0,
    running: n.running ?? 0,
    done: n.done ?? 0,
    error: n.error ?? 0,
    errorsRerun,
    skipped: n.skipped ?? 0,
    skippedRerunCancelled,
    createdAt: b.createdAt,
    startedAt: b.startedAt,
    finishedAt: b.finishedAt,
    // A rerun is timed over its own trials: the ones the bench had when it reopened had all ended.
    finishedBefore: b.rerunBase,
    ...(launchRun ? { launchRun: { startedAt: launchRun.startedAt, finishedAt: launchRun.finishedAt } } : {}),
    candidates: [...perCandidate.values()].sort((x, y) => x.candidateId - y.candidateId),
    cancelRequested: b.cancel != null,
    stalled: n.running ? await stalledClaims(db, id, o.now ?? Date.now(), o.leaseMs ?? DEFAULT_LEASE_MS) : null,
  };
}

/**
 * Requests cancellation: the worker aborts running trials and marks unrun ones `skipped`; finished
 * trials stay. Idempotent.
 * @throws LibraryError `not_allowed` when the bench already ended
 */
export async function requestCancel(db: Db, id: number, author?: Author | null): Promise<void> {
  await transaction(db, async (tx) => {
    // PostgreSQL: the bench's row first, as finalizeBench does: a cancel is stored before the bench ends, or sees it ended.
    if (isPostgres(tx)) await rawRows(tx, sql`SELECT 1 FROM benches WHERE id = ${id} FOR UPDATE`);
    const b = await first(
      tx.select({ status: benches.status, systemId: benches.systemId, cancelledAt: benches.cancelRequestedAt }).from(benches).where(eq(benches.id, id)),
    );
    if (!b) throw new LibraryError("not_found", `Bench #${id} does not exist.`);
    if (b.status !== "queued" && b.status !== "running")
      throw new LibraryError("not_allowed", `Bench #${id} has already ${b.status === "finished" ? "finished" : "ended"}; there is nothing to cancel.`);
    // The first request counts: a second click neither moves the time nor changes who cancelled.
    if (b.cancelledAt != null) return;
    await tx
      .update(benches)
      .set({ cancelRequestedAt: Date.now(), cancelledById: author?.userId ?? null, cancelledByEmail: author?.email ?? null })
      .where(eq(benches.id, id));
    await recordActivityTx(tx, author, { action: "bench.cancel", subjectType: "bench", subjectId: id, systemId: b.systemId });
  });
}

/** One line of a system's bench history. */
export interface BenchListItem {
  id: number;
  title: string;
  promptId: number;
  promptName: string;
  status: BenchDetail["status"];
  createdAt: number;
  finishedAt: number | null;
  /** Who launched it (issue 19); null before authorship was recorded. */
  launchedByEmail: string | null;
  trialCount: number;
  rubricHash: string;
  rubricSize: number;
  included: number;
  excluded: number;
  /**
   * The bench did not run every trial of its launched run: cancelled, or cut short by its spend cap
   * (issue #16). It recommends nothing; a recommendation stored before that rule is not shown.
   */
  partial: boolean;
  candidates: { id: number; label: string; passRate: number | null; scored: number; recommended: boolean; isBaseline: boolean }[];
}

/** Benches of a system (optionally one prompt), newest first. */
export async function listBenches(db: Db, systemId: string, promptId?: number): Promise<BenchListItem[]> {
  const rows = await db
    .select({ b: benches, promptName: prompts.name })
    .from(benches)
    .innerJoin(prompts, eq(prompts.id, benches.promptId))
    .where(promptId ? and(eq(benches.systemId, systemId), eq(benches.promptId, promptId)) : eq(benches.systemId, systemId))
    .orderBy(desc(benches.createdAt), desc(benches.id));
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.b.id);
  const [cands, counts] = await Promise.all([
    db.select().from(benchCandidates).where(inArray(benchCandidates.benchId, ids)).orderBy(benchCandidates.position),
    db
      .select({ benchId: benchCases.benchId, included: countWhere(eq(benchCases.included, true)), total: count() })
      .from(benchCases)
      .where(inArray(benchCases.benchId, ids))
      .groupBy(benchCases.benchId),
  ]);
  return rows.map(({ b, promptName }) => {
    const summary = b.summary ? (JSON.parse(b.summary) as BenchSummary) : null;
    const rec = b.recommendation ? (JSON.parse(b.recommendation) as Recommendation) : null;
    const c = counts.find((x) => x.benchId === b.id);
    // Stored before `partial` was kept, a partial bench's headline starts "Partial bench".
    const partial = b.status === "cancelled" || (rec !== null && isPartialRecommendation(rec));
    return {
      id: b.id,
      title: b.title,
      promptId: b.promptId,
      promptName,
      status: b.status,
      createdAt: b.createdAt,
      finishedAt: b.finishedAt,
      launchedByEmail: b.launchedByEmail,
      trialCount: b.trialCount,
      rubricHash: b.rubricHash,
      rubricSize: (JSON.parse(b.rubric) as unknown[]).length,
      included: c?.included ?? 0,
      excluded: (c?.total ?? 0) - (c?.included ?? 0),
      partial,
      candidates: cands
        .filter((x) => x.benchId === b.id)
        .map((x) => {
          const st = statsOf(summary, x.id);
          return {
            id: x.id,
            label: x.label,
            passRate: st?.passRate.rate ?? null,
            scored: st?.passRate.scored ?? 0,
            recommended: !partial && rec?.recommendedCandidateId === x.id,
            isBaseline: summary?.baselineCandidateId === x.id,
          };
        }),
    };
  });
}

/** The manifest of a bench as it was pinned. */
export async function getManifest(db: Db, benchId: number) {
  return db.select().from(benchCases).where(eq(benchCases.benchId, benchId)).orderBy(benchCases.position);
}

/** The last complete finished bench of the same prompt before `benchId` (none the spend cap cut short), or null. */
export async function previousFinishedBench(db: Db, promptId: number, benchId: number): Promise<number | null> {
  const r = await first(
    db
      .select({ id: benches.id })
      .from(benches)
      // Not one the spend cap cut short (issue #16): like a cancelled bench it ran on part of its cases only,
      // and a comparison over the few it paired would pass for "the last bench".
      .where(and(eq(benches.promptId, promptId), eq(benches.status, "finished"), lt(benches.id, benchId), NOT_CUT_BY_BUDGET))
      .orderBy(desc(benches.id))
      .limit(1),
  );
  return r?.id ?? null;
}
